// Which sections cite a section, in its own law and in every other law (published only).
// In Neo4j Browser first set:  :param law => 'th-pdpa-2562'   :param section => '26'
MATCH (l:Law)
WHERE l.published_version IS NOT NULL
WITH collect(l.key + '@' + l.published_version) AS published
MATCH (s:Section {key: $law + ':s:' + $section})
WHERE s.law_version IN published
MATCH p = (c:Section)-[r:REFERENCES|PENALIZES]->(s)
WHERE c.law_version IN published
WITH c, collect(p) AS paths, collect(DISTINCT type(r)) AS how
RETURN paths, c.key AS citing, c.label AS label, c.law AS law, c.law <> $law AS other_law, how
ORDER BY other_law DESC, law, citing
