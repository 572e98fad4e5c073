// Publishes $version of $law among its kept expressions ($expressions, oldest first, each
// applying from the day of $expression_from at the same place, "" when unknown): the
// latest of them ($latest) is the published version. When $version is the latest, the same
// write keeps its parsed law ($model, ingest/serial.py) on the LawSource node, so that
// citations from it can be resolved again when a law it names arrives or changes
// (services/core/links.py); an earlier expression added later leaves it as it is.
MATCH (l:Law {key: $law})
SET l.published_version = $latest, l.pending_version = null,
    l.expressions = $expressions, l.expression_from = $expression_from
FOREACH (_ IN CASE WHEN $version = $latest THEN [1] ELSE [] END |
  MERGE (m:LawSource {of_law: $law})
  SET m.of_version = $version, m.format = $format, m.model = $model)
RETURN l.key AS law, l.published_version AS version
