// Lookups by citation key (cross-law relationships, retrieval seeds) and by law (version
// checks, stale-version removal). Range indexes (Neo4j 5 Community).

CREATE INDEX chapter_key IF NOT EXISTS
FOR (n:Chapter) ON (n.key);

CREATE INDEX part_key IF NOT EXISTS
FOR (n:Part) ON (n.key);

CREATE INDEX section_key IF NOT EXISTS
FOR (n:Section) ON (n.key);

CREATE INDEX definition_key IF NOT EXISTS
FOR (n:Definition) ON (n.key);

CREATE INDEX penalty_key IF NOT EXISTS
FOR (n:Penalty) ON (n.key);

CREATE INDEX exemption_key IF NOT EXISTS
FOR (n:Exemption) ON (n.key);

CREATE INDEX external_law_key IF NOT EXISTS
FOR (n:ExternalLaw) ON (n.key);

CREATE INDEX concept_key IF NOT EXISTS
FOR (n:Concept) ON (n.key);

CREATE INDEX chapter_law IF NOT EXISTS
FOR (n:Chapter) ON (n.law);

CREATE INDEX part_law IF NOT EXISTS
FOR (n:Part) ON (n.law);

CREATE INDEX section_law IF NOT EXISTS
FOR (n:Section) ON (n.law);

CREATE INDEX definition_law IF NOT EXISTS
FOR (n:Definition) ON (n.law);

CREATE INDEX penalty_law IF NOT EXISTS
FOR (n:Penalty) ON (n.law);

CREATE INDEX exemption_law IF NOT EXISTS
FOR (n:Exemption) ON (n.law);

// A re-upload of the same bytes is found by (tenant, sha256).
CREATE INDEX document_tenant_sha IF NOT EXISTS
FOR (n:Document) ON (n.tenant, n.sha256);
