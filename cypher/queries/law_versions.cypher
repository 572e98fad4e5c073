MATCH (l:Law {key: $law})
RETURN l.published_version AS published_version, l.pending_version AS pending_version,
       l.expressions AS expressions, l.expression_from AS expression_from
