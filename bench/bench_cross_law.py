"""Cross-law citations after (a) one ingest of the 36 NitiBench laws, (b) the same laws
one `ingest_paths` call each in a random order, (c) a new version of a cited law (the
Civil and Commercial Code with one section changed): the counts per relationship type
between published versions, the `links.check` verdict, and the wall time of each step.
Graph only (no vectors); its own throwaway stack (bench/_stack.py).

    .venv/bin/python bench/bench_cross_law.py [--seed 21] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._stack import NITIBENCH_LAWS, Stack, open_stack  # noqa: E402
from services.core.links import check, cross_law_counts  # noqa: E402

CITED = "ป0003-1D-0002.json"  # ประมวลกฎหมายแพ่งและพาณิชย์, cited by 8 of the other laws


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=21, help="order of step (b)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    paths = sorted(NITIBENCH_LAWS.glob("*.json"))
    if len(paths) != 36:
        print(f"expected the 36 NitiBench laws in {NITIBENCH_LAWS}", file=sys.stderr)
        return 1
    rows: list[dict[str, Any]] = []
    with open_stack() as stack, tempfile.TemporaryDirectory() as tmp:
        rows.append(_step(stack, "(a) one ingest of 36 laws", lambda: _ingest(stack, paths)))
        _wipe(stack)
        order = random.Random(args.seed).sample(paths, len(paths))

        def one_at_a_time() -> None:
            for path in order:
                _ingest(stack, [path])

        rows.append(_step(stack, f"(b) 36 ingests, random order (seed {args.seed})",
                          one_at_a_time))
        changed = _changed_copy(NITIBENCH_LAWS / CITED, Path(tmp))
        rows.append(_step(stack, "(c) new version of the Civil and Commercial Code",
                          lambda: _ingest(stack, [changed])))
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
    else:
        print(f"{'step':52} {'REFERENCES':>10} {'PENALIZES':>9} {'EXEMPTS':>7} "
              f"{'check':>6} {'wall s':>7}")
        for r in rows:
            c = r["counts"]
            print(f"{r['step']:52} {c.get('REFERENCES', 0):>10} {c.get('PENALIZES', 0):>9} "
                  f"{c.get('EXEMPTS_FROM', 0):>7} {'ok' if r['check_ok'] else 'DIFF':>6} "
                  f"{r['seconds']:>7.1f}")
    same = len({json.dumps(r["counts"], sort_keys=True) for r in rows}) == 1
    return 0 if same and all(r["check_ok"] for r in rows) else 1


def _ingest(stack: Stack, paths: list[Path]) -> None:
    report = stack.ingest(paths, with_vectors=False)
    if not report.ok:
        raise SystemExit(f"ingest failed: {report.errors}")


def _step(stack: Stack, name: str, run: Any) -> dict[str, Any]:
    started = time.perf_counter()
    run()
    seconds = time.perf_counter() - started
    result = check(stack.graph)
    return {
        "step": name,
        "counts": cross_law_counts(stack.graph),
        "check_ok": result.ok,
        "check": result.as_dict(examples=3),
        "seconds": round(seconds, 1),
    }


def _wipe(stack: Stack) -> None:
    stack.graph.run_cypher("MATCH (n) DETACH DELETE n", write=True)


def _changed_copy(source: Path, folder: Path) -> Path:
    records = json.loads(source.read_text(encoding="utf-8"))
    records[0]["section_content"] += " (ข้อความแก้ไขเพื่อการทดสอบ)"
    target = folder / source.name
    target.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    return target


if __name__ == "__main__":
    sys.exit(main())
