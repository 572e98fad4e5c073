// Uniqueness of the MERGE keys: `uid` (= key@version, or key for unversioned nodes) on
// every label, and `key` on Law, whose node is shared by all versions of the law.
// IF NOT EXISTS makes every statement safe to run on each load.

CREATE CONSTRAINT law_uid IF NOT EXISTS
FOR (n:Law) REQUIRE n.uid IS UNIQUE;

CREATE CONSTRAINT chapter_uid IF NOT EXISTS
FOR (n:Chapter) REQUIRE n.uid IS UNIQUE;

CREATE CONSTRAINT part_uid IF NOT EXISTS
FOR (n:Part) REQUIRE n.uid IS UNIQUE;

CREATE CONSTRAINT section_uid IF NOT EXISTS
FOR (n:Section) REQUIRE n.uid IS UNIQUE;

CREATE CONSTRAINT definition_uid IF NOT EXISTS
FOR (n:Definition) REQUIRE n.uid IS UNIQUE;

CREATE CONSTRAINT penalty_uid IF NOT EXISTS
FOR (n:Penalty) REQUIRE n.uid IS UNIQUE;

CREATE CONSTRAINT exemption_uid IF NOT EXISTS
FOR (n:Exemption) REQUIRE n.uid IS UNIQUE;

CREATE CONSTRAINT external_law_uid IF NOT EXISTS
FOR (n:ExternalLaw) REQUIRE n.uid IS UNIQUE;

CREATE CONSTRAINT concept_uid IF NOT EXISTS
FOR (n:Concept) REQUIRE n.uid IS UNIQUE;

CREATE CONSTRAINT amending_act_uid IF NOT EXISTS
FOR (n:AmendingAct) REQUIRE n.uid IS UNIQUE;

CREATE CONSTRAINT recital_uid IF NOT EXISTS
FOR (n:Recital) REQUIRE n.uid IS UNIQUE;

CREATE CONSTRAINT law_key IF NOT EXISTS
FOR (n:Law) REQUIRE n.key IS UNIQUE;

// A firm's documents and their passages (services/core/documents.py): uid = key.
CREATE CONSTRAINT document_uid IF NOT EXISTS
FOR (n:Document) REQUIRE n.uid IS UNIQUE;

CREATE CONSTRAINT passage_uid IF NOT EXISTS
FOR (n:Passage) REQUIRE n.uid IS UNIQUE;
