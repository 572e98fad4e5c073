MATCH (n)
WHERE n.law = $law AND n.version = $version
RETURN count(n) AS nodes
