// The document of this tenant whose bytes hash to $sha256 (a re-upload is a no-op).
MATCH (d:Document)
WHERE d.tenant = $tenant AND d.sha256 = $sha256
RETURN d.key AS key, d.scopes AS scopes
ORDER BY key
LIMIT 1
