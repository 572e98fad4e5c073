// In- and out-edges of one published section (type is null when it has none), to nodes of
// the versions in $published; a Law node (unversioned: a regulation ISSUED_UNDER the
// section) only when its law is among $in_force_laws, with its kind and period. A firm's
// passages citing it are not statute edges: document_citing_passages lists the visible ones.
MATCH (s:Section {key: $key})
WHERE s.law_version IN $published
OPTIONAL MATCH (s)-[r]-(m)
WHERE (m.law_version IN $published
       OR (m.law_version IS NULL AND (NOT m:Law OR m.key IN $in_force_laws)))
  AND NOT m:Passage
RETURN s.key AS section, type(r) AS type, startNode(r) = s AS outgoing, m.key AS key,
       labels(m) AS labels, coalesce(m.label, m.term, m.title, m.key) AS label,
       m.law AS law, properties(r) AS props,
       CASE WHEN m:Law THEN {kind: m.kind, valid_from: m.valid_from, valid_to: m.valid_to,
                             not_before: m.not_before, commencement: m.commencement}
       END AS law_props
ORDER BY type, key
