// Which of these section keys are published sections (a document's citations of others
// are reported as unresolved).
UNWIND $keys AS k
MATCH (s:Section {key: k})
WHERE s.law_version IN $published
RETURN s.key AS key, s.label AS label
