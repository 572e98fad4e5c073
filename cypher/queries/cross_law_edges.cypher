// Relationships from one law's nodes to another law's sections and chapters (every
// version on both sides), touching $laws (all of them when $laws = null); for
// `lexgraph check`. A Law node has no version: ISSUED_UNDER rows, and AMENDS rows to a
// Law, carry the published one.
MATCH (a:Section)-[r]->(b:Section|Chapter)
WHERE a.law <> b.law AND type(r) IN ['REFERENCES', 'PENALIZES', 'DISAPPLIES']
  AND ($laws IS NULL OR a.law IN $laws OR b.law IN $laws)
RETURN type(r) AS type, a.law AS source_law, a.version AS source_version, a.key AS source,
       b.law AS target_law, b.version AS target_version, b.key AS target
UNION ALL
MATCH (a:Exemption)-[r:EXEMPTS_FROM]->(b:Section)
WHERE a.law <> b.law AND ($laws IS NULL OR a.law IN $laws OR b.law IN $laws)
RETURN type(r) AS type, a.law AS source_law, a.version AS source_version, a.key AS source,
       b.law AS target_law, b.version AS target_version, b.key AS target
UNION ALL
MATCH (a:Law)-[r:ISSUED_UNDER]->(b:Section)
WHERE a.key <> b.law AND ($laws IS NULL OR a.key IN $laws OR b.law IN $laws)
RETURN type(r) AS type, a.key AS source_law, a.published_version AS source_version,
       a.key AS source, b.law AS target_law, b.version AS target_version, b.key AS target
UNION ALL
MATCH (a:AmendingAct)-[r:AMENDS|INSERTS|REPEALS]->(b:Section)
WHERE a.law <> b.law AND ($laws IS NULL OR a.law IN $laws OR b.law IN $laws)
RETURN type(r) AS type, a.law AS source_law, a.version AS source_version, a.key AS source,
       b.law AS target_law, b.version AS target_version, b.key AS target
UNION ALL
MATCH (a:AmendingAct)-[r:AMENDS|INSERTS|REPEALS]->(b:Law)
WHERE a.law <> b.key AND ($laws IS NULL OR a.law IN $laws OR b.key IN $laws)
RETURN type(r) AS type, a.law AS source_law, a.version AS source_version, a.key AS source,
       b.key AS target_law, b.published_version AS target_version, b.key AS target
