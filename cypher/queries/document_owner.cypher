// The tenant and scopes of one document (for replace and delete, which check them).
MATCH (d:Document {uid: $key})
RETURN d.key AS key, d.tenant AS tenant, d.scopes AS scopes, d.sha256 AS sha256,
       properties(d) AS document
