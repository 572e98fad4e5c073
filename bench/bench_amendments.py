"""What amended the laws of an OCS laws.jsonl, read without a database (ingest/amendments.py):
how many "แก้ไขเพิ่มเติมโดย / ยกเลิกโดย / เพิ่มโดย" phrases the texts print, how many are
markers (they name an act), how many of those become AMENDS / INSERTS / REPEALS
relationships, the acts OCS appends that are kept as amending acts, and what the reader
still skips, with its reasons.

`--sample N --seed S` draws N relationships for reading by hand; the verdicts of the ones
read are in `bench/amendments_reviewed.json` and give the precision printed at the end.

    .venv/bin/python bench/bench_amendments.py
    .venv/bin/python bench/bench_amendments.py --sample 50 --seed 2026
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ingest.amendments import Amendment, count_phrases, read_markers  # noqa: E402
from ingest.corpus import CorpusIndex  # noqa: E402
from ingest.readers.ocs import read_ocs_records  # noqa: E402

DEFAULT_SOURCE = (
    Path(__file__).resolve().parents[2] / "shared" / "corpus" / "th-laws-ocs" / "laws.jsonl"
)
REVIEWED = Path(__file__).resolve().parent / "amendments_reviewed.json"


def review_id(amendment: Amendment) -> str:
    """A stable name for one relationship read from one marker."""
    return f"{amendment.place} | {amendment.by} | {amendment.change} | {amendment.target}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", nargs="?", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--sample", type=int, default=0, help="draw N relationships to read")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    started = time.perf_counter()
    result = read_ocs_records(str(args.source), args.source.read_text(encoding="utf-8"))
    corpus = CorpusIndex.from_laws(result.laws)
    phrases = 0
    markers = []
    for law in result.laws:
        phrases += count_phrases(law)
        markers += read_markers(law, corpus)
    amendments = [a for m in markers for a in m.amendments]
    read = sum(1 for m in markers if m.amendments)
    acts = [act for law in result.laws for act in law.appended_acts]
    skipped = Counter(
        re.sub(r"\d+", "N", w.split(":")[0])[:90]
        for law in result.laws
        for w in law.warnings
        if w.startswith(("skipped", "kept text block"))
    )
    print(f"{args.source}: {len(result.laws)} laws read, {len(result.rejected)} records rejected")
    print(
        f"appended amending acts kept: {len(acts)}, with {sum(len(a.provisions) for a in acts)} provisions"
    )
    print(f"phrases: {phrases}; markers (they name an act): {len(markers)}")
    print(
        f"markers that became relationships: {read} / {len(markers)} = {read / max(1, len(markers)):.3f}"
    )
    print(f"relationships: {len(amendments)}", dict(Counter(a.change for a in amendments)))
    print("  to:", dict(Counter(a.target_kind for a in amendments)))
    print(
        "  by:",
        dict(
            Counter(
                a.by
                if a.by == "self"
                else a.by.split("-")[0]
                if a.by.startswith("appended-")
                else "named"
                for a in amendments
            )
        ),
    )
    print("provisions still skipped, by reason:", dict(skipped) or "none")
    for marker in markers:
        if not marker.amendments:
            print(f"  not read: {marker.place}: {marker.text!r}")

    reviewed = (
        json.loads(REVIEWED.read_text(encoding="utf-8"))["verdicts"] if REVIEWED.exists() else {}
    )
    if args.sample:
        random.seed(args.seed)
        for i, a in enumerate(random.sample(amendments, min(args.sample, len(amendments))), 1):
            verdict = reviewed.get(review_id(a), {}).get("verdict", "not read")
            print(f"\n{i}. [{verdict}] {review_id(a)}\n   {a.marker}")
    current = {review_id(a) for a in amendments}
    judged = [v["verdict"] for k, v in reviewed.items() if k in current]
    if judged:
        right = judged.count("right")
        print(
            f"\nprecision on the {len(judged)} read by hand: {right} / {len(judged)} = {right / len(judged):.3f}"
        )
    print(f"({time.perf_counter() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
