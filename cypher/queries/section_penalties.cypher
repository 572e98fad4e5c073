// Penalties reachable from a violated section within 3 hops: a penalty section penalises
// or cites it directly or through one citing section, and prescribes Penalty nodes.
MATCH (s:Section {key: $key})
WHERE s.law_version IN $published
OPTIONAL MATCH p = (s)<-[:PENALIZES|REFERENCES*1..2]-(ps:Section)
WHERE all(x IN nodes(p) WHERE x.law_version IN $published)
  AND EXISTS { (ps)-[:PENALIZES]->() }
OPTIONAL MATCH (ps)-[:PRESCRIBES]->(pen:Penalty)
WHERE pen.law_version IN $published
RETURN s.key AS section, properties(ps) AS penalty_section,
       [x IN nodes(p) | x.key] AS path_keys,
       [x IN nodes(p) | coalesce(x.label, x.key)] AS path_labels,
       [r IN relationships(p) | type(r)] AS path_types,
       [r IN relationships(p) | startNode(r).key] AS path_starts,
       properties(pen) AS penalty
ORDER BY size(path_keys), ps.key, pen.key
