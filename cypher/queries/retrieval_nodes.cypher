// Details of the nodes a search returns ($full: all their properties, text included) and
// display names of the other nodes on their paths ($keys), published versions only.
// One branch per label: ArcadeDB uses the key index only for a single-label match
// (698 laws: 4 ms for the six branches, 46 ms for one Section|Definition|… match).
MATCH (n:Section)
WHERE n.key IN $keys AND (n.law_version IS NULL OR n.law_version IN $published)
RETURN n.key AS key, labels(n) AS labels,
       coalesce(n.label, n.term, n.name, n.title) AS name, n.number AS number,
       CASE WHEN n.key IN $full THEN properties(n) ELSE null END AS node
UNION ALL
MATCH (n:Definition)
WHERE n.key IN $keys AND (n.law_version IS NULL OR n.law_version IN $published)
RETURN n.key AS key, labels(n) AS labels,
       coalesce(n.label, n.term, n.name, n.title) AS name, n.number AS number,
       CASE WHEN n.key IN $full THEN properties(n) ELSE null END AS node
UNION ALL
MATCH (n:Penalty)
WHERE n.key IN $keys AND (n.law_version IS NULL OR n.law_version IN $published)
RETURN n.key AS key, labels(n) AS labels,
       coalesce(n.label, n.term, n.name, n.title) AS name, n.number AS number,
       CASE WHEN n.key IN $full THEN properties(n) ELSE null END AS node
UNION ALL
MATCH (n:Exemption)
WHERE n.key IN $keys AND (n.law_version IS NULL OR n.law_version IN $published)
RETURN n.key AS key, labels(n) AS labels,
       coalesce(n.label, n.term, n.name, n.title) AS name, n.number AS number,
       CASE WHEN n.key IN $full THEN properties(n) ELSE null END AS node
UNION ALL
MATCH (n:ExternalLaw)
WHERE n.key IN $keys AND (n.law_version IS NULL OR n.law_version IN $published)
RETURN n.key AS key, labels(n) AS labels,
       coalesce(n.label, n.term, n.name, n.title) AS name, n.number AS number,
       CASE WHEN n.key IN $full THEN properties(n) ELSE null END AS node
UNION ALL
MATCH (n:Concept)
WHERE n.key IN $keys AND (n.law_version IS NULL OR n.law_version IN $published)
RETURN n.key AS key, labels(n) AS labels,
       coalesce(n.label, n.term, n.name, n.title) AS name, n.number AS number,
       CASE WHEN n.key IN $full THEN properties(n) ELSE null END AS node
