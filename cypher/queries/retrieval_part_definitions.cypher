// For each [law, law version] in $laws: the sections that use a term another section of
// the law defines (section, term, defining section), and how many sections the version
// has. Read once per law version (retrieval keeps the answer: a version never changes) to
// tell a part's definitions (Revenue Code s.77/1, for its VAT chapter) from law-wide ones
// (PDPA s.6, whose terms 92 of its 96 sections use).
UNWIND $laws AS law
MATCH (d:Definition)
WHERE d.law = law[0] AND (d.law_version IS NULL OR d.law_version = law[1])
MATCH (t:Section)-[:DEFINES]->(d)<-[:USES_TERM]-(s:Section)
WHERE s.key <> t.key AND s.law = law[0] AND t.law = law[0]
RETURN law[1] AS law_version, s.key AS section, d.key AS term, t.key AS defines, null AS sections
UNION ALL
UNWIND $laws AS law
MATCH (x:Section)
WHERE x.law = law[0] AND (x.law_version IS NULL OR x.law_version = law[1])
RETURN law[1] AS law_version, null AS section, null AS term, null AS defines, count(x) AS sections
