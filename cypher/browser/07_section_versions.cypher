// A section's text in each kept version of its law, oldest first: the day each version
// applies from ("" when unknown; each applies until the day before the next one), whether
// it is the latest, and the section's text in it (null where that version has no such
// section). A law ingested without `--valid-from` has one version.
// In Neo4j Browser first set:  :param law => 'th-pdpa-2562'   :param section => '26'
MATCH (l:Law {key: $law})
WHERE l.published_version IS NOT NULL
WITH l, coalesce(l.expressions, [l.published_version]) AS versions,
     coalesce(l.expression_from, ['']) AS froms
UNWIND range(0, size(versions) - 1) AS i
OPTIONAL MATCH (s:Section {uid: $law + ':s:' + $section + '@' + versions[i]})
WITH collect({n: i + 1, version: versions[i], valid_from: froms[i],
              latest: versions[i] = l.published_version, text: s.text}) AS rows,
     count(s) AS found
WHERE found > 0
UNWIND rows AS row
RETURN row.n AS n, row.version AS version, row.valid_from AS valid_from,
       row.latest AS latest, row.text AS text
ORDER BY n
