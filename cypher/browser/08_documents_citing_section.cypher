// A firm's documents that cite a section, as a graph: Document -[HAS_PASSAGE]-> Passage
// -[CITES]-> Section, each citing passage with its document's title and date and the
// scopes (groups) it is visible to. One tenant's at a time; the API enforces scopes for
// its callers, Neo4j roles do it for Browser users (README, "Restricting Neo4j Browser
// users in production").
// In Neo4j Browser first set:  :param law => 'th-pdpa-2562'   :param section => '26'
//                              :param tenant => 'default'
MATCH (l:Law {key: $law})
WHERE l.published_version IS NOT NULL
MATCH (s:Section {uid: $law + ':s:' + $section + '@' + l.published_version})
MATCH cited = (d:Document)-[:HAS_PASSAGE]->(p:Passage)-[c:CITES]->(s)
WHERE p.tenant = $tenant
RETURN cited, d.title AS document, d.date AS date, p.label AS passage, p.scopes AS scopes,
       c.text AS cited_as
ORDER BY document, passage
