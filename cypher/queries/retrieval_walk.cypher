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
// One branch per seed label, each starting from `UNWIND $keys AS k MATCH (s:Label {key: k})`:
// that is the form ArcadeDB answers from the key index. A multi-label pattern
// (s:Section|Definition) or a `WHERE s.key IN $seeds` ahead of the path pattern scans every
// node instead (698 laws, 27k nodes: 77 ms against 12 ms for the same walk). A branch with
// an empty list costs nothing. $limit bounds what a hub returns, shortest paths first.
//
// Each branch returns the distinct relationships of its paths, [type, start key, end key],
// as ONE row; `retrieval.walk` rebuilds the paths from them with the same rules. ArcadeDB's
// cost follows what it projects: on the PDPA dev questions ~300 paths as
// [labels, node keys, types, start keys] took 11-13 ms at p50, their ~180 distinct
// relationships 5 ms. Node details come afterwards from retrieval_nodes for the few nodes
// that make the cut.
//
// The last branch walks the $anchors (lower vector hits, sections) one hop only, to see who
// penalises them (or cites them and penalises something) without their whole
// neighbourhood. Term uses and external citations are left out there: retrieval uses an
// anchor's edges only for the roles and companions a one-hop edge can show.
UNWIND $section_seeds AS k
MATCH p = (s:Section {key: k})-[:REFERENCES|PENALIZES|PRESCRIBES|DEFINES|USES_TERM|GRANTS_EXEMPTION|EXEMPTS_FROM|CITES_EXTERNAL*1..2]-(n)
WHERE s.law_version IN $published AND length(p) <= $max_hops
  AND NOT (length(p) = 2 AND (type(relationships(p)[1]) = 'USES_TERM'
           OR (nodes(p)[1]:Definition AND type(relationships(p)[1]) <> 'DEFINES')))
  AND (nodes(p)[1].law_version IS NULL OR nodes(p)[1].law_version IN $published)
  AND (n.law_version IS NULL OR n.law_version IN $published)
WITH p ORDER BY length(p) LIMIT $limit
UNWIND relationships(p) AS r
WITH DISTINCT r
RETURN collect([type(r), startNode(r).key, endNode(r).key]) AS edges
UNION ALL
UNWIND $definition_seeds AS k
MATCH p = (s:Definition {key: k})-[:REFERENCES|PENALIZES|PRESCRIBES|DEFINES|USES_TERM|GRANTS_EXEMPTION|EXEMPTS_FROM|CITES_EXTERNAL*1..2]-(n)
WHERE s.law_version IN $published AND length(p) <= $max_hops
  AND NOT (length(p) = 2 AND (type(relationships(p)[1]) = 'USES_TERM'
           OR (nodes(p)[1]:Definition AND type(relationships(p)[1]) <> 'DEFINES')))
  AND (nodes(p)[1].law_version IS NULL OR nodes(p)[1].law_version IN $published)
  AND (n.law_version IS NULL OR n.law_version IN $published)
WITH p ORDER BY length(p) LIMIT $limit
UNWIND relationships(p) AS r
WITH DISTINCT r
RETURN collect([type(r), startNode(r).key, endNode(r).key]) AS edges
UNION ALL
UNWIND $penalty_seeds AS k
MATCH p = (s:Penalty {key: k})-[:REFERENCES|PENALIZES|PRESCRIBES|DEFINES|USES_TERM|GRANTS_EXEMPTION|EXEMPTS_FROM|CITES_EXTERNAL*1..2]-(n)
WHERE s.law_version IN $published AND length(p) <= $max_hops
  AND NOT (length(p) = 2 AND (type(relationships(p)[1]) = 'USES_TERM'
           OR (nodes(p)[1]:Definition AND type(relationships(p)[1]) <> 'DEFINES')))
  AND (nodes(p)[1].law_version IS NULL OR nodes(p)[1].law_version IN $published)
  AND (n.law_version IS NULL OR n.law_version IN $published)
WITH p ORDER BY length(p) LIMIT $limit
UNWIND relationships(p) AS r
WITH DISTINCT r
RETURN collect([type(r), startNode(r).key, endNode(r).key]) AS edges
UNION ALL
UNWIND $exemption_seeds AS k
MATCH p = (s:Exemption {key: k})-[:REFERENCES|PENALIZES|PRESCRIBES|DEFINES|USES_TERM|GRANTS_EXEMPTION|EXEMPTS_FROM|CITES_EXTERNAL*1..2]-(n)
WHERE s.law_version IN $published AND length(p) <= $max_hops
  AND NOT (length(p) = 2 AND (type(relationships(p)[1]) = 'USES_TERM'
           OR (nodes(p)[1]:Definition AND type(relationships(p)[1]) <> 'DEFINES')))
  AND (nodes(p)[1].law_version IS NULL OR nodes(p)[1].law_version IN $published)
  AND (n.law_version IS NULL OR n.law_version IN $published)
WITH p ORDER BY length(p) LIMIT $limit
UNWIND relationships(p) AS r
WITH DISTINCT r
RETURN collect([type(r), startNode(r).key, endNode(r).key]) AS edges
UNION ALL
UNWIND $anchors AS k
MATCH p = (s:Section {key: k})-[:REFERENCES|PENALIZES|PRESCRIBES|DEFINES|GRANTS_EXEMPTION|EXEMPTS_FROM]-(n)
WHERE s.law_version IN $published AND (n.law_version IS NULL OR n.law_version IN $published)
WITH p LIMIT $limit
UNWIND relationships(p) AS r
WITH DISTINCT r
RETURN collect([type(r), startNode(r).key, endNode(r).key]) AS edges
