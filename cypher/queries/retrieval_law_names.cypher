// The names a question may use for these laws ("PDPA", the title, citation aliases), read
// only when a question cites a bare section number and several laws could be meant (and
// retrieval has not kept them yet for these law versions).
UNWIND $laws AS k
MATCH (l:Law {key: k})
RETURN l.key AS law, l.title AS title, l.short_name AS short_name, l.aliases AS aliases
