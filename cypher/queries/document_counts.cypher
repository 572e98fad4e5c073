// Documents, passages and CITES edges in the graph, of one document ($key) or all
// ($key = null): what a delete must bring back to where it was.
OPTIONAL MATCH (d:Document)
WHERE $key IS NULL OR d.key = $key
OPTIONAL MATCH (d)-[:HAS_PASSAGE]->(p:Passage)
OPTIONAL MATCH (p)-[c:CITES]->()
RETURN count(DISTINCT d) AS documents, count(DISTINCT p) AS passages, count(c) AS cites
