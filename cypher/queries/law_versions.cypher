MATCH (l:Law {key: $law})
RETURN l.published_version AS published_version, l.pending_version AS pending_version
