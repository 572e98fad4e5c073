"""Decrees, regulations and their ties to the laws above them, over a corpus (a script,
not a test): what `ingest/instruments.py` reads, by kind of instrument.

For every law of the sources (default: the 698-law OCS corpus, the 36 NitiBench laws and
the PDPA with its decrees, built together the way `lexgraph ingest` builds them, without a
database) it counts, per kind (act, royal_decree, ministerial_regulation, ...):

- laws, and those whose period in force was read: a start date from the text, an end
  date, or only the earliest possible day (a start tied to the Gazette date);
- laws that say what they are issued under (a preamble "อาศัยอำนาจตามความใน…" or a remark
  naming a section that gives the power), and ISSUED_UNDER edges resolved to a section of
  a law in the corpus;
- DISAPPLIES edges (chapters and sections of another law kept from applying);
- ministerial regulations numbered ข้อ;
- provisions the readers skipped, by the reason they give (`Law.warnings`).

    python bench/bench_instruments.py
    python bench/bench_instruments.py --sources ../shared/corpus/th-laws-ocs/laws.jsonl
    python bench/bench_instruments.py --sample 20 --seed 18   # ISSUED_UNDER edges to check
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from ingest.build import build_graph  # noqa: E402
from ingest.corpus import CorpusIndex  # noqa: E402
from ingest.graph import RelType  # noqa: E402
from ingest.ids import arabic_to_thai_digits, law_kind  # noqa: E402
from ingest.instruments import in_force  # noqa: E402
from ingest.parse import read_source  # noqa: E402

SHARED = REPO.parent / "shared" / "corpus"
DEFAULT_SOURCES = [
    SHARED / "th-laws-ocs" / "laws.jsonl",
    *sorted((SHARED / "nitibench-ccl-laws").glob("*.json")),
    REPO / "data" / "th-pdpa-2562" / "about.md",
    *sorted((REPO / "data" / "th-pdpa-2562" / "decrees").glob("*.json")),
]
_POWER = re.compile(r"อาศัยอำนาจ|ให้อำนาจ")


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    laws = {}
    for path in args.sources:
        for law in read_source(path).laws:
            laws.setdefault(law.id, law)  # the first source of a law wins, as in one run
    corpus = CorpusIndex.from_laws(sorted(laws.values(), key=lambda law: law.id))
    rows: dict[str, Counter[str]] = defaultdict(Counter)
    skipped: Counter[str] = Counter()
    issued: list[tuple[str, str]] = []
    for law in laws.values():
        kind = law_kind(law.title)
        row = rows[kind]
        row["laws"] += 1
        period = in_force(law)
        row["from_date"] += bool(period.valid_from)
        row["to_date"] += bool(period.valid_to)
        row["earliest_only"] += bool(period.not_before and not period.valid_from)
        row["names_power"] += any(_POWER.search(note) for note in law.notes)
        row["kho_numbered"] += any(s.label.startswith("ข้อ") for s in law.sections)
        graph = build_graph(law, corpus)
        for edge in graph.edges:
            if edge.type == RelType.ISSUED_UNDER:
                row["issued_under_edges"] += 1
                issued.append((law.id, edge.target))
            elif edge.type == RelType.DISAPPLIES:
                row["disapplies_edges"] += 1
        row["with_issued_under"] += any(e.type == RelType.ISSUED_UNDER for e in graph.edges)
        for warning in law.warnings:
            skipped[_reason(warning)] += 1
    if args.json:
        print(json.dumps({"kinds": rows, "skipped": skipped}, ensure_ascii=False, indent=2))
    else:
        _print(rows, skipped)
    if args.sample:
        _print_sample(issued, laws, args.sample, args.seed)
    return 0


def _reason(warning: str) -> str:
    """A reader's warning without its particulars: what kind of thing was skipped."""
    return re.sub(r"'.*|\d+", "N", warning)[:90]


def _print(rows: dict[str, Counter[str]], skipped: Counter[str]) -> None:
    columns = (
        "laws", "from_date", "to_date", "earliest_only", "names_power", "with_issued_under",
        "issued_under_edges", "disapplies_edges", "kho_numbered",
    )  # fmt: skip
    print(f"{'kind':<24}" + "".join(f"{c:>19}" for c in columns))
    total: Counter[str] = Counter()
    for kind in sorted(rows, key=lambda k: -rows[k]["laws"]):
        total.update(rows[kind])
        print(f"{kind:<24}" + "".join(f"{rows[kind][c]:>19}" for c in columns))
    print(f"{'all':<24}" + "".join(f"{total[c]:>19}" for c in columns))
    print("\nskipped by the readers, with their reason:")
    for reason, count in skipped.most_common():
        print(f"  {count:>6}  {reason}")


def _print_sample(issued: list[tuple[str, str]], laws: dict[str, Any], n: int, seed: int) -> None:
    print(f"\n{n} ISSUED_UNDER edges (seed {seed}), with the words of the note that cite it:")
    for law_id, target in random.Random(seed).sample(issued, min(n, len(issued))):
        law = laws[law_id]
        cited = f"มาตรา {arabic_to_thai_digits(target.rsplit(':s:', 1)[1])}"
        note = next((x for x in law.notes if cited in x), "")
        start = max(0, note.find(cited) - 40)
        print(f"- {law.title[:80]}\n  -> {target}\n  {' '.join(note[start : start + 220].split())}")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sources", type=Path, nargs="+", default=DEFAULT_SOURCES)
    p.add_argument("--sample", type=int, default=0, help="print N random ISSUED_UNDER edges")
    p.add_argument("--seed", type=int, default=18)
    p.add_argument("--json", action="store_true")
    return p


if __name__ == "__main__":
    sys.exit(main())
