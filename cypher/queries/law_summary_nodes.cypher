// Node counts by label for one published law version.
MATCH (n)
WHERE n.law_version = $law_version
RETURN labels(n)[0] AS label, count(*) AS count
ORDER BY label
