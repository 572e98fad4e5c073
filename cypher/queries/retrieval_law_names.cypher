// The names a question may use for these laws ("PDPA", the title, citation aliases), read
// when several laws are searched, to tell which of them the question names (and only for
// the law versions retrieval has not kept them for yet). Their jurisdictions, which a named
// place ("the Thai PDPA", "a Bangkok shop") points to, come with the catalogue
// (retrieval_laws).
UNWIND $laws AS k
MATCH (l:Law {key: k})
RETURN l.key AS law, l.title AS title, l.short_name AS short_name, l.aliases AS aliases
