// Nodes per label, of one law ($law) or of the whole graph ($law = null).
MATCH (n)
WHERE $law IS NULL OR n.law = $law
RETURN labels(n)[0] AS label, count(*) AS count
