// Relationships per type whose source node belongs to $law (all of them when $law = null).
MATCH (a)-[r]->()
WHERE $law IS NULL OR a.law = $law
RETURN type(r) AS type, count(*) AS count
