// Passages of the caller's visible documents that cite these published sections. The
// visibility predicate sits in the match, so a path passes from a section to a citing
// passage only when the passage's document is the caller's tenant's and shares a scope
// with the caller ($all_scopes: an admin, every scope of its tenant).
UNWIND $sections AS k
MATCH (s:Section {key: k})<-[c:CITES]-(p:Passage)
WHERE s.law_version IN $published
  AND p.tenant = $tenant AND ($all_scopes OR any(x IN p.scopes WHERE x IN $scopes))
MATCH (d:Document)-[:HAS_PASSAGE]->(p)
RETURN s.key AS section, s.label AS section_label, p.key AS key, p.label AS label,
       p.text AS text, p.order AS order, d.key AS document, d.title AS title,
       d.date AS date, c.text AS cited_as
ORDER BY section, document, order
LIMIT $limit
