// The stored parsed laws of $laws (ingest/serial.py text), with their versions.
MATCH (m:LawSource)
WHERE m.of_law IN $laws
RETURN m.of_law AS law, m.of_version AS version, m.format AS format, m.model AS model
