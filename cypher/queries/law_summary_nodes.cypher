// Node counts by label for one published law version. One branch per versioned label,
// each matched on its `law` index (698 laws: 6 ms; one unlabelled match scans every node,
// 118 ms). Law, ExternalLaw and Concept nodes are shared across versions: not counted.
MATCH (n:Chapter {law: $law})
WHERE n.law_version = $law_version
RETURN 'Chapter' AS label, count(*) AS count
UNION ALL
MATCH (n:Part {law: $law})
WHERE n.law_version = $law_version
RETURN 'Part' AS label, count(*) AS count
UNION ALL
MATCH (n:Section {law: $law})
WHERE n.law_version = $law_version
RETURN 'Section' AS label, count(*) AS count
UNION ALL
MATCH (n:Definition {law: $law})
WHERE n.law_version = $law_version
RETURN 'Definition' AS label, count(*) AS count
UNION ALL
MATCH (n:Penalty {law: $law})
WHERE n.law_version = $law_version
RETURN 'Penalty' AS label, count(*) AS count
UNION ALL
MATCH (n:Exemption {law: $law})
WHERE n.law_version = $law_version
RETURN 'Exemption' AS label, count(*) AS count
