// Store one document of a firm in one transaction: its node, its passages (replacing any
// it had) and each passage's CITES edges to the published sections it cites. Tenant and
// scopes are copied onto every passage, so the visibility predicate of the queries that
// reach passages reads the passage alone. The cited keys stay on the passage too
// (`cites`, `cited_as`), so that document_relink can point them at a law's next version. $document: {key, tenant, scopes, title, date,
// sha256, filename, format, created_by}; $passages: [{key, order, label, heading, text,
// cites: [{key, text}]}].
MERGE (d:Document {uid: $document.key})
SET d += $document
WITH d
OPTIONAL MATCH (d)-[:HAS_PASSAGE]->(old:Passage)
DETACH DELETE old
WITH DISTINCT d
UNWIND $passages AS row
CREATE (p:Passage {uid: row.key})
SET p.key = row.key, p.order = row.order, p.label = row.label, p.heading = row.heading,
    p.text = row.text, p.document = d.key, p.tenant = d.tenant, p.scopes = d.scopes,
    p.cites = [c IN row.cites | c.key], p.cited_as = [c IN row.cites | c.text]
CREATE (d)-[:HAS_PASSAGE]->(p)
WITH p, row
UNWIND row.cites AS cite
MATCH (s:Section {key: cite.key})
WHERE s.law_version IN $published
MERGE (p)-[c:CITES]->(s)
SET c.text = cite.text
RETURN count(c) AS cites
