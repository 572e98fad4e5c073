"""What a question asks for, read from its meaning: a small classifier on the question's
dense embedding, one logistic model per intent, fitted on the labelled intent set
(`data/intents/questions.jsonl`: Thai and English questions on many laws, none from an
evaluation set) the first time an embedder is used, and kept for the process.

Its probabilities switch the intents the rankers act on (`IntentTuning.threshold`); the
word lists of `data/lexicon/intents.json` still switch them on too, so a question that
says "fine" is a penalty question whatever the model thinks. The model needs no download
and no weights file: it is refitted from the labelled set for whichever dense model the
embedder has (USE, e5 or BGE-M3), in ~1 s for the offline default.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from services.core.analysis import QuestionAnalysis
from services.core.ports import Embedder
from services.core.retrieval.context import SearchContext
from services.core.retrieval.stage import Stage
from services.core.settings import REPO_ROOT

log = logging.getLogger(__name__)

INTENT_SET = REPO_ROOT / "data" / "intents" / "questions.jsonl"
# The intents the rankers act on, and the ones the model also reads (reported only).
RANKED = ("penalty", "exception", "definition")
LABELS = ("penalty", "exception", "definition", "procedure", "scope", "direct")


@dataclass(frozen=True)
class IntentModel:
    labels: tuple[str, ...]
    weights: np.ndarray  # (features + 1, labels): the last row is the bias

    def probabilities(self, dense: Sequence[float]) -> dict[str, float]:
        x = np.append(_unit(np.asarray(dense, dtype=float)), 1.0)
        z = x @ self.weights
        return {label: float(p) for label, p in zip(self.labels, 1 / (1 + np.exp(-z)), strict=True)}


class ReadIntents(Stage):
    """The question's intent probabilities; the intents above the threshold join those
    its words say (`ctx.intents`)."""

    name = "intents"
    metric = "analysis"
    optional = True

    def run(self, ctx: SearchContext) -> None:
        model = intent_model(ctx.embedder)
        if model is None:
            return
        ctx.intent_probabilities = model.probabilities(intents_dense(ctx))
        read = read_by_model(ctx.intent_probabilities, ctx.tuning.intents.threshold)
        ctx.read_intents = tuple(i for i in RANKED if i in read or i in ctx.analysed.intents)


def intent_text(analysis: QuestionAnalysis) -> str:
    """What the intent model reads: a long question's asking part, where it says what it
    asks ("อยากทราบว่า…ต้องรับโทษอะไร"), else the question as written. Never the terms
    analysis adds for search (a glossary's statutory words, the Thai terms bridged from an
    English question's words, the LLM step's keywords): the model was fitted on questions
    as written, and those terms move its reading (docs/quality.md, "intents read from the
    question alone"). Nor a long question's facts: the story of a leak reads as a penalty
    question whatever it asks (docs/quality.md, "intents read from the asking part")."""
    return analysis.asking or analysis.question


def intents_dense(ctx: SearchContext) -> Sequence[float]:
    """The dense embedding of `intent_text`, which the `embed` stage embeds in the same call
    as the search text."""
    if ctx.intents_embedding is None:
        raise RuntimeError("the embed stage has not run in graph mode")
    return ctx.intents_embedding.dense


def read_by_model(probabilities: Mapping[str, float], threshold: float) -> frozenset[str]:
    """The intents the rankers act on that the model gives at least `threshold`."""
    return frozenset(i for i in RANKED if probabilities.get(i, 0.0) >= threshold)


_MODELS: dict[str, IntentModel | None] = {}
_LOCK = threading.Lock()


def intent_model(embedder: Embedder) -> IntentModel | None:
    """The model for this embedder's dense vectors, fitted once per process (None when the
    embedder has no dense vectors)."""
    name = getattr(embedder, "name", type(embedder).__name__)
    with _LOCK:
        if name not in _MODELS:
            _MODELS[name] = _fit_for(embedder)
        return _MODELS[name]


def _fit_for(embedder: Embedder) -> IntentModel | None:
    records = load_intent_set(INTENT_SET)
    texts = [r["text"] for r in records]
    # embedded as queries, as the questions it reads are (e5 reads "query: " and "passage: "
    # texts apart)
    dense = [e.dense for e in embedder.embed_queries(texts)] if texts else []
    if not dense or not dense[0]:
        return None
    x = np.array([_unit(np.asarray(v, dtype=float)) for v in dense])
    y = np.array([[float(label in r["intents"]) for label in LABELS] for r in records])
    log.info("intent model fitted on %d questions for %s", len(records), embedder.name)
    return fit(x, y)


def fit(x: np.ndarray, y: np.ndarray, *, l2: float = 1e-3, steps: int = 500) -> IntentModel:
    """One L2-regularised logistic regression per label (full-batch gradient descent on
    unit-length vectors; deterministic)."""
    xb = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros((xb.shape[1], y.shape[1]))
    rate = 2.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(xb @ w)))
        w -= rate * (xb.T @ (p - y) / len(xb) + l2 * w)
    return IntentModel(LABELS, w)


def load_intent_set(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _unit(v: np.ndarray) -> np.ndarray:
    norm = np.linalg.norm(v)
    return v / norm if norm else v
