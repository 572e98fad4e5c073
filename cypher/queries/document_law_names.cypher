// The names of every published law, to tell which law a document's citation means.
MATCH (l:Law)
WHERE l.published_version IS NOT NULL
RETURN l.key AS law, l.title AS title, l.short_name AS short_name, l.aliases AS aliases
ORDER BY law
