// In- and out-edges of one published section (type is null when it has none). A firm's
// passages citing it are not statute edges: document_citing_passages lists the visible ones.
MATCH (s:Section {key: $key})
WHERE s.law_version IN $published
OPTIONAL MATCH (s)-[r]-(m)
WHERE (m.law_version IS NULL OR m.law_version IN $published) AND NOT m:Passage
RETURN s.key AS section, type(r) AS type, startNode(r) = s AS outgoing, m.key AS key,
       labels(m) AS labels, coalesce(m.label, m.term, m.title, m.key) AS label,
       m.law AS law, properties(r) AS props
ORDER BY type, key
