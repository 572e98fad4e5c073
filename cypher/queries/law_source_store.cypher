// The parsed law of a published version, for a law published before LawSource nodes
// existed (law_publish_with_source.cypher writes it with every publish).
MATCH (l:Law {key: $law})
WHERE l.published_version = $version
MERGE (m:LawSource {of_law: $law})
SET m.of_version = $version, m.format = $format, m.model = $model
RETURN l.key AS law
