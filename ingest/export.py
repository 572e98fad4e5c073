"""A law's graph as a deterministic, re-runnable Cypher script.

The script is plain Cypher that runs as-is in Neo4j Browser, cypher-shell and over Bolt:
the schema statements from `cypher/schema/`, then `UNWIND [ {...}, ... ] AS row
MERGE ...` batches with every value written as an escaped literal (no parameters, so the
file needs nothing else), then the statement that publishes the version and the one that
removes older versions. The same input gives the same bytes, and running the script twice
changes nothing: nodes MERGE on `uid`, relationships MERGE on (type, source, target).

Labels and relationship types come from the `NodeLabel`/`RelType` enums, property keys
must be identifiers, and every value goes through `cypher_literal`, so no text from a
statute can end a string literal and become Cypher.

Relationships go in batches of up to EDGE_BATCH rows per (type, source label, target
label): Neo4j plans each distinct statement shape once, so few large batches load fastest
(the PDPA: 172 one-node-per-batch statements, the shape ArcadeDB needed, took 16-25 s to
load on Neo4j; see README "Graph database"). The loader runs every law in one explicit
transaction.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

from ingest.graph import Edge, LawGraph, Node, NodeLabel, RelType

SCHEMA_DIR = Path(__file__).resolve().parents[1] / "cypher" / "schema"

# Rows per statement. Sections carry their full text (a few KB of Thai each), so 100 node
# rows keep one statement well under a megabyte; Neo4j Browser stays responsive with it.
NODE_BATCH = 100
EDGE_BATCH = 200

# Nodes that belong to no single version of a law: the Law node itself (it holds the
# version pointers), external laws (cited by many laws) and curated concepts.
UNVERSIONED_LABELS = frozenset({NodeLabel.LAW, NodeLabel.EXTERNAL_LAW, NodeLabel.CONCEPT})
# Properties the exporter owns; a builder's value for them is replaced.
RESERVED_PROPS = ("key", "uid", "law", "version", "law_version")

# Relationships that may point into another law, and the labels they start from; a
# CITES_EXTERNAL edge stays in its law but exists only while the law it names is not stored.
CROSS_LAW_TYPES = (
    RelType.REFERENCES,
    RelType.PENALIZES,
    RelType.EXEMPTS_FROM,
    RelType.DISAPPLIES,
    RelType.ISSUED_UNDER,
    RelType.AMENDS,
    RelType.INSERTS,
    RelType.REPEALS,
    RelType.CITES_EXTERNAL,
)
# Versioned nodes whose relationships may point into another law; a Law node (shared by
# its versions) has one: ISSUED_UNDER, rebuilt from the published version on every relink.
CROSS_LAW_SOURCES = (NodeLabel.SECTION, NodeLabel.EXEMPTION, NodeLabel.AMENDING_ACT)

StatementKind = Literal["schema", "nodes", "edges", "unlink", "publish", "cleanup"]
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_VERSION = re.compile(r"[0-9A-Za-z._-]{1,64}\Z")
_LABEL_ORDER = {label: i for i, label in enumerate(NodeLabel)}
_TYPE_ORDER = {rel: i for i, rel in enumerate(RelType)}
_Row = TypeVar("_Row")


class ExportError(ValueError):
    """A graph the exporter refuses to write (bad key, conflicting duplicate, bad value)."""


@dataclass(frozen=True)
class CypherStatement:
    kind: StatementKind
    text: str  # one statement, no trailing semicolon
    rows: int = 0  # UNWIND rows (0 for schema/publish/cleanup)
    # With `export_statements(..., parameters=True)`: the rows as `$rows`, the text naming
    # `$rows` instead of the literal list, so the database plans each shape once.
    params: Mapping[str, Any] | None = None


# --- public API ------------------------------------------------------------------------


def export_statements(
    graph: LawGraph, version: str, *, parameters: bool = False
) -> list[CypherStatement]:
    """Every statement that loads `graph` as `version` of its law, in execution order:
    schema, node batches, relationship batches, publish, cleanup. `parameters`: the
    batches' rows go in `params["rows"]` (`UNWIND $rows`) rather than in the text, which is
    what a loader over Bolt sends (Neo4j plans a literal list anew for each law: the 698-law
    corpus loaded ~7 s per law that way); the script for people keeps the literals."""
    _check_version(version)
    nodes = _normalised_nodes(graph)
    local = {(n.label, n.key) for n in nodes}
    statements = list(schema_statements())
    statements += _node_statements(graph.law_id, version, nodes, parameters)
    statements += _edge_statements(version, _normalised_edges(graph), local, parameters)
    statements.append(publish_statement(graph.law_id, version))
    statements.append(cleanup_statement(graph.law_id, version))
    return statements


def cross_law_statements(
    graph: LawGraph, version: str, *, parameters: bool = True
) -> list[CypherStatement]:
    """Statements that make the graph's citations of other laws, from `version` of its law,
    exactly those of `graph`: remove the version's cross-law relationships (and its
    CITES_EXTERNAL ones, which depend on which laws are stored), MERGE its ExternalLaw
    nodes, MERGE the relationships again (targets in their laws' published versions), and
    remove ExternalLaw nodes nothing cites any more. Run in one transaction."""
    _check_version(version)
    nodes = _normalised_nodes(graph)
    local = {(n.label, n.key) for n in nodes}
    edges = [
        e
        for e in _normalised_edges(graph)
        if e.type in CROSS_LAW_TYPES
        and (e.source_label, e.source) in local
        and ((e.target_label, e.target) not in local or e.type == RelType.CITES_EXTERNAL)
    ]
    law, ver = cypher_literal(graph.law_id), cypher_literal(version)
    types = cypher_literal([t.value for t in CROSS_LAW_TYPES if t != RelType.CITES_EXTERNAL])
    statements = [
        CypherStatement(
            "unlink",
            f"MATCH (a:{label.value} {{law: {law}}})-[r]->(b)\n"
            f"WHERE a.version = {ver} AND ((type(r) IN {types} AND b.law <> {law}) "
            f"OR type(r) = '{RelType.CITES_EXTERNAL.value}')\n"
            "DELETE r",
        )
        for label in CROSS_LAW_SOURCES
    ]
    statements.append(
        CypherStatement(
            "unlink",
            f"MATCH (a:{NodeLabel.LAW.value} {{uid: {law}}})-[r:{RelType.ISSUED_UNDER.value}]->()\n"
            "DELETE r",
        )
    )
    external = [n for n in nodes if n.label == NodeLabel.EXTERNAL_LAW]
    statements += _node_statements(graph.law_id, version, external, parameters)
    statements += _edge_statements(version, edges, local, parameters)
    statements.append(
        CypherStatement(
            "unlink",
            f"MATCH (e:{NodeLabel.EXTERNAL_LAW.value} {{law: {law}}})\n"
            "WHERE NOT (e)--()\n"
            "DELETE e",
        )
    )
    return statements


def transaction_groups(
    statements: Sequence[CypherStatement], max_rows: int
) -> list[list[CypherStatement]]:
    """Consecutive statements grouped so that each group holds at most `max_rows` UNWIND
    rows (a statement bigger than that is a group of its own), in order."""
    groups: list[list[CypherStatement]] = []
    rows = max_rows
    for statement in statements:
        if not groups or rows + statement.rows > max_rows:
            groups.append([])
            rows = 0
        groups[-1].append(statement)
        rows += statement.rows
    return groups


def render_script(statements: Sequence[CypherStatement], *, header: str = "") -> str:
    """The statements as one script: `;` after each, a blank line between them."""
    lines = [f"// {line}".rstrip() for line in header.splitlines()]
    parts = ["\n".join(lines)] if lines else []
    parts += [s.text + ";" for s in statements]
    return "\n\n".join(parts) + "\n"


def export_script(graph: LawGraph, version: str) -> str:
    """`render_script(export_statements(...))` with a header naming the law and version."""
    header = (
        f"lexgraph export of {graph.law_id} version {version}\n"
        "Generated; re-running it changes nothing. Run as-is in cypher-shell, Neo4j Browser "
        "or over Bolt."
    )
    return render_script(export_statements(graph, version), header=header)


def graph_version(graph: LawGraph) -> str:
    """12 hex of the SHA-256 of the graph's content, for callers without a `Law`."""
    blob = json.dumps(
        [
            graph.law_id,
            [_node_tuple(n) for n in _normalised_nodes(graph)],
            [_edge_tuple(e) for e in _normalised_edges(graph)],
        ],
        ensure_ascii=False,
        sort_keys=True,
        default=str,
    )
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:12]


def schema_statements() -> list[CypherStatement]:
    """The constraints and indexes in `cypher/schema/*.cypher` (file order, then order
    within a file); each has IF NOT EXISTS, so they are safe to run every time."""
    statements: list[CypherStatement] = []
    for path in sorted(SCHEMA_DIR.glob("*.cypher")):
        for text in split_statements(path.read_text(encoding="utf-8")):
            statements.append(CypherStatement("schema", text))
    return statements


def publish_statement(law_id: str, version: str) -> CypherStatement:
    """Makes `version` the one queries read (what `cypher/queries/law_publish.cypher` does
    with parameters). Kept separate so ingestion publishes only after the vectors."""
    text = (
        f"MATCH (l:Law {{key: {cypher_literal(law_id)}}})\n"
        f"SET l.published_version = {cypher_literal(version)}, l.pending_version = null"
    )
    return CypherStatement("publish", text)


def cleanup_statement(law_id: str, version: str) -> CypherStatement:
    """Removes the nodes (and their relationships) of every other version of the law."""
    text = (
        "MATCH (n)\n"
        f"WHERE n.law = {cypher_literal(law_id)} AND n.version IS NOT NULL "
        f"AND n.version <> {cypher_literal(version)}\n"
        "DETACH DELETE n"
    )
    return CypherStatement("cleanup", text)


def cypher_literal(value: Any) -> str:
    """`value` as a Cypher literal: strings single-quoted with every quote, backslash and
    control character escaped; numbers, booleans, null; lists; maps with identifier keys."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ExportError(f"cannot write non-finite number {value!r}")
        return repr(value)
    if isinstance(value, str):
        return _string_literal(value)
    if isinstance(value, Mapping):
        return _map_literal(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(cypher_literal(v) for v in value) + "]"
    raise ExportError(f"cannot write a {type(value).__name__} as a Cypher value")


def split_statements(script: str) -> list[str]:
    """A Cypher script cut at the `;` that end statements (not those inside strings,
    backtick names or comments); comment-only and blank pieces are dropped."""
    statements: list[str] = []
    current: list[str] = []
    i, n = 0, len(script)
    quote: str | None = None
    while i < n:
        ch = script[i]
        if quote:
            current.append(ch)
            if ch == "\\" and quote != "`" and i + 1 < n:
                current.append(script[i + 1])
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "'\"`":
            quote = ch
            current.append(ch)
        elif script.startswith("//", i):
            end = script.find("\n", i)
            end = n if end < 0 else end
            current.append(script[i:end])
            i = end
            continue
        elif script.startswith("/*", i):
            end = script.find("*/", i + 2)
            end = n if end < 0 else end + 2
            current.append(script[i:end])
            i = end
            continue
        elif ch == ";":
            statements.append("".join(current))
            current = []
        else:
            current.append(ch)
        i += 1
    statements.append("".join(current))
    return [_strip_leading_comments(s) for s in statements if _has_code(s)]


# --- nodes -----------------------------------------------------------------------------


def _node_statements(
    law_id: str, version: str, nodes: list[Node], parameters: bool
) -> list[CypherStatement]:
    statements = []
    for label in NodeLabel:
        rows = [_node_row(law_id, version, n) for n in nodes if n.label == label]
        merge_key = "key" if label == NodeLabel.LAW else "uid"
        for batch in _chunks(rows, NODE_BATCH):
            text = (
                f"UNWIND {'$rows' if parameters else _rows_literal(batch)} AS row\n"
                f"MERGE (n:{label.value} {{{merge_key}: row.{merge_key}}})\n"
                "SET n += row"
            )
            params = {"rows": batch} if parameters else None
            statements.append(CypherStatement("nodes", text, len(batch), params))
    return statements


def _node_row(law_id: str, version: str, node: Node) -> dict[str, Any]:
    row = {
        k: _property_value(v, node.key, k)
        for k, v in node.props.items()
        if k not in RESERVED_PROPS and v is not None
    }
    row["key"] = node.key
    if node.label in UNVERSIONED_LABELS:
        # Shared by every version of the law (an external law's key names its citing
        # law). The Law node's version pointers are set only by the publish step (and by
        # services/core/publish.py), never by loading, so re-loading a published law
        # leaves them alone.
        row.update(uid=node.key, law=law_id)
    else:
        row.update(
            uid=f"{node.key}@{version}",
            law=law_id,
            version=version,
            law_version=f"{law_id}@{version}",
        )
    return row


def _normalised_nodes(graph: LawGraph) -> list[Node]:
    """Nodes sorted by (label, key), duplicates folded, a Law node ensured."""
    by_id: dict[tuple[NodeLabel, str], Node] = {}
    for node in graph.nodes:
        label = NodeLabel(node.label)
        _check_key(node.key)
        previous = by_id.get((label, node.key))
        if previous is not None and dict(previous.props) != dict(node.props):
            raise ExportError(
                f"node {label.value} {node.key!r} appears twice with different properties"
            )
        by_id[(label, node.key)] = Node(label, node.key, node.props)
    if (NodeLabel.LAW, graph.law_id) not in by_id:
        by_id[(NodeLabel.LAW, graph.law_id)] = Node(NodeLabel.LAW, graph.law_id, {})
    return [by_id[k] for k in sorted(by_id, key=lambda k: (_LABEL_ORDER[k[0]], k[1]))]


# --- relationships ---------------------------------------------------------------------


def _edge_statements(
    version: str, edges: list[Edge], local: set[tuple[NodeLabel, str]], parameters: bool
) -> list[CypherStatement]:
    groups: dict[tuple[RelType, NodeLabel, bool, NodeLabel, bool], list[Edge]] = {}
    for edge in edges:
        source_local = (edge.source_label, edge.source) in local
        target_local = (edge.target_label, edge.target) in local
        key = (edge.type, edge.source_label, source_local, edge.target_label, target_local)
        groups.setdefault(key, []).append(edge)
    statements = []
    for (rel, s_label, s_local, t_label, t_local), group in groups.items():
        source = _endpoint("a", s_label, s_local, "s")
        target = _endpoint("b", t_label, t_local, "t") + _published_filter("b", t_label, t_local)
        for batch in _chunks(group, EDGE_BATCH):
            rows = [
                {
                    "s": _endpoint_id(e.source_label, e.source, s_local, version),
                    "t": _endpoint_id(e.target_label, e.target, t_local, version),
                    "props": {
                        k: _property_value(v, e.source, k)
                        for k, v in e.props.items()
                        if v is not None
                    },
                }
                for e in batch
            ]
            text = (
                f"UNWIND {'$rows' if parameters else _rows_literal(rows)} AS row\n"
                f"MATCH {source}\n"
                f"MATCH {target}\n"
                f"MERGE (a)-[r:{rel.value}]->(b)\n"
                "SET r += row.props"
            )
            params = {"rows": rows} if parameters else None
            statements.append(CypherStatement("edges", text, len(rows), params))
    return statements


def _endpoint(var: str, label: NodeLabel, local: bool, field: str) -> str:
    # A node of this law version is found by uid; a node of another law (a cross-law
    # citation) by key, then kept only in its law's published version (_published_filter).
    prop = "uid" if local or label in UNVERSIONED_LABELS else "key"
    return f"({var}:{label.value} {{{prop}: row.{field}}})"


def _published_filter(var: str, label: NodeLabel, local: bool) -> str:
    """A cross-law target is the version its law publishes, never a pending or stale one;
    when the cited law is not stored (yet), the MATCH finds nothing and no edge is made
    (services/core/links.py links it once that law is published)."""
    if local or label in UNVERSIONED_LABELS:
        return ""
    return (
        f"\nMATCH ({var}_law:Law {{key: {var}.law}})\n"
        f"WHERE {var}.version = {var}_law.published_version"
    )


def _endpoint_id(label: NodeLabel, key: str, local: bool, version: str) -> str:
    if label in UNVERSIONED_LABELS or not local:
        return key
    return f"{key}@{version}"


def _normalised_edges(graph: LawGraph) -> list[Edge]:
    """Edges sorted by (type, source, target), duplicates folded."""
    by_id: dict[tuple[RelType, NodeLabel, str, NodeLabel, str], Edge] = {}
    for edge in graph.edges:
        rel, s_label, t_label = (
            RelType(edge.type),
            NodeLabel(edge.source_label),
            NodeLabel(edge.target_label),
        )
        _check_key(edge.source)
        _check_key(edge.target)
        ident = (rel, s_label, edge.source, t_label, edge.target)
        previous = by_id.get(ident)
        if previous is not None and dict(previous.props) != dict(edge.props):
            raise ExportError(
                f"relationship {rel.value} {edge.source!r} -> {edge.target!r} "
                "appears twice with different properties"
            )
        by_id[ident] = Edge(rel, s_label, edge.source, t_label, edge.target, edge.props)
    order = sorted(
        by_id, key=lambda k: (_TYPE_ORDER[k[0]], _LABEL_ORDER[k[1]], k[2], _LABEL_ORDER[k[3]], k[4])
    )
    return [by_id[k] for k in order]


# --- values ----------------------------------------------------------------------------


def _property_value(value: Any, owner: str, name: str) -> Any:
    """A value Neo4j can store as a property: a scalar or a list of one scalar type.
    Anything richer (maps, nested lists, mixed lists) is stored as JSON text."""
    if not _IDENTIFIER.match(name):
        raise ExportError(f"{owner}: property name {name!r} is not an identifier")
    if isinstance(value, str | bool | int | float):
        return value
    if isinstance(value, list | tuple):
        items = list(value)
        kinds = {type(v) for v in items}
        if len(kinds) <= 1 and kinds <= {str, bool, int, float}:
            return items
        return [v if isinstance(v, str) else _json(v) for v in items]
    if isinstance(value, Mapping):
        return _json(value)
    raise ExportError(f"{owner}: property {name!r} has unsupported type {type(value).__name__}")


def _json(value: Any) -> str:
    return json.dumps(
        value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=list
    )


_ESCAPES = {
    "\\": "\\\\",
    "'": "\\'",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\b": "\\b",
    "\f": "\\f",
}


# Characters a string literal writes as an escape: the ones in _ESCAPES, other control
# characters, line/paragraph separators and the BOM (invisible, or breaking lines in an
# editor) and lone surrogates (not UTF-8). One regex pass: a statute's text is mostly
# plain, and a Python loop over every character was the largest cost of an export.
_NEEDS_ESCAPE = re.compile("[\\\\'\x00-\x1f\x7f\u2028\u2029\ufeff\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    ch = match.group()
    return _ESCAPES.get(ch) or f"\\u{ord(ch):04x}"


def _string_literal(text: str) -> str:
    return "'" + _NEEDS_ESCAPE.sub(_escape, text) + "'"


def _map_literal(value: Mapping[str, Any]) -> str:
    items = []
    for key in sorted(value):
        if not isinstance(key, str) or not _IDENTIFIER.match(key):
            raise ExportError(f"map key {key!r} is not an identifier")
        items.append(f"{key}: {cypher_literal(value[key])}")
    return "{" + ", ".join(items) + "}"


def _rows_literal(rows: Iterable[Mapping[str, Any]]) -> str:
    return "[\n  " + ",\n  ".join(_map_literal(r) for r in rows) + "\n]"


# --- helpers ---------------------------------------------------------------------------


def _chunks(rows: list[_Row], size: int) -> Iterable[list[_Row]]:
    for start in range(0, len(rows), size):
        yield rows[start : start + size]


def _check_key(key: str) -> None:
    if not isinstance(key, str) or not key or key != key.strip():
        raise ExportError(f"node key {key!r} must be a non-empty string without outer spaces")


def _check_version(version: str) -> None:
    if not _VERSION.match(version):
        raise ExportError(f"version {version!r} must be 1-64 letters, digits, '.', '_' or '-'")


def _node_tuple(node: Node) -> list[Any]:
    return [node.label.value, node.key, dict(sorted(node.props.items()))]


def _edge_tuple(edge: Edge) -> list[Any]:
    return [
        edge.type.value,
        edge.source_label.value,
        edge.source,
        edge.target_label.value,
        edge.target,
        dict(sorted(edge.props.items())),
    ]


def _strip_leading_comments(piece: str) -> str:
    lines = piece.strip().splitlines()
    while lines and (not lines[0].strip() or lines[0].lstrip().startswith("//")):
        lines.pop(0)
    return "\n".join(lines).strip()


def _has_code(piece: str) -> bool:
    without_comments = re.sub(r"//[^\n]*|/\*.*?\*/", "", piece, flags=re.S)
    return bool(without_comments.strip())
