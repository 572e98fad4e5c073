// Details of the nodes a search returns ($full: all their properties, text included) and
// display names of the other nodes on their paths ($keys), published versions only.
// Neo4j plans the label disjunction as one key-index seek per label (PROFILE).
MATCH (n:Section|Definition|Penalty|Exemption|ExternalLaw|Concept)
WHERE n.key IN $keys AND (n.law_version IS NULL OR n.law_version IN $published)
RETURN n.key AS key, labels(n) AS labels,
       coalesce(n.label, n.term, n.name, n.title) AS name, n.number AS number,
       CASE WHEN n.key IN $full THEN properties(n) ELSE null END AS node
