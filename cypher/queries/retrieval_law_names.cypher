// The names a question may use for these laws ("PDPA", the title, citation aliases) and
// their jurisdiction, read when several laws are searched, to tell which of them the
// question names and which a named place ("the Thai PDPA", "a Bangkok shop") points to
// (and only for the law versions retrieval has not kept them for yet).
UNWIND $laws AS k
MATCH (l:Law {key: k})
RETURN l.key AS law, l.title AS title, l.short_name AS short_name, l.aliases AS aliases,
       l.jurisdiction AS jurisdiction
