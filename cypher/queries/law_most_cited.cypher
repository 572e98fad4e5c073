// The sections of one published law version that other published sections cite most.
MATCH (s:Section)<-[r:REFERENCES|PENALIZES]-(c)
WHERE s.law_version = $law_version AND c.law_version IN $published
RETURN s.key AS key, s.number AS number, s.label AS label, count(r) AS cited
ORDER BY cited DESC, key
LIMIT $limit
