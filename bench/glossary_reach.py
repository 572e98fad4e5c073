"""How many of the project's gold questions each glossary entry reaches (issue 22, item 6):
an entry that matches exactly one question may have been written for it, a fit rather
than a mechanism (a crude sign: everyday words reach one question too; docs/quality.md,
"glossaries pruned"). Prints, per glossary, the entries reaching no question, one, and
more; `--verbose` lists the one-question entries; `--prune` removes them from
`data/glossary/*.json` (each file keeps its layout, one entry per line).

    python bench/glossary_reach.py             # counts
    python bench/glossary_reach.py --verbose   # and the one-question entries
    python bench/glossary_reach.py --prune     # remove them

The questions are every file of tests/fixtures/eval/ (dev, probe, long and CI sets, tuning
and check parts alike: an entry that serves one question of any of them is a fit), matched
exactly as a search matches them (services/core/analysis.py: English keys as whole words,
plurals too; Thai keys as substrings of the lower-cased question).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from services.core import analysis  # noqa: E402
from services.core.evaluation import load_gold  # noqa: E402

GOLD = REPO / "tests" / "fixtures" / "eval"


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    questions = [
        q.question.lower()
        for path in sorted(GOLD.glob("*.jsonl"))
        for q in load_gold(path).questions
    ]
    print(f"{len(questions)} questions in {GOLD.relative_to(REPO)}")
    for glossary in analysis.glossaries():
        path = analysis.GLOSSARIES / f"{glossary.name}.json"
        keys = list(json.loads(path.read_text(encoding="utf-8"))["terms"])
        reach = [sum(1 for q in questions if pattern.search(q)) for pattern, _ in glossary.entries]
        single = [key for key, n in zip(keys, reach, strict=True) if n == 1]
        print(
            f"{glossary.name}: {len(keys)} entries; reaching no question "
            f"{sum(n == 0 for n in reach)}, one {len(single)}, more {sum(n > 1 for n in reach)}"
        )
        if args.verbose:
            print("  one question: " + ", ".join(single))
        if args.prune and single:
            path.write_text(_without(path.read_text(encoding="utf-8"), single), encoding="utf-8")
            print(f"  removed {len(single)} from {path.relative_to(REPO)}")
    return 0


def _without(text: str, keys: list[str]) -> str:
    """The glossary file's text without the lines of `keys` (one entry per line)."""
    for key in keys:
        line = re.compile(
            r"^    " + re.escape(json.dumps(key, ensure_ascii=False)) + r": .*\n", re.M
        )
        text, n = line.subn("", text, count=1)
        if n != 1:
            raise SystemExit(f"entry {key!r} is not on a line of its own; remove it by hand")
    text = re.sub(r",\n(  \})", r"\n\1", text)  # the last entry may have been removed
    json.loads(text)  # still a glossary file
    return text


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--prune", action="store_true", help="remove the one-question entries")
    p.add_argument("--verbose", action="store_true", help="list the one-question entries")
    return p


if __name__ == "__main__":
    raise SystemExit(main())
