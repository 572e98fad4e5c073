"""One reader per source format; `ingest.parse.read_source` picks the reader."""
