// The sections of one published law version that other published sections cite most
// ({law: $law} starts from the section_law index).
MATCH (s:Section {law: $law})<-[r:REFERENCES|PENALIZES]-(c)
WHERE s.law_version = $law_version AND c.law_version IN $published
RETURN s.key AS key, s.number AS number, s.label AS label, count(r) AS cited
ORDER BY cited DESC, key
LIMIT $limit
