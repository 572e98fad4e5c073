// One published section, its law's period in force, the regulations (published Law nodes)
// issued under it, with theirs, and the acts that amended, inserted or repealed it (or its
// law: an act OCS appends to the law's text) in the versions in $published.
MATCH (s:Section {key: $key})
WHERE s.law_version IN $published
MATCH (l:Law {key: s.law})
OPTIONAL MATCH (r:Law)-[:ISSUED_UNDER]->(s)
WHERE r.published_version IS NOT NULL
WITH s, l, collect(CASE WHEN r IS NOT NULL THEN
       {law: r.key, title: r.title, kind: r.kind, valid_from: r.valid_from,
        valid_to: r.valid_to, not_before: r.not_before, commencement: r.commencement}
     END) AS issued_under
UNWIND [['section', s], ['law', l]] AS changed
WITH s, l, issued_under, changed[0] AS what, changed[1] AS t
OPTIONAL MATCH (a:AmendingAct)-[c:AMENDS|INSERTS|REPEALS]->(t)
WHERE a.law_version IN $published
RETURN properties(s) AS node, properties(l) AS law, issued_under,
       collect(CASE WHEN a IS NOT NULL THEN
         {change: toLower(type(c)), changed: what, act: a.key, label: a.label, law: a.law,
          law_id: a.law_id, appended: a.appended, commencement: a.commencement,
          valid_from: a.valid_from, not_before: a.not_before, markers: c.markers,
          by_sections: c.by_sections}
       END) AS amended_by
