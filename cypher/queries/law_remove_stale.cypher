// Every node of $law whose version is none of $versions (the law's kept expressions).
MATCH (n)
WHERE n.law = $law AND n.version IS NOT NULL AND NOT n.version IN $versions
DETACH DELETE n
