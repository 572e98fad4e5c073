// Readiness (/readyz): the server answers, and says what it is.
CALL dbms.components() YIELD name, versions, edition
RETURN name, versions[0] AS version, edition
