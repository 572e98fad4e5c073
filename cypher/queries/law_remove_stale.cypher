MATCH (n)
WHERE n.law = $law AND n.version IS NOT NULL AND n.version <> $version
DETACH DELETE n
