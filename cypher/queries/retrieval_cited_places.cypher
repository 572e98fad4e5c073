// Retrieval: the sections that sections the question cites cite in turn, with where in the
// citing section each citation sits (paragraph indexes, clause paths like "6" or "5/ก").
// For a question that names a clause ("section 23(6)": the rights PDPA s.23 (๖) lists),
// retrieval keeps the targets cited from that clause. Sections only: citations are made
// by sections.
UNWIND $keys AS k
MATCH (s:Section {key: k})-[r:REFERENCES]->(t:Section)
WHERE s.law_version IN $published AND t.law_version IN $published
RETURN s.key AS source, t.key AS target, r.from_paragraphs AS paragraphs,
       r.from_clauses AS clauses
