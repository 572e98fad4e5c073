// Delete one document: its node, its passages and every edge of either (HAS_PASSAGE,
// CITES). Returns how many passages went.
MATCH (d:Document {uid: $key})
OPTIONAL MATCH (d)-[:HAS_PASSAGE]->(p:Passage)
WITH d, collect(p) AS passages
FOREACH (p IN passages | DETACH DELETE p)
DETACH DELETE d
RETURN size(passages) AS passages
