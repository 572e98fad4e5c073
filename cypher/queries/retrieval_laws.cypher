// Every law's published and pending version. Read once per request (never cached) so a
// half-ingested law is never visible; names are read only when a question needs them.
MATCH (l:Law)
RETURN l.key AS law, l.published_version AS version, l.pending_version AS pending
