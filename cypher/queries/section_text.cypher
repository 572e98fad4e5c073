// One published section by key, with the chapter/part that contains it.
MATCH (s:Section {key: $key})
WHERE s.law_version IN $published
OPTIONAL MATCH (d)-[:CONTAINS]->(s)
WHERE d.law_version IN $published
RETURN properties(s) AS node, properties(d) AS division, labels(d) AS division_labels
