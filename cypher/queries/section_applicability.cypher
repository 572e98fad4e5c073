// Decrees (published versions in $published, i.e. in force on the day asked) that keep
// the sections $keys, or the chapter or part holding them, from applying: DISAPPLIES
// relationships with their scope and period (ingest/instruments.py).
UNWIND $keys AS k
MATCH (s:Section {key: k})
WHERE s.law_version IN $published
CALL {
  WITH s
  MATCH (d:Section)-[r:DISAPPLIES]->(s)
  RETURN d, r, s.key AS via, s.label AS via_label
  UNION
  WITH s
  MATCH (d:Section)-[r:DISAPPLIES]->(c:Chapter)
  WHERE c.key = s.chapter AND c.law_version = s.law_version
  RETURN d, r, c.key AS via, c.label AS via_label
  UNION
  WITH s
  MATCH (d:Section)-[r:DISAPPLIES]->(c:Part)
  WHERE c.key = s.part AND c.law_version = s.law_version
  RETURN d, r, c.key AS via, c.label AS via_label
}
WITH s, d, r, via, via_label
WHERE d.law_version IN $published
MATCH (l:Law {key: d.law})
RETURN s.key AS key, d.key AS source, d.label AS source_label, d.law AS law,
       l.title AS law_title, l.kind AS law_kind, via, via_label, r.scope AS scope,
       r.valid_from AS valid_from, r.valid_to AS valid_to, r.not_before AS not_before
ORDER BY key, law, source, via
