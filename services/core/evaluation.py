"""Retrieval evaluation: gold files, the harness and the metrics.

Two gold formats:

- JSONL, one question a line: ``{"id", "question", "must": [...], "should": [...],
  "kind", "lang", "law"?}``. Sections are numbers or strings ("26", "77/1", "19 ทวิ")
  within the line's ``law`` or the default law; a label may carry its unit and a place
  inside the section ("Art. 6(1)(a)", "มาตรา ๒๖ วรรคหนึ่ง"), read as that section
  (`gold_section_number`). Against a loaded stack (`check_gold`) a ``law`` written by a
  name one loaded law answers to ("GDPR") reads as that law's id, and laws not loaded and
  labels no loaded law holds are named in warnings. Scored with all-must@K (every ``must``
  section retrieved), must-recall@K and MRR@K of the first ``must`` section, overall and
  by ``kind`` and ``lang``.
- The NitiBench CSV (``question``, ``relevant_laws`` as a Python-literal list of
  ``{'law': name, 'sections': number}``), labelled over the 36-law NitiBench corpus.
  Scored with NitiBench's own definitions (``../shared/eval/PROVENANCE.md``): HR@k,
  Multi-HR@k, Recall@k, MRR@k and Multi-MRR@k at k = 1, 5, 10.

Both report ``on_law``: the share of answers holding at least one section of a law the
question's labels are in (with many laws loaded, an answer can drift into another law
entirely). Every question belongs to the tuning or the check part of its set by a stable
hash of its id (`split_of`, about 60/40): ranking changes are chosen on tuning parts and
check parts are only scored to report; reports give both (``by_part``).

A retriever is any callable ``question -> ordered sections`` (``(law id, number)``
pairs). Every score uses the first K *distinct* sections of what it returns, in order,
so a context that repeats a section (reached by two paths) is not rewarded twice.
"""

from __future__ import annotations

import ast
import csv
import hashlib
import json
import logging
import re
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ingest.corpus import normalise_law_name, without_year
from ingest.ids import law_id_for_title, node_key, normalise_section_number
from services.core.analysis import KeywordSource
from services.core.errors import LexgraphError

log = logging.getLogger(__name__)

DEFAULT_LAW = "th-pdpa-2562"
NITIBENCH_KS = (1, 5, 10)
MODES = ("bm25", "dense", "hybrid", "graph")

# Share of every gold set held out to report on, never to tune on (stable by question id).
CHECK_PERCENT = 40
PARTS = ("tune", "check")

SectionRef = tuple[str, str]  # (law id, normalised section number)
Retriever = Callable[[str], Sequence[SectionRef]]


@dataclass(frozen=True)
class GoldQuestion:
    id: str
    question: str
    must: tuple[SectionRef, ...]
    should: tuple[SectionRef, ...] = ()
    kind: str = ""
    lang: str = ""


@dataclass(frozen=True)
class GoldSet:
    format: str  # "jsonl" | "nitibench"
    path: str
    questions: tuple[GoldQuestion, ...]

    def part(self, name: str) -> GoldSet:
        """Only the questions of one part ("tune" or "check", `split_of`); "all": all."""
        if name == "all":
            return self
        if name not in PARTS:
            raise ValueError(f"unknown part {name!r}; expected tune, check or all")
        kept = tuple(q for q in self.questions if split_of(q.id) == name)
        return GoldSet(self.format, f"{self.path} [{name}]", kept)

    def with_laws(self, renamed: Mapping[str, str]) -> GoldSet:
        """The same questions with the laws in `renamed` written as its values."""

        def refs(items: tuple[SectionRef, ...]) -> tuple[SectionRef, ...]:
            return tuple(dict.fromkeys((renamed.get(law, law), n) for law, n in items))

        return GoldSet(
            self.format,
            self.path,
            tuple(replace(q, must=refs(q.must), should=refs(q.should)) for q in self.questions),
        )

    @property
    def laws(self) -> tuple[str, ...]:
        """Every law the gold labels point into, in first-seen order."""
        seen: dict[str, None] = {}
        for q in self.questions:
            for law, _ in (*q.must, *q.should):
                seen.setdefault(law, None)
        return tuple(seen)


def split_of(question_id: str) -> str:
    """ "tune" or "check" for a question id: the first four bytes of its SHA-256, mod 100,
    below `CHECK_PERCENT` make it a check question, on every machine and every run."""
    digest = hashlib.sha256(question_id.encode("utf-8")).digest()
    return "check" if int.from_bytes(digest[:4], "big") % 100 < CHECK_PERCENT else "tune"


class GoldFileError(LexgraphError, ValueError):
    """A gold file that cannot be read; names the file, the line and the problem."""


# ---------------------------------------------------------------------------------------
# Loading


def load_gold(
    path: str | Path,
    *,
    default_law: str = DEFAULT_LAW,
    law_id_for_name: Callable[[str], str] = law_id_for_title,
) -> GoldSet:
    """Read a gold file, choosing the format by its suffix (``.csv`` = NitiBench)."""
    path = Path(path)
    if path.suffix.lower() == ".csv":
        questions = load_nitibench_csv(path, law_id_for_name=law_id_for_name)
        return GoldSet("nitibench", str(path), tuple(questions))
    return GoldSet("jsonl", str(path), tuple(load_jsonl_gold(path, default_law=default_law)))


def load_jsonl_gold(path: str | Path, *, default_law: str = DEFAULT_LAW) -> list[GoldQuestion]:
    path = Path(path)
    questions: list[GoldQuestion] = []
    seen_ids: set[str] = set()
    with path.open(encoding="utf-8-sig") as handle:
        for line_no, line in enumerate(handle, start=1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise GoldFileError(f"{path}:{line_no}: not JSON ({exc.msg})") from exc
            question = _jsonl_question(record, default_law, where=f"{path}:{line_no}")
            if question.id in seen_ids:
                raise GoldFileError(f"{path}:{line_no}: duplicate id {question.id!r}")
            seen_ids.add(question.id)
            questions.append(question)
    if not questions:
        raise GoldFileError(f"{path}: no questions")
    return questions


def _jsonl_question(record: Any, default_law: str, *, where: str) -> GoldQuestion:
    if not isinstance(record, dict):
        raise GoldFileError(f"{where}: a line must be a JSON object")
    for name in ("id", "question", "must"):
        if name not in record:
            raise GoldFileError(f"{where}: missing field {name!r}")
    law = str(record.get("law") or default_law)
    must = _section_refs(record["must"], law, where=f"{where}: must")
    if not must:
        raise GoldFileError(f"{where}: 'must' is empty")
    return GoldQuestion(
        id=str(record["id"]),
        question=str(record["question"]),
        must=must,
        should=_section_refs(record.get("should") or [], law, where=f"{where}: should"),
        kind=str(record.get("kind") or ""),
        lang=str(record.get("lang") or ""),
    )


def _section_refs(values: Any, law: str, *, where: str) -> tuple[SectionRef, ...]:
    if not isinstance(values, list):
        raise GoldFileError(f"{where} must be a list")
    refs: dict[SectionRef, None] = {}
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise GoldFileError(f"{where}: {value!r} is not a section number")
        number = gold_section_number(str(value))
        if not number:
            raise GoldFileError(f"{where}: {value!r} names no section")
        refs.setdefault((law, number), None)
    return tuple(refs)


# What a gold reference may hold beside its section's number: a unit word `ingest.ids` does
# not take off ("Art 6", "Sec. 26", "ม. 26") and a place inside the section ("6(1)(a)",
# "26 วรรคหนึ่ง", "83 para. 5"). All-must@K scores sections, so a reference means its section.
_GOLD_UNIT = re.compile(r"^(?:art\b|sec\b\.?|ม\.|§)\s*", re.IGNORECASE)
_GOLD_PLACE = re.compile(r"\s*(?:\(|วรรค|อนุมาตรา|para\b|paragraph\b|,).*$", re.IGNORECASE)


def gold_section_number(value: str) -> str:
    """The section a gold reference names: "Art. 6(1)(a)" -> "6", "มาตรา ๒๖ วรรคหนึ่ง" ->
    "26", "19 ทวิ" and "77/1" as they are."""
    number = _GOLD_UNIT.sub("", normalise_section_number(value))
    return _GOLD_PLACE.sub("", number).strip()


def load_nitibench_csv(
    path: str | Path, *, law_id_for_name: Callable[[str], str] = law_id_for_title
) -> list[GoldQuestion]:
    """NitiBench-Tax/CCL CSV. ``relevant_laws`` is read with ``ast.literal_eval`` (the
    file is data, never code); duplicate labels collapse, as in NitiBench's metrics."""
    path = Path(path)
    questions: list[GoldQuestion] = []
    with path.open(encoding="utf-8-sig", newline="") as handle:  # the file has a BOM
        reader = csv.DictReader(handle)
        missing = {"question", "relevant_laws"} - set(reader.fieldnames or ())
        if missing:
            raise GoldFileError(f"{path}: missing columns {sorted(missing)}")
        for row_no, row in enumerate(reader, start=1):
            where = f"{path}: row {row_no}"
            labels = _nitibench_labels(row["relevant_laws"], law_id_for_name, where=where)
            questions.append(
                GoldQuestion(
                    id=f"nitibench-{row_no}",
                    question=row["question"].strip(),
                    must=labels,
                    kind="nitibench",
                    lang="th",
                )
            )
    if not questions:
        raise GoldFileError(f"{path}: no questions")
    return questions


def _nitibench_labels(
    raw: str, law_id_for_name: Callable[[str], str], *, where: str
) -> tuple[SectionRef, ...]:
    try:
        items = ast.literal_eval(raw)
    except (ValueError, SyntaxError) as exc:
        raise GoldFileError(f"{where}: relevant_laws is not a Python literal") from exc
    if not isinstance(items, list) or not items:
        raise GoldFileError(f"{where}: relevant_laws must be a non-empty list")
    refs: dict[SectionRef, None] = {}
    for item in items:
        if not isinstance(item, dict) or "law" not in item or "sections" not in item:
            raise GoldFileError(f"{where}: label {item!r} lacks 'law' or 'sections'")
        law = law_id_for_name(str(item["law"]))
        refs.setdefault((law, normalise_section_number(str(item["sections"]))), None)
    return tuple(refs)


# ---------------------------------------------------------------------------------------
# Metrics (per question; means are taken over questions)


def first_distinct(sections: Iterable[SectionRef], k: int) -> list[SectionRef]:
    """The first `k` distinct sections, in order, with numbers normalised."""
    out: list[SectionRef] = []
    seen: set[SectionRef] = set()
    for law, number in sections:
        ref = (law, normalise_section_number(str(number)))
        if ref in seen:
            continue
        seen.add(ref)
        out.append(ref)
        if len(out) == k:
            break
    return out


def reciprocal_rank(retrieved: Sequence[SectionRef], gold: Iterable[SectionRef]) -> float:
    """1 / rank of the first gold section (0 when none is retrieved)."""
    gold_set = set(gold)
    for rank, ref in enumerate(retrieved, start=1):
        if ref in gold_set:
            return 1.0 / rank
    return 0.0


def recall(retrieved: Sequence[SectionRef], gold: Iterable[SectionRef]) -> float:
    gold_set = set(gold)
    if not gold_set:
        return 0.0
    return len(gold_set.intersection(retrieved)) / len(gold_set)


def multi_mrr(retrieved: Sequence[SectionRef], gold: Iterable[SectionRef]) -> float:
    """NitiBench Multi-MRR: (Recall / n_hit) * sum_j 1 / (rank(d_j) - j + 1), where j
    counts the gold sections already hit before d_j, so all gold at the top scores 1."""
    gold_set = set(gold)
    if not gold_set:
        return 0.0
    hits = 0
    rank_sum = 0.0
    for rank, ref in enumerate(retrieved, start=1):
        if ref in gold_set:
            rank_sum += 1.0 / (rank - hits)
            hits += 1
    if hits == 0:
        return 0.0
    return (hits / len(gold_set)) / hits * rank_sum


def nitibench_question_scores(
    retrieved: Sequence[SectionRef], gold: Sequence[SectionRef], ks: Sequence[int] = NITIBENCH_KS
) -> dict[int, dict[str, float]]:
    """HR, Multi-HR, Recall, MRR and Multi-MRR at every k for one question.

    `retrieved` must already be distinct sections in rank order."""
    gold_set = set(gold)
    scores: dict[int, dict[str, float]] = {}
    for k in ks:
        top = list(retrieved[:k])
        found = gold_set.intersection(top)
        scores[k] = {
            "hr": 1.0 if found else 0.0,
            "multi_hr": 1.0 if found == gold_set else 0.0,
            "recall": recall(top, gold_set),
            "mrr": reciprocal_rank(top, gold_set),
            "multi_mrr": multi_mrr(top, gold_set),
            "on_law": on_law(top, gold_set),
        }
    return scores


def jsonl_question_scores(
    retrieved: Sequence[SectionRef], question: GoldQuestion
) -> dict[str, float]:
    """all-must, must-recall and MRR of the first must section for one question.

    `retrieved` must already be the first K distinct sections."""
    must = set(question.must)
    return {
        "all_must": 1.0 if must.issubset(retrieved) else 0.0,
        "must_recall": recall(retrieved, must),
        "mrr": reciprocal_rank(retrieved, must),
        "on_law": on_law(retrieved, must),
    }


def on_law(retrieved: Sequence[SectionRef], gold: Iterable[SectionRef]) -> float:
    """1 when the answer holds a section of a law the gold sections are in."""
    laws = {law for law, _ in gold}
    return 1.0 if any(law in laws for law, _ in retrieved) else 0.0


def _mean(values: Sequence[float]) -> float:
    return round(statistics.fmean(values), 4) if values else 0.0


def _mean_scores(rows: Sequence[Mapping[str, float]]) -> dict[str, float]:
    names = rows[0].keys() if rows else ()
    return {name: _mean([row[name] for row in rows]) for name in names}


# ---------------------------------------------------------------------------------------
# The harness


@dataclass
class ModeReport:
    mode: str
    n: int
    summary: dict[str, Any]  # jsonl: overall/by_kind/by_lang; nitibench: {k: {metric: v}}
    latency_ms: dict[str, float] = field(default_factory=dict)
    questions: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self, *, with_questions: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "mode": self.mode,
            "n": self.n,
            **self.summary,
            "latency_ms": self.latency_ms,
        }
        if with_questions:
            out["questions"] = self.questions
        return out


def evaluate(gold: GoldSet, retriever: Retriever, *, k: int = 10, mode: str = "") -> ModeReport:
    """Run every gold question through `retriever` and score the first K distinct sections.

    For NitiBench the cut-offs are 1, 5 and 10 (and `k` when larger), whatever `k` says."""
    ks = sorted({*NITIBENCH_KS, k}) if gold.format == "nitibench" else [k]
    depth = max(ks)
    rows: list[dict[str, Any]] = []
    timings: list[float] = []
    for question in gold.questions:
        started = time.perf_counter()
        raw = retriever(question.question)
        timings.append((time.perf_counter() - started) * 1000.0)
        retrieved = first_distinct(raw, depth)
        rows.append(_question_row(gold.format, question, retrieved, ks, k))
    summary = (
        _nitibench_summary(rows, ks) if gold.format == "nitibench" else _jsonl_summary(rows, gold)
    )
    return ModeReport(
        mode=mode,
        n=len(rows),
        summary=summary,
        latency_ms=_latency_summary(timings),
        questions=rows,
    )


def _question_row(
    fmt: str, question: GoldQuestion, retrieved: list[SectionRef], ks: Sequence[int], k: int
) -> dict[str, Any]:
    row: dict[str, Any] = {
        "id": question.id,
        "part": split_of(question.id),
        "kind": question.kind,
        "lang": question.lang,
        "retrieved": [_ref_text(r) for r in retrieved],
        "missing": [_ref_text(r) for r in question.must if r not in retrieved[:k]],
    }
    if fmt == "nitibench":
        row["scores"] = {
            str(kk): v for kk, v in nitibench_question_scores(retrieved, question.must, ks).items()
        }
    else:
        row["scores"] = jsonl_question_scores(retrieved[:k], question)
    return row


def _ref_text(ref: SectionRef) -> str:
    return node_key(ref[0], "s", ref[1])


def _jsonl_summary(rows: Sequence[Mapping[str, Any]], gold: GoldSet) -> dict[str, Any]:
    by_kind: dict[str, list[Mapping[str, float]]] = defaultdict(list)
    by_lang: dict[str, list[Mapping[str, float]]] = defaultdict(list)
    for row in rows:
        by_kind[row["kind"] or "-"].append(row["scores"])
        by_lang[row["lang"] or "-"].append(row["scores"])
    return {
        "overall": _mean_scores([row["scores"] for row in rows]),
        "by_part": {
            part: {"n": len(scores), **_mean_scores(scores)}
            for part in PARTS
            if (scores := [row["scores"] for row in rows if row["part"] == part])
        },
        "by_kind": {
            kind: {"n": len(scores), **_mean_scores(scores)}
            for kind, scores in sorted(by_kind.items())
        },
        "by_lang": {
            lang: {"n": len(scores), **_mean_scores(scores)}
            for lang, scores in sorted(by_lang.items())
        },
    }


def _nitibench_summary(rows: Sequence[Mapping[str, Any]], ks: Sequence[int]) -> dict[str, Any]:
    return {
        "at": {str(k): _mean_scores([row["scores"][str(k)] for row in rows]) for k in ks},
        "by_part": {
            part: {"n": len(scores), **_mean_scores(scores)}
            for part in PARTS
            if (scores := [row["scores"][str(ks[-1])] for row in rows if row["part"] == part])
        },
    }


def _latency_summary(timings_ms: Sequence[float]) -> dict[str, float]:
    if not timings_ms:
        return {}
    ordered = sorted(timings_ms)
    return {
        "p50": round(percentile(ordered, 50), 2),
        "p95": round(percentile(ordered, 95), 2),
        "mean": round(statistics.fmean(ordered), 2),
    }


def percentile(sorted_values: Sequence[float], pct: float) -> float:
    """Linear-interpolated percentile of already sorted values."""
    if not sorted_values:
        raise ValueError("no values")
    if len(sorted_values) == 1:
        return float(sorted_values[0])
    position = (len(sorted_values) - 1) * pct / 100.0
    low = int(position)
    high = min(low + 1, len(sorted_values) - 1)
    return float(sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (position - low))


def run_modes(
    gold: GoldSet,
    modes: Sequence[str],
    make_retriever: Callable[[str], Retriever],
    *,
    k: int = 10,
) -> list[ModeReport]:
    """Evaluate each mode on the same gold set; `make_retriever(mode)` gives its retriever.

    One untimed warm-up question per mode first, so model loading and cold caches do not
    land in the first question's latency."""
    reports = []
    for mode in modes:
        retriever = make_retriever(mode)
        retriever(gold.questions[0].question)
        log.info("evaluating %s on %d questions", mode, len(gold.questions))
        reports.append(evaluate(gold, retriever, k=k, mode=mode))
    return reports


def search_retriever(
    mode: str,
    *,
    graph: Any,
    vectors: Any,
    embedder: Any,
    settings: Any,
    top_k: int = 10,
    laws: Sequence[str] | None = None,
    keywords: KeywordSource | None = None,
    jurisdictions: Sequence[str] | None = None,
) -> Retriever:
    """The real pipeline as a retriever: `services.core.retrieval.search` in `mode`, its
    context sections as (law, number) in the order returned."""
    from services.core.retrieval import search

    def retrieve(question: str) -> list[SectionRef]:
        result = search(
            question,
            graph=graph,
            vectors=vectors,
            embedder=embedder,
            settings=settings_to_score(settings, question),
            laws=laws,
            top_k=top_k,
            mode=mode,
            keywords=keywords,
            jurisdictions=jurisdictions,
        )
        return [section_ref(item) for item in result.sections]

    return retrieve


def settings_to_score(settings: Any, question: str) -> Any:
    """The settings a benchmark question is searched with: the length cap guards the API
    against abuse, and a question above it is scored whole rather than refused."""
    if len(question) > settings.max_query_chars:
        return settings.model_copy(update={"max_query_chars": len(question)})
    return settings


def section_ref(item: Any) -> SectionRef:
    """(law, number) of a context section; the number is parsed from the key
    ("<law>:s:<number>") when the item does not carry it."""
    number = getattr(item, "number", None)
    if not number:
        number = str(item.key).split(":s:", 1)[-1]
    return (str(item.law), normalise_section_number(str(number)))


def check_gold(gold: GoldSet, graph: Any) -> tuple[GoldSet, list[str]]:
    """`gold` read against the laws loaded in `graph`. A law written by one of its names
    ("GDPR", the Thai title) rather than its id becomes the id, when one loaded law alone
    answers to it. Warnings name the laws no loaded law answers to and the labelled sections
    the loaded laws do not hold: no mode can retrieve those, so their questions score 0."""
    from services.core.retrieval.laws import law_names, read_catalogue

    catalogue = read_catalogue(graph)
    published = [law.law_version for law in catalogue.values()]
    forms = {
        law_id: {law_id.lower(), *(f for n in known.names for f in _name_forms(n))}
        for law_id, known in law_names(graph, list(catalogue.values())).items()
    }
    warnings: list[str] = []
    renamed: dict[str, str] = {}
    for law in gold.laws:
        if law in catalogue:
            continue
        wanted = {law.lower(), *_name_forms(law)}
        found = [law_id for law_id, known in forms.items() if wanted & known]
        if len(found) == 1:
            renamed[law] = found[0]
        else:
            warnings.append(
                f"law {law!r} names several loaded laws ({', '.join(sorted(found))}): use its id"
                if found
                else f"law {law!r} is not loaded"
            )
    if renamed:
        gold = gold.with_laws(renamed)
    refs = {
        _ref_text(ref)
        for q in gold.questions
        for ref in (*q.must, *q.should)
        if ref[0] in catalogue
    }
    held = {
        str(row["key"])
        for row in graph.run_read(
            "retrieval_nodes", keys=sorted(refs), full=[], published=published
        )
    }
    unheld = sorted(refs - held)
    if unheld:
        shown = ", ".join(unheld[:10]) + (
            f" and {len(unheld) - 10} more" if len(unheld) > 10 else ""
        )
        warnings.append(f"{len(unheld)} labelled sections are not in the loaded laws: {shown}")
    return gold, warnings


def _name_forms(name: str) -> set[str]:
    """The forms a law's name is compared in: normalised, with and without its year."""
    return {normalise_law_name(n).lower() for n in (name, without_year(name))}


# ---------------------------------------------------------------------------------------
# Output


def report_dict(
    gold: GoldSet,
    k: int,
    reports: Sequence[ModeReport],
    *,
    with_questions: bool = True,
    warnings: Sequence[str] = (),
) -> dict[str, Any]:
    """The report as data; `warnings` are `check_gold`'s."""
    return {
        "gold": gold.path,
        "format": gold.format,
        "k": k,
        "n": len(gold.questions),
        "warnings": list(warnings),
        "modes": {r.mode: r.to_dict(with_questions=with_questions) for r in reports},
    }


def format_table(gold: GoldSet, k: int, reports: Sequence[ModeReport]) -> str:
    """Modes side by side, one metric a row."""
    if not reports:
        return "no modes run"
    header = ["metric", *(r.mode or "-" for r in reports)]
    rows: list[list[str]] = []
    if gold.format == "nitibench":
        for kk in reports[0].summary["at"]:
            for metric in ("hr", "multi_hr", "recall", "mrr", "multi_mrr", "on_law"):
                rows.append(
                    [f"{metric}@{kk}", *(f"{r.summary['at'][kk][metric]:.3f}" for r in reports)]
                )
        part_metrics: tuple[str, ...] = ("multi_hr", "recall")
        top = list(reports[0].summary["at"])[-1]
    else:
        for metric in ("all_must", "must_recall", "mrr", "on_law"):
            rows.append(
                [f"{metric}@{k}", *(f"{r.summary['overall'][metric]:.3f}" for r in reports)]
            )
        part_metrics, top = ("all_must",), str(k)
    for part, values in reports[0].summary["by_part"].items():
        for metric in part_metrics:
            rows.append(
                [
                    f"{metric}@{top} part={part} (n={values['n']})",
                    *(f"{r.summary['by_part'][part][metric]:.3f}" for r in reports),
                ]
            )
    if gold.format == "jsonl":
        for group in ("by_kind", "by_lang"):
            for name, values in reports[0].summary[group].items():
                label = f"all_must@{k} {group[3:]}={name} (n={values['n']})"
                rows.append(
                    [label, *(f"{r.summary[group][name]['all_must']:.3f}" for r in reports)]
                )
    rows.append(["latency p50 ms", *(f"{r.latency_ms.get('p50', 0.0):.1f}" for r in reports)])
    rows.append(["latency p95 ms", *(f"{r.latency_ms.get('p95', 0.0):.1f}" for r in reports)])
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [f"{gold.path} ({gold.format}, n={len(gold.questions)}, k={k})"]
    for row in [header, *rows]:
        lines.append(
            "  ".join(
                cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i])
                for i, cell in enumerate(row)
            )
        )
    return "\n".join(lines)
