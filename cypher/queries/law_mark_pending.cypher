MERGE (l:Law {key: $law})
ON CREATE SET l.title = $title
SET l.pending_version = $version
RETURN l.key AS law
