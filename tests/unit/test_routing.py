"""Law routing, the answer's guarantee per law, and intents read from a question's meaning,
on hand-built evidence."""

from __future__ import annotations

import numpy as np
import pytest

from services.core.retrieval.intents import IntentModel, fit
from services.core.retrieval.models import Candidate
from services.core.retrieval.routing import (
    ROUTER_FILE,
    LawRouter,
    choose,
    law_features,
    law_router,
)
from services.core.retrieval.select import guarantee


def test_routing_features_are_each_law_s_share_of_the_evidence_and_what_the_question_names():
    evidence = {
        "mass": {"pdpa": 2.0, "gdpr": 1.0, "hidden": 5.0},
        "named": ["ccc"],
        "placed": ["pdpa", "ccc"],  # the question names their jurisdiction ("a Thai shop")
        "visible": ["pdpa", "gdpr", "ccc"],
    }
    features = law_features(evidence)
    assert features == {
        # the invisible law's mass still sets the scale
        "pdpa": {"mass": 0.4, "named": 0.0, "place": 1.0},
        "gdpr": {"mass": 0.2, "named": 0.0, "place": 0.0},
        "ccc": {"mass": 0.0, "named": 1.0, "place": 1.0},
    }


def test_a_named_jurisdiction_lifts_its_law_over_one_with_as_much_evidence():
    router = law_router(ROUTER_FILE)
    p = router.probabilities(
        {
            "th": {"mass": 0.9, "named": 0.0, "place": 1.0},
            "sg": {"mass": 1.0, "named": 0.0, "place": 0.0},
        }
    )
    assert p["th"] > p["sg"]


def test_the_router_gives_probabilities_and_a_named_law_wins():
    router = LawRouter({"mass": 2.0, "named": 3.0})
    p = router.probabilities({"a": {"mass": 1.0, "named": 0.0}, "b": {"mass": 0.5, "named": 1.0}})
    assert sum(p.values()) == pytest.approx(1.0) and p["b"] > p["a"]
    with pytest.raises(ValueError, match="unknown features"):
        LawRouter({"size": 1.0})


def test_the_chosen_laws_hold_the_probability_asked_for_and_no_more_than_the_cap():
    p = {"a": 0.5, "b": 0.3, "c": 0.15, "d": 0.05}
    assert choose(p, 0.9, 3) == ["a", "b", "c"]
    assert choose(p, 0.5, 3) == ["a"]
    assert choose(p, 0.99, 2) == ["a", "b"]


def _sections(*keys: str) -> list[Candidate]:
    return [Candidate(k, "section") for k in keys]


def test_a_rival_law_keeps_its_best_sections_in_the_answer():
    top = _sections("a:s:1", "a:s:2", "a:s:3", "a:s:4")
    spare = _sections("a:s:5", "b:s:1", "b:s:2", "b:s:3")
    kept = guarantee(top, spare, ["a", "b"], 2)
    assert [c.key for c in kept] == ["a:s:1", "a:s:2", "b:s:1", "b:s:2"]
    # a law that holds no more than its own guarantee gives nothing up
    assert [c.key for c in guarantee(top[:2], spare, ["a", "b"], 2)] == ["a:s:1", "a:s:2"]


def test_an_intent_model_learns_from_the_direction_of_the_embedding():
    rng = np.random.default_rng(0)
    penal = rng.normal(0, 0.1, (40, 8)) + np.eye(8)[0]
    plain = rng.normal(0, 0.1, (40, 8)) + np.eye(8)[1]
    x = np.vstack([penal, plain])
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    y = np.array([[1.0, 0.0]] * 40 + [[0.0, 1.0]] * 40)
    model = IntentModel(("penalty", "direct"), fit(x, y).weights)
    assert model.probabilities(np.eye(8)[0])["penalty"] > 0.8
    assert model.probabilities(np.eye(8)[1])["penalty"] < 0.2


def test_intents_are_read_from_the_question_alone_not_from_the_terms_added_for_search(
    monkeypatch,
):
    from services.core.analysis import QuestionAnalysis
    from services.core.ports import Embedding, SparseVector
    from services.core.retrieval import intents
    from services.core.retrieval.context import Query, SearchContext
    from services.core.retrieval.stages import Embed
    from services.core.settings import Settings

    class TwoWayEmbedder:  # the question alone points one way, with the added terms another
        name = "two-way"
        english = None
        calls = 0

        def embed_queries(self, texts):
            self.calls += 1
            return [
                Embedding((1.0, 0.0) if text == "q" else (0.0, 1.0), SparseVector((), ()))
                for text in texts
            ]

    # penalty read along the first axis only
    model = IntentModel(("penalty",), np.array([[4.0], [-4.0], [0.0]]))
    monkeypatch.setattr(intents, "intent_model", lambda embedder: model)
    embedder = TwoWayEmbedder()
    ctx = SearchContext(Query("q"), None, None, embedder, Settings())  # type: ignore[arg-type]
    ctx.analysis = QuestionAnalysis(
        "q", "q", (), (), (), False, False, False, language="en", bridge_terms=("โทษ",)
    )
    Embed(graph=True).run(ctx)
    assert ctx.embedded.dense == (0.0, 1.0)  # the search text, with the bridge term
    assert embedder.calls == 1  # the question alone in the same call
    intents.ReadIntents().run(ctx)
    assert ctx.intent_probabilities["penalty"] > 0.9
    assert ctx.read_intents == ("penalty",)


def test_a_long_questions_intents_are_read_from_its_asking_part(monkeypatch):
    from services.core.analysis import QuestionAnalysis
    from services.core.ports import Embedding, SparseVector
    from services.core.retrieval import intents
    from services.core.retrieval.context import Query, SearchContext
    from services.core.retrieval.stages import Embed
    from services.core.settings import Settings

    story = "the facts of a data leak, at length. " * 20
    asking = "Does the law even apply to a household camera?"

    class AskingEmbedder:  # the asking part points one way, anything else another
        name = "asking"
        english = None

        def embed_queries(self, texts):
            return [
                Embedding((1.0, 0.0) if text == asking else (0.0, 1.0), SparseVector((), ()))
                for text in texts
            ]

    # scope read along the first axis only, penalty along the second
    model = IntentModel(("scope", "penalty"), np.array([[4.0, -4.0], [-4.0, 4.0], [0.0, 0.0]]))
    monkeypatch.setattr(intents, "intent_model", lambda embedder: model)
    question = story + asking
    ctx = SearchContext(Query(question), None, None, AskingEmbedder(), Settings())  # type: ignore[arg-type]
    ctx.analysis = QuestionAnalysis(
        question, question, (), (), (), False, False, False, language="en", asking=asking
    )
    Embed(graph=True).run(ctx)
    intents.ReadIntents().run(ctx)
    assert ctx.intent_probabilities["scope"] > 0.9
    assert ctx.intent_probabilities["penalty"] < 0.1


def test_the_offline_embedder_s_intent_model_reads_penalty_questions_without_penalty_words():
    from services.core.embedding import OfflineEmbedder
    from services.core.retrieval.intents import intent_model

    model = intent_model(OfflineEmbedder())
    assert model is not None
    asked = model.probabilities(
        OfflineEmbedder()
        .embed_query("How much trouble are we in if our customer list leaks?")
        .dense
    )
    plain = model.probabilities(
        OfflineEmbedder().embed_query("Which office keeps the register of companies?").dense
    )
    assert asked["penalty"] > 0.5 > plain["penalty"]
