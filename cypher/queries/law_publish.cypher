MATCH (l:Law {key: $law})
SET l.published_version = $version, l.pending_version = null
RETURN l.key AS law, l.published_version AS version
