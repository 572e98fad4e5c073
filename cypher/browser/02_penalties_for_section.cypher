// What penalizes a section: penalty sections that name it as the breached provision
// (link PENALIZES) or cite it in their breach clause while punishing another section
// (link REFERENCES, e.g. PDPA s.79 punishes breaches of s.27/28 "concerning data under
// s.26"), with the Penalty nodes they prescribe. `applied` is true where the penalty
// punishes the section only as another section applies it to someone else (PDPA s.88: a
// foreign controller's representative, for s.39). Published law versions only.
// In Neo4j Browser first set:  :param law => 'th-pdpa-2562'   :param section => '26'
MATCH (l:Law)
WHERE l.published_version IS NOT NULL
WITH collect(l.key + '@' + l.published_version) AS published
MATCH (s:Section {key: $law + ':s:' + $section})
WHERE s.law_version IN published
MATCH p = (ps:Section)-[r:PENALIZES|REFERENCES]->(s)
WHERE ps.law_version IN published AND EXISTS { (ps)-[:PENALIZES]->() }
OPTIONAL MATCH q = (ps)-[:PRESCRIBES]->(pen:Penalty)
WHERE pen.law_version IN published
RETURN p, q, ps.key AS penalty_section, ps.label AS label, type(r) AS link,
       coalesce(r.applied, false) AS applied, pen.key AS penalty,
       pen.kind AS kind, pen.max_fine_thb AS max_fine_thb, pen.max_prison_months AS max_prison_months
ORDER BY penalty_section, link, penalty
