// Retrieval: ONE walk query from the seeds, at most 2 hops, both directions, over the
// typed (non-hierarchy) relationships. The bound is fixed at 2 (Cypher cannot
// parameterise it); $max_hops (1 or 2) filters. Only nodes of published law versions
// ($published: "law@version"); ExternalLaw and Concept nodes are shared across versions
// and carry no law_version. A Definition is crossed only towards the section defining it:
// every section uses "personal data", and walking on through its USES_TERM edges would
// reach the whole law; the terms a neighbour uses (USES_TERM on hop 2) are not worth a
// row either (a 3-seed PDPA walk: ~630 paths without these rules, ~150 with them; the
// rows, not the matching, are what costs). Node details come afterwards from
// retrieval_nodes for the few nodes that make the cut. $limit bounds what a hub returns.
// The second part walks the $anchors (lower vector hits) one hop only, to see who
// penalises them (or cites them and penalises something) without their whole
// neighbourhood. As its own branch it is never expanded to 2 hops and filtered afterwards
// (PDPA, 3 seeds + 12 anchors: half the time of one variable-length pattern over all 15
// with a hop filter). Term uses and external citations are left out there: retrieval
// uses an anchor's edges only for the roles and companions a one-hop edge can show.
MATCH (s:Section|Definition|Penalty|Exemption)
WHERE s.key IN $seeds AND s.law_version IN $published
MATCH p = (s)-[:REFERENCES|PENALIZES|PRESCRIBES|DEFINES|USES_TERM|GRANTS_EXEMPTION|EXEMPTS_FROM|CITES_EXTERNAL*1..2]-(n)
WHERE length(p) <= $max_hops
  AND NOT (length(p) = 2 AND (type(relationships(p)[1]) = 'USES_TERM'
           OR (nodes(p)[1]:Definition AND type(relationships(p)[1]) <> 'DEFINES')))
  AND all(x IN nodes(p) WHERE x.law_version IS NULL OR x.law_version IN $published)
RETURN s.key AS seed, labels(n) AS labels,
       [x IN nodes(p) | x.key] AS path_keys,
       [r IN relationships(p) | type(r)] AS path_types,
       [r IN relationships(p) | startNode(r).key] AS path_starts
ORDER BY size(path_keys)
LIMIT $limit
UNION ALL
MATCH (s:Section|Definition|Penalty|Exemption)-[r:REFERENCES|PENALIZES|PRESCRIBES|DEFINES|GRANTS_EXEMPTION|EXEMPTS_FROM]-(n)
WHERE s.key IN $anchors AND s.law_version IN $published
  AND (n.law_version IS NULL OR n.law_version IN $published)
RETURN s.key AS seed, labels(n) AS labels,
       [s.key, n.key] AS path_keys,
       [type(r)] AS path_types,
       [startNode(r).key] AS path_starts
LIMIT $limit
