// The shortest chain of legal links (citations, penalties, exemptions, either direction)
// between two sections of one law, at most 6 steps. Published law versions only.
// Definitions are left out: two sections using "personal data" are not linked by it.
// In Neo4j Browser first set:  :param law => 'th-pdpa-2562'   :param from => '26'   :param to => '84'
MATCH (l:Law)
WHERE l.published_version IS NOT NULL
WITH collect(l.key + '@' + l.published_version) AS published
MATCH (a:Section {key: $law + ':s:' + $from})
WHERE a.law_version IN published
MATCH (b:Section {key: $law + ':s:' + $to})
WHERE b.law_version IN published
MATCH p = shortestPath((a)-[:REFERENCES|PENALIZES|PRESCRIBES|GRANTS_EXEMPTION|EXEMPTS_FROM*..6]-(b))
WHERE all(x IN nodes(p) WHERE x.law_version IN published)
RETURN p, [x IN nodes(p) | coalesce(x.label, x.term, x.key)] AS steps, [r IN relationships(p) | type(r)] AS links, length(p) AS length
