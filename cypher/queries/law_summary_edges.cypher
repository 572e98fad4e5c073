// Relationship counts by type for the edges leaving one published law version.
MATCH (a)-[r]->()
WHERE a.law_version = $law_version
RETURN type(r) AS type, count(*) AS count
ORDER BY type
