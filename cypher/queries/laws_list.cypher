// Published laws for GET /v1/laws.
MATCH (l:Law)
WHERE l.published_version IS NOT NULL
RETURN l.key AS law, l.published_version AS version, properties(l) AS props
ORDER BY law
