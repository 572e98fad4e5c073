// Details of passages a search found in the vectors, with the sections each cites, under
// the same visibility predicate as every passage query.
UNWIND $keys AS k
MATCH (d:Document)-[:HAS_PASSAGE]->(p:Passage {uid: k})
WHERE p.tenant = $tenant AND ($all_scopes OR any(x IN p.scopes WHERE x IN $scopes))
OPTIONAL MATCH (p)-[:CITES]->(s:Section)
WHERE s.law_version IN $published
RETURN p.key AS key, p.label AS label, p.text AS text, p.order AS order,
       d.key AS document, d.title AS title, d.date AS date,
       collect(s.key) AS cites, collect(s.label) AS cite_labels
