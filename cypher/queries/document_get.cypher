// One document with its passages and the sections each cites, when the caller may see it:
// the document is of the caller's tenant and ($all_scopes, an admin) shares a scope with
// the caller's ($scopes: "@tenant" and its groups). Anything else is no row: unknown and
// invisible read the same.
MATCH (d:Document {uid: $key})
WHERE d.tenant = $tenant AND ($all_scopes OR any(x IN d.scopes WHERE x IN $scopes))
OPTIONAL MATCH (d)-[:HAS_PASSAGE]->(p:Passage)
OPTIONAL MATCH (p)-[c:CITES]->(s:Section)
WITH d, p, collect(CASE WHEN s IS NULL THEN null
                   ELSE {key: s.key, law: s.law, label: s.label, cited_as: c.text} END) AS cites
ORDER BY p.order
RETURN properties(d) AS document,
       collect(CASE WHEN p IS NULL THEN null
               ELSE {key: p.key, order: p.order, label: p.label, heading: p.heading,
                     text: p.text, cites: cites} END) AS passages
