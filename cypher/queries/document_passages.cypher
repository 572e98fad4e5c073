// The caller's visible passages for a search, in one read: those the vector search found
// ($keys), and the best $limit of the others that cite the sections the search returned
// ($sections, in rank order; a passage weighs the sum of $weights[i] over the returned
// sections it cites). The visibility predicate sits in each match, as in every passage
// query; each passage comes with the published sections it cites.
CALL {
  UNWIND $keys AS k
  MATCH (p:Passage {uid: k})
  WHERE p.tenant = $tenant AND ($all_scopes OR any(x IN p.scopes WHERE x IN $scopes))
  RETURN p, true AS found_by_vector
  UNION ALL
  UNWIND range(0, size($sections) - 1) AS i
  MATCH (s:Section {key: $sections[i]})<-[:CITES]-(p:Passage)
  WHERE s.law_version IN $published
    AND p.tenant = $tenant AND ($all_scopes OR any(x IN p.scopes WHERE x IN $scopes))
    AND NOT p.uid IN $keys
  WITH p, sum($weights[i]) AS weight
  ORDER BY weight DESC, p.uid
  LIMIT $limit
  RETURN p, false AS found_by_vector
}
MATCH (d:Document)-[:HAS_PASSAGE]->(p)
OPTIONAL MATCH (p)-[:CITES]->(s:Section)
WHERE s.law_version IN $published
RETURN p.key AS key, p.label AS label, p.text AS text, p.order AS order,
       d.key AS document, d.title AS title, d.date AS date, found_by_vector,
       collect(s.key) AS cites
