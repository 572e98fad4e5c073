// A section's time line: its law's period in force, the regulations issued under it
// (ISSUED_UNDER, e.g. the PDPA's royal decrees under s.4) and the decrees that keep it, or
// its chapter or part, from applying (DISAPPLIES, with the scope and the period), and the
// acts that amended, inserted or repealed it (AmendingAct -[:AMENDS|INSERTS|REPEALS]->, as
// a consolidated text's markers say, with the markers). Dates are
// ISO strings; a null valid_from is a start the source does not give (not_before is the
// earliest it can be). Published law versions only.
// In Neo4j Browser first set:  :param law => 'th-pdpa-2562'   :param section => '4'
MATCH (l:Law)
WHERE l.published_version IS NOT NULL
WITH collect(l.key + '@' + l.published_version) AS published
MATCH (s:Section {key: $law + ':s:' + $section})
WHERE s.law_version IN published
MATCH (law:Law {key: s.law})
OPTIONAL MATCH (holder:Chapter|Part)-[:HAS_PART|CONTAINS*1..2]->(s)
WHERE holder.law_version = s.law_version
WITH published, s, law, collect(holder) + [s] AS places
OPTIONAL MATCH issued = (reg:Law)-[:ISSUED_UNDER]->(s)
WHERE reg.published_version IS NOT NULL
OPTIONAL MATCH effect = (d:Section)-[r:DISAPPLIES]->(t)
WHERE t IN places AND d.law_version IN published
OPTIONAL MATCH amended = (act:AmendingAct)-[c:AMENDS|INSERTS|REPEALS]->(s)
WHERE act.law_version IN published
RETURN s.key AS section, law.valid_from AS law_from, law.not_before AS law_not_before,
       law.valid_to AS law_to, issued, reg.key AS issued_under, reg.kind AS kind,
       reg.valid_from AS reg_from, reg.not_before AS reg_not_before, reg.valid_to AS reg_to,
       effect, d.key AS disapplied_by, t.key AS via, r.scope AS scope,
       r.valid_from AS from, r.not_before AS not_before, r.valid_to AS to,
       amended, act.label AS amended_by, type(c) AS change, c.markers AS markers
ORDER BY issued_under, disapplied_by, via, amended_by
