// Everything within two hops of a section: what it cites, what cites it, its penalties and
// exemptions, and their neighbours. Published law versions only.
// In Neo4j Browser first set:  :param law => 'th-pdpa-2562'   :param section => '26'
// (section: the number with Arabic digits, as in the key: '26', '26/1', '19 ทวิ').
// Left out: structure edges (through a chapter every sibling is two hops away) and
// USES_TERM (through "personal data" most of the Act is); 04_definitions_used shows terms.
MATCH (l:Law)
WHERE l.published_version IS NOT NULL
WITH collect(l.key + '@' + l.published_version) AS published
MATCH (s:Section {key: $law + ':s:' + $section})
WHERE s.law_version IN published
MATCH p = (s)-[:REFERENCES|PENALIZES|PRESCRIBES|DEFINES|GRANTS_EXEMPTION|EXEMPTS_FROM|CITES_EXTERNAL|ABOUT*1..2]-(n)
WHERE n <> s AND all(x IN nodes(p) WHERE x.law_version IS NULL OR x.law_version IN published)
RETURN p, n.key AS key, labels(n)[0] AS type, coalesce(n.label, n.term, n.name, n.kind, n.key) AS label, length(p) AS hops
ORDER BY hops, key
