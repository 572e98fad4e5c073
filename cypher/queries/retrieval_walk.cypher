// Retrieval: ONE walk query from the seeds, at most 2 hops, both directions, over the
// typed (non-hierarchy) relationships. The bound is fixed at 2 (Cypher cannot
// parameterise it); $max_hops (1 or 2) filters. Only nodes of published law versions
// ($published: "law@version"; the seed, the middle node and the end node are checked);
// ExternalLaw and Concept nodes are shared across versions and carry no law_version. A
// Definition is crossed only towards the section defining it: every section uses
// "personal data", and walking on through its USES_TERM edges would reach the whole law;
// the terms a neighbour uses (USES_TERM on hop 2) are not worth a row either (a 3-seed
// PDPA walk: ~630 paths without these rules, ~150 with them).
//
// Seeds of every kind in one list: Neo4j 5 plans `(s:Section|Definition|Penalty|Exemption
// {key: k})` as one key-index seek per label (PROFILE: NodeIndexSeek x4 under a Union).
// $limit bounds what a hub returns, shortest paths first. The query returns the distinct
// relationships of its paths, [type, start key, end key], as ONE row; `retrieval.walk`
// rebuilds the paths from them with the same rules, and node details come afterwards from
// retrieval_nodes for the few nodes that make the cut. Beside them, [start key, end key]
// of the PENALIZES among them that punish a duty only as another section applies it
// (`applied`: a representative's fine for the controller's duty), a weaker companion.
//
// The second branch walks the $anchors (lower vector hits, sections) one hop only, to see
// who penalises them (or cites them and penalises something) without their whole
// neighbourhood. Term uses and external citations are left out there: retrieval uses an
// anchor's edges only for the roles and companions a one-hop edge can show.
UNWIND $seeds AS k
MATCH (s:Section|Definition|Penalty|Exemption {key: k})
WHERE s.law_version IN $published
MATCH p = (s)-[:REFERENCES|PENALIZES|PRESCRIBES|DEFINES|USES_TERM|GRANTS_EXEMPTION|EXEMPTS_FROM|CITES_EXTERNAL*1..2]-(n)
WHERE length(p) <= $max_hops
  AND NOT (length(p) = 2 AND (type(relationships(p)[1]) = 'USES_TERM'
           OR (nodes(p)[1]:Definition AND type(relationships(p)[1]) <> 'DEFINES')))
  AND (nodes(p)[1].law_version IS NULL OR nodes(p)[1].law_version IN $published)
  AND (n.law_version IS NULL OR n.law_version IN $published)
WITH p ORDER BY length(p) LIMIT $limit
UNWIND relationships(p) AS r
WITH DISTINCT r
RETURN collect([type(r), startNode(r).key, endNode(r).key]) AS edges,
       collect(CASE WHEN r.applied THEN [startNode(r).key, endNode(r).key] END) AS applied
UNION ALL
UNWIND $anchors AS k
MATCH p = (s:Section {key: k})-[:REFERENCES|PENALIZES|PRESCRIBES|DEFINES|GRANTS_EXEMPTION|EXEMPTS_FROM]-(n)
WHERE s.law_version IN $published AND (n.law_version IS NULL OR n.law_version IN $published)
WITH p LIMIT $limit
UNWIND relationships(p) AS r
WITH DISTINCT r
RETURN collect([type(r), startNode(r).key, endNode(r).key]) AS edges,
       collect(CASE WHEN r.applied THEN [startNode(r).key, endNode(r).key] END) AS applied
