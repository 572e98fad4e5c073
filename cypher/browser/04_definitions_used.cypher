// The defined terms a section uses, with the definition text and the section defining it.
// In Neo4j Browser first set:  :param law => 'th-pdpa-2562'   :param section => '26'
MATCH (l:Law)
WHERE l.published_version IS NOT NULL
WITH collect(l.key + '@' + l.published_version) AS published
MATCH (s:Section {key: $law + ':s:' + $section})
WHERE s.law_version IN published
MATCH p = (s)-[:USES_TERM]->(d:Definition)
WHERE d.law_version IN published
OPTIONAL MATCH q = (ds:Section)-[:DEFINES]->(d)
WHERE ds.law_version IN published
RETURN p, q, d.key AS definition, d.term AS term, d.text AS meaning, ds.label AS defined_in
ORDER BY term
