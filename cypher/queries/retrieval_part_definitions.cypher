// For each [law, law version] in $laws: the sections that use a term another section of
// the law defines (section, term, defining section), with the head of the defining
// section's text, where a statute says how far its definitions reach ("ในหมวดนี้", in this
// chapter; "ในพระราชบัญญัตินี้", in this Act). Read once per law version (retrieval keeps
// the answer: a version never changes).
UNWIND $laws AS law
MATCH (d:Definition)
WHERE d.law = law[0] AND (d.law_version IS NULL OR d.law_version = law[1])
MATCH (t:Section)-[:DEFINES]->(d)<-[:USES_TERM]-(s:Section)
WHERE s.key <> t.key AND s.law = law[0] AND t.law = law[0]
RETURN law[1] AS law_version, s.key AS section, d.key AS term, t.key AS defines,
       substring(t.text, 0, 60) AS head
