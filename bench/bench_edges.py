"""Typed edges per law: penalties, definitions, exemptions (a script, not a test).

For every law in `../shared/corpus` (the PDPA as the project ingests it, the GDPR, the
Singapore PDPA, Japan's APPI and each NitiBench law) it builds the graph the way
`lexgraph ingest` does (no database: `ingest.build.build_graph`) and prints one row per law:

- penalty provisions: the Penalty nodes (one per clause that prescribes a sanction) and how
  each one stands:
  - `linked`: PENALIZES to at least one section whose breach it punishes;
  - `open`: not linked, though its clause cites another provision that is in the corpus
    (of its own law or another; the denominator of the share counts these, so a citation
    the rules fail to read is a miss, not a smaller denominator);
  - `absent`: not linked, and every provision its clause cites is missing from the corpus
    (APPI arts. 76-108 and 146-160 are not in the file; laws outside the corpus);
  - `self`: its clause cites no other provision (a Japanese parenthetical note, "（…第百八十四
    条第一項において同じ。）", does not count): the punished conduct is written in the clause
    itself (a self-contained offence) or in another paragraph of its own section.
  The share is linked / (linked + open); `share, reviewed` leaves out of that denominator
  the open provisions read by hand and found to name no duty (`bench/edges_reviewed.json`,
  each with its reason; a provision not listed there counts); `strict` is linked / all
  penalty provisions.
- `sanction clauses outside`: lines with a sanction word (a broad list, independent of the
  rules) that no Penalty node covers, as a check on what the penalty rule does not see.
- definitions: Definition nodes, DEFINES and USES_TERM edges, and sections that hold any
  definition wording ("หมายความว่า", "'x' means", "「…」とは"; an upper bound) against those
  with a DEFINES edge.
- exemptions: Exemption nodes by kind, GRANTS_EXEMPTION and EXEMPTS_FROM edges.

    python bench/bench_edges.py                         # the table
    python bench/bench_edges.py --json                  # the same rows as JSON
    python bench/bench_edges.py --law sg-pdpa --open    # one law, with every open penalty
    python bench/bench_edges.py --sample 20 --seed 22   # 20 random PENALIZES edges per law
    python bench/bench_edges.py --pool exempts:60       # 60 EXEMPTS_FROM edges, all laws
    python bench/bench_edges.py --pool defines:60       # 60 Definition nodes, all laws

`--sample` prints, per edge, the penalty clause's sentence that names the target and the
target's cited paragraph (or its opening), for checking by hand (docs/edges-sample.md).
`--pool KIND:N` draws N items from all laws together (seeded): for `exempts`, the exemption
clause and the opening of the section it exempts from; for `defines`, the term, its scope
and the definition's text.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from ingest.build import build_graph  # noqa: E402
from ingest.corpus import CorpusIndex  # noqa: E402
from ingest.graph import LawGraph, NodeLabel, RelType  # noqa: E402
from ingest.models import Law, Section  # noqa: E402
from ingest.parse import read_source  # noqa: E402
from ingest.xrefs import Resolution, extract_citations, resolve_citation  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus"
# One group per corpus folder: citations between laws resolve within a group, as they do
# when a folder is ingested as one job.
GROUPS = {
    "pdpa": [CORPUS / "th-pdpa-2562" / "ocs" / "pdpa_2562_ocs.json"],
    "pdpa-md": [CORPUS / "th-pdpa-2562" / "sidataplus" / "about.md"],
    "gdpr": [CORPUS / "eu-gdpr" / "gdpr.json"],
    "sg": [CORPUS / "sg-pdpa-2012" / "pdpa-2012.json"],
    "jp": [CORPUS / "jp-appi" / "415AC0000000057_appi_ja.json"],
    "nitibench": sorted((CORPUS / "nitibench-ccl-laws").glob("*.json")),
}
# Deliberately broader than ingest.rules: any sanction word at all.
_SANCTION_RE = re.compile(
    r"ระวางโทษ|โทษปรับ|ค่าปรับ|ปรับไม่เกิน|จำคุก|"
    r"\bfines?\b|penalt(?:y|ies)|imprisonment|guilty\sof|commits?\san\soffence|"
    r"罰金|過料|拘禁刑|懲役|禁錮|処する|科する",
    re.IGNORECASE,
)
REVIEWED = Path(__file__).resolve().parent / "edges_reviewed.json"
# A Japanese parenthetical note ("（…第百八十四条第一項において同じ。）": the same in art.
# 184(1)) says where a term applies, not what is punished.
_NOTE_RE = re.compile(r"（[^（）]*(?:（[^（）]*）[^（）]*)*）")
# Any definition wording at all, so the count is an upper bound: Thai paragraph-level
# explanations ("ค่าสินไหมทดแทนตามวรรคหนึ่ง ให้หมายความรวมถึง …") count here, and the rules
# leave them out on purpose.
_DEFINITION_RE = re.compile(
    r"หมายความว่า|หมายถึง|หมายความถึง|หมายความรวมถึง|[’'\"”],?\s(?:[^’'\"”\n]{0,40}?\s)?"
    r"(?:means|includes)\b|」とは"
)


@dataclass
class LawRow:
    law: str
    title: str
    group: str
    penalties: int = 0
    linked: int = 0
    open: int = 0
    no_duty: int = 0  # open, and read by hand: its citations name no duty
    absent: int = 0
    self_contained: int = 0
    penalizes: int = 0
    sanction_outside: int = 0
    definitions: int = 0
    defines: int = 0
    uses_term: int = 0
    definition_sections: int = 0
    defining_sections: int = 0
    exemptions: Counter[str] = field(default_factory=Counter)
    grants: int = 0
    exempts_from: int = 0
    open_items: list[dict[str, Any]] = field(default_factory=list)
    outside_items: list[str] = field(default_factory=list)

    @property
    def share(self) -> float | None:
        denominator = self.linked + self.open
        return self.linked / denominator if denominator else None

    @property
    def reviewed(self) -> float | None:
        denominator = self.linked + self.open - self.no_duty
        return self.linked / denominator if denominator else None

    @property
    def strict(self) -> float | None:
        return self.linked / self.penalties if self.penalties else None

    def as_json(self) -> dict[str, Any]:
        row = {k: v for k, v in self.__dict__.items() if not k.endswith("_items")}
        row["exemptions"] = dict(self.exemptions)
        row["share"] = self.share
        row["reviewed"] = self.reviewed
        row["strict"] = self.strict
        return row


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    reviewed = reviewed_verdicts()
    rows: list[LawRow] = []
    pool: list[str] = []
    pool_kind, _, pool_size = (args.pool or "").partition(":")
    for group, paths in GROUPS.items():
        if args.group and group not in args.group.split(","):
            continue
        laws = [law for path in paths for law in read_source(path).laws]
        corpus = CorpusIndex.from_laws(laws)
        for law in laws:
            if args.law and args.law not in law.id:
                continue
            graph = build_graph(law, corpus)
            resolutions = {s.key: resolutions_of(s, law, corpus) for s in law.sections}
            row = measure(law, graph, resolutions, group, reviewed)
            rows.append(row)
            if args.open:
                _print_open(row)
            if args.sample:
                # one generator per law, so a law's sample is the same with or without --law
                rng = random.Random(f"{args.seed}:{law.id}")
                _print_sample(law, graph, resolutions, args.sample, rng)
            if pool_kind:
                pool.extend(_pool_items(law, graph, pool_kind))
    if pool_kind:
        rng = random.Random(f"{args.seed}:{pool_kind}")
        chosen = sorted(rng.sample(pool, min(int(pool_size or 20), len(pool))))
        print(f"## {len(chosen)} of {len(pool)} {pool_kind} items, seed {args.seed}")
        for i, item in enumerate(chosen, start=1):
            print(f"{i}. {item}")
        return 0
    if args.json:
        print(json.dumps([r.as_json() for r in rows], ensure_ascii=False, indent=1))
    else:
        _print_table(rows)
    return 0


def measure(
    law: Law,
    graph: LawGraph,
    resolutions: dict[str, list[Resolution]],
    group: str,
    reviewed: dict[str, str] | None = None,
) -> LawRow:
    row = LawRow(law=law.id, title=law.title, group=group)
    sections = {s.key: s for s in law.sections}
    penalized = {
        p for e in graph.edges if e.type is RelType.PENALIZES for p in e.props["penalties"]
    }
    row.penalizes = sum(1 for e in graph.edges if e.type is RelType.PENALIZES)
    covered: dict[str, list[str]] = {}
    for node in graph.nodes:
        if node.label is not NodeLabel.PENALTY:
            continue
        row.penalties += 1
        section = sections[node.props["section"]]
        text = str(node.props["text"])
        covered.setdefault(section.key, []).append(text)
        if node.key in penalized:
            row.linked += 1
            continue
        cited = _cited_in(section, text, resolutions[section.key])
        if any(target is not None for target in cited):
            row.open += 1
            verdict = (reviewed or {}).get(node.key, "not reviewed")
            row.no_duty += verdict == "names no duty"
            row.open_items.append(
                {
                    "penalty": node.key,
                    "cites": sorted({t for t in cited if t}),
                    "verdict": verdict,
                    "text": text,
                }
            )
        elif cited:
            row.absent += 1
        else:
            row.self_contained += 1
    for section in law.sections:
        texts = covered.get(section.key, [])
        for line in section.text.splitlines():
            if _SANCTION_RE.search(line) and not any(line.strip() in t for t in texts):
                row.sanction_outside += 1
                row.outside_items.append(f"{section.key}: {line.strip()[:160]}")
    counts = Counter(e.type for e in graph.edges)
    row.definitions = sum(1 for n in graph.nodes if n.label is NodeLabel.DEFINITION)
    row.defines = counts[RelType.DEFINES]
    row.uses_term = counts[RelType.USES_TERM]
    row.definition_sections = sum(1 for s in law.sections if _DEFINITION_RE.search(s.text))
    row.defining_sections = len({e.source for e in graph.edges if e.type is RelType.DEFINES})
    row.exemptions = Counter(
        str(n.props["kind"]) for n in graph.nodes if n.label is NodeLabel.EXEMPTION
    )
    row.grants = counts[RelType.GRANTS_EXEMPTION]
    row.exempts_from = counts[RelType.EXEMPTS_FROM]
    return row


def reviewed_verdicts() -> dict[str, str]:
    data = json.loads(REVIEWED.read_text(encoding="utf-8"))
    return {key: item["verdict"] for key, item in data["penalties"].items() if item}


def resolutions_of(section: Section, law: Law, corpus: CorpusIndex) -> list[Resolution]:
    return [resolve_citation(c, law, corpus) for c in extract_citations(section, law, corpus)]


def _cited_in(section: Section, clause: str, resolutions: list[Resolution]) -> list[str | None]:
    """Targets (None: not in the corpus) of the citations inside `clause` other than of
    its own section."""
    start = section.text.find(clause)
    if start < 0:
        return []
    end = start + len(clause)
    notes = [m.span() for m in _NOTE_RE.finditer(section.text, start, end)]
    return [
        r.target
        for r in resolutions
        if start <= r.citation.span[0] < end
        and r.target != section.key
        and not any(a <= r.citation.span[0] < b for a, b in notes)
    ]


def _print_table(rows: list[LawRow]) -> None:
    print(
        "| law | penalty provisions | linked | open (of them: names no duty) | absent | self "
        "| share | share, reviewed | strict "
        "| PENALIZES | sanction lines outside | Definition | DEFINES | USES_TERM "
        "| sections with a definition phrase / with DEFINES "
        "| Exemption (except / not_apply / exempt) "
        "| GRANTS_EXEMPTION | EXEMPTS_FROM |"
    )
    print("|" + "---|" * 18)
    for r in rows:
        print(
            f"| {_name(r)} | {r.penalties} | {r.linked} | {r.open} ({r.no_duty}) | {r.absent} "
            f"| {r.self_contained} | {_pct(r.share)} | {_pct(r.reviewed)} | {_pct(r.strict)} "
            f"| {r.penalizes} "
            f"| {r.sanction_outside} | {r.definitions} | {r.defines} | {r.uses_term} "
            f"| {r.definition_sections} / {r.defining_sections} "
            f"| {sum(r.exemptions.values())} ({r.exemptions['except']} / "
            f"{r.exemptions['not_apply']} / {r.exemptions['exempt']}) | {r.grants} "
            f"| {r.exempts_from} |"
        )


def _name(row: LawRow) -> str:
    name = row.law if row.group != "nitibench" else row.title
    return f"{name[:60]} ({row.group})" if row.group == "pdpa-md" else name[:60]


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.0f}%"


def _print_open(row: LawRow) -> None:
    print(f"## {row.law}: {row.open} open, {row.sanction_outside} sanction lines outside")
    for item in row.open_items:
        text = re.sub(r"\s+", " ", item["text"])[:400]
        print(f"  OPEN {item['penalty']} ({item['verdict']}) cites {item['cites']}\n     {text}")
    for line in row.outside_items:
        print(f"  OUTSIDE {line}")


def _print_sample(
    law: Law,
    graph: LawGraph,
    resolutions: dict[str, list[Resolution]],
    size: int,
    rng: random.Random,
) -> None:
    edges = [e for e in graph.edges if e.type is RelType.PENALIZES]
    chosen = sorted(rng.sample(edges, min(size, len(edges))), key=lambda e: (e.source, e.target))
    sections = {s.key: s for s in law.sections}
    penalties = {n.key: n for n in graph.nodes if n.label is NodeLabel.PENALTY}
    print(f"## {law.id} — {len(chosen)} of {len(edges)} PENALIZES edges")
    for i, edge in enumerate(chosen, start=1):
        source = sections[edge.source]
        target = sections.get(edge.target)
        clauses = [str(penalties[k].props["text"]) for k in edge.props["penalties"]]
        spans = [(source.text.find(c), source.text.find(c) + len(c)) for c in clauses]
        cites = [
            r
            for r in resolutions[source.key]
            if r.target == edge.target and any(a <= r.citation.span[0] < b for a, b in spans)
        ]
        label = target.label if target else edge.target
        print(f"{i}. {source.label} -> {label}")
        if cites:
            print(f"   penalty: {_sentence(source.text, cites[0].citation.span, 160, 60)}")
        else:  # a division or a general penalty: no citation of the target in the clause
            print(f"   penalty (no citation of it): {_sentence(clauses[0], (0, 0), 0, 260)}")
        if target is not None:
            paragraph = cites[0].citation.paragraph if cites else None
            print(f"   target:  {_target_text(target, paragraph)}")


def _pool_items(law: Law, graph: LawGraph, kind: str) -> list[str]:
    """One printable item per EXEMPTS_FROM edge (`exempts`) or Definition node (`defines`)."""
    sections = {s.key: s for s in law.sections}
    items: list[str] = []
    if kind == "exempts":
        exemptions = {n.key: n for n in graph.nodes if n.label is NodeLabel.EXEMPTION}
        for edge in graph.edges:
            if edge.type is not RelType.EXEMPTS_FROM:
                continue
            node = exemptions[edge.source]
            source = sections[str(node.props["section"])]
            target = sections.get(edge.target)
            clause = re.sub(r"\s+", " ", str(node.props["text"]))[:320]
            label = target.label if target else edge.target
            opening = _target_text(target, None, 160) if target else ""
            items.append(
                f"{law.id} {source.label} -> {label} ({node.props['kind']})\n"
                f"   exemption: {clause}\n   target:    {opening}"
            )
    elif kind == "defines":
        for node in graph.nodes:
            if node.label is not NodeLabel.DEFINITION:
                continue
            source = sections.get(str(node.props["section"]))
            text = re.sub(r"\s+", " ", str(node.props["text"]))[:240]
            label = source.label if source else node.props["section"]
            items.append(
                f"{law.id} {label} defines 「{node.props['term']}」 "
                f"(scope {node.props.get('scope')})\n   text: {text}"
            )
    else:
        raise SystemExit(f"--pool: unknown kind {kind!r} (exempts or defines)")
    return items


def _sentence(text: str, span: tuple[int, int], before: int, after: int) -> str:
    begin = max(0, span[0] - before)
    end = min(len(text), span[1] + after)
    snippet = text[begin:end]
    return re.sub(r"\s+", " ", ("…" if begin else "") + snippet + ("…" if end < len(text) else ""))


def _target_text(section: Section, paragraph: int | None, width: int = 200) -> str:
    text = section.text
    if paragraph is not None and 0 < paragraph <= len(section.paragraphs):
        text = section.paragraphs[paragraph - 1].text
    text = re.sub(r"\s+", " ", text)
    return text[:width] + ("…" if len(text) > width else "")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--group", help=f"comma list of {', '.join(GROUPS)}")
    parser.add_argument("--law", help="only laws whose id contains this")
    parser.add_argument("--open", action="store_true", help="list open penalties")
    parser.add_argument("--sample", type=int, default=0, help="PENALIZES edges to print per law")
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--pool", help="KIND:N, N items of exempts or defines over all laws")
    parser.add_argument("--json", action="store_true")
    return parser


if __name__ == "__main__":
    raise SystemExit(main())
