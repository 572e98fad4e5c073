// After versions of $laws are published: the CITES edges of a firm's passages that cite
// their sections move to the published Section nodes (the old version's nodes, with their
// edges, are removed next). Reads every passage; documents are far fewer than sections.
MATCH (p:Passage)
WHERE any(k IN p.cites WHERE split(k, ':')[0] IN $laws)
UNWIND range(0, size(p.cites) - 1) AS i
WITH p, p.cites[i] AS k, p.cited_as[i] AS text
WHERE split(k, ':')[0] IN $laws
MATCH (l:Law {key: split(k, ':')[0]})
MATCH (s:Section {key: k})
WHERE s.law_version = l.key + '@' + l.published_version
MERGE (p)-[c:CITES]->(s)
SET c.text = text
RETURN count(c) AS cites
