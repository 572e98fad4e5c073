// Publishes $version of $law and, in the same write, keeps the parsed law of that version
// ($model, ingest/serial.py) on its LawSource node, so that citations from it can be
// resolved again when a law it names arrives or changes (services/core/links.py).
MATCH (l:Law {key: $law})
SET l.published_version = $version, l.pending_version = null
MERGE (m:LawSource {of_law: $law})
SET m.of_version = $version, m.format = $format, m.model = $model
RETURN l.key AS law, l.published_version AS version
