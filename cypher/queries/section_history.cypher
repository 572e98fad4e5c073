// One published section, its law's period in force, and the regulations (published Law
// nodes) issued under it, with theirs.
MATCH (s:Section {key: $key})
WHERE s.law_version IN $published
MATCH (l:Law {key: s.law})
OPTIONAL MATCH (r:Law)-[:ISSUED_UNDER]->(s)
WHERE r.published_version IS NOT NULL
RETURN properties(s) AS node, properties(l) AS law,
       collect(CASE WHEN r IS NOT NULL THEN
         {law: r.key, title: r.title, kind: r.kind, valid_from: r.valid_from,
          valid_to: r.valid_to, not_before: r.not_before, commencement: r.commencement}
       END) AS issued_under
