// Relationships from one law's nodes to another law's sections (every version on both
// sides), touching $laws (all of them when $laws = null); for `lexgraph check`.
MATCH (a:Section)-[r]->(b:Section)
WHERE a.law <> b.law AND type(r) IN ['REFERENCES', 'PENALIZES']
  AND ($laws IS NULL OR a.law IN $laws OR b.law IN $laws)
RETURN type(r) AS type, a.law AS source_law, a.version AS source_version, a.key AS source,
       b.law AS target_law, b.version AS target_version, b.key AS target
UNION ALL
MATCH (a:Exemption)-[r:EXEMPTS_FROM]->(b:Section)
WHERE a.law <> b.law AND ($laws IS NULL OR a.law IN $laws OR b.law IN $laws)
RETURN type(r) AS type, a.law AS source_law, a.version AS source_version, a.key AS source,
       b.law AS target_law, b.version AS target_version, b.key AS target
