"""The ranking steps of graph mode, one module per rule; each is an optional `Stage`
(switched off by name in `Settings.retrieval.disabled`) with its numbers in
`services.core.settings.RetrievalSettings`."""
