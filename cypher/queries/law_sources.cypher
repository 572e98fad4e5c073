// Every published law with the version of its stored parsed law (null when none is stored).
MATCH (l:Law)
WHERE l.published_version IS NOT NULL
OPTIONAL MATCH (m:LawSource {of_law: l.key})
RETURN l.key AS law, l.published_version AS version, m.of_version AS source_version,
       m.format AS format
ORDER BY law
