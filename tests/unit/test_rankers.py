"""Each ranking step on a hand-built candidate list: what it changes, and only that.

The context is built by hand (seeds, paths, candidates), so each test states the evidence
a step sees and the scores or order it must leave."""

from __future__ import annotations

import pytest

from services.core.ports import VectorHit
from services.core.retrieval.context import Query, SearchContext
from services.core.retrieval.models import Candidate, Law, Seed, Step, WalkPath
from services.core.retrieval.rankers.cited_first import CitedFirst
from services.core.retrieval.rankers.companions import (
    CompanionlessSeed,
    CompanionLift,
    Companions,
    Completion,
)
from services.core.retrieval.rankers.english_rerank import EnglishRerank
from services.core.retrieval.rankers.multi_seed import MultiSeed
from services.core.retrieval.rankers.part_definitions import PART_DEFINITIONS, PartDefinitions
from services.core.retrieval.rankers.scope_sections import (
    SCOPE_OPENING,
    SCOPE_SECTIONS,
    ScopeSections,
)
from services.core.retrieval.rankers.walk_paths import WalkPaths, cap_fanout, path_weight
from services.core.retrieval.seeding import SeedEvidence, SeedWalk
from services.core.retrieval.select import Rank
from services.core.retrieval.stages import LawFocus
from services.core.retrieval.walk import roles
from services.core.settings import Settings, WalkTuning
from tests.unit.retrieval_fakes import FakeGraphStore

L = "th-pdpa-2562"


def key(n: str) -> str:
    return f"{L}:s:{n}"


def step(hop: int, rel: str, direction: str, n: str) -> Step:
    return Step(hop, rel, direction, key(n), key(n))  # type: ignore[arg-type]


def origin(n: str) -> Step:
    return Step(0, "", "out", key(n), key(n))


def context(question: str = "x", *, intents: tuple[str, ...] = (), **fields) -> SearchContext:
    ctx = SearchContext(Query(question), FakeGraphStore(), None, None, Settings())  # type: ignore[arg-type]
    penalty, exception, definition = (i in intents for i in ("penalty", "exception", "definition"))
    from services.core.analysis import QuestionAnalysis

    ctx.analysis = QuestionAnalysis(question, question, (), (), (), penalty, exception, definition)
    for name, value in fields.items():
        setattr(ctx, name, value)
    return ctx


# s.84 penalises s.26; s.27 cites s.26; s.26 is the seed.
PENALTY_PATHS = [
    WalkPath((origin("26"), step(1, "PENALIZES", "in", "84")), "section"),
    WalkPath((origin("26"), step(1, "REFERENCES", "in", "27")), "section"),
]


def test_walk_paths_scores_a_neighbour_by_its_path_and_lifts_the_part_asked_for():
    seeds = [Seed(key("26"), L, "vector", 1.0)]
    plain = context(seeds=seeds, paths=PENALTY_PATHS, roles=roles(p.steps for p in PENALTY_PATHS))
    WalkPaths().run(plain)
    asked = context(
        intents=("penalty",),
        seeds=seeds,
        paths=PENALTY_PATHS,
        roles=roles(p.steps for p in PENALTY_PATHS),
    )
    WalkPaths().run(asked)
    assert plain.candidates[key("84")].walk < asked.candidates[key("84")].walk
    assert asked.candidates[key("84")].walk > asked.candidates[key("27")].walk
    assert asked.candidates[key("84")].steps[-1].type == "PENALIZES"
    assert asked.candidates[key("84")].walk <= WalkTuning().max_weight_hop1


def test_a_path_weight_stays_under_its_hops_ceiling_and_a_second_hop_under_a_first():
    tuning = WalkTuning()
    one = path_weight(PENALTY_PATHS[0].steps, ("penalty",), "section", set(), tuning)
    two = path_weight(
        (origin("26"), step(1, "REFERENCES", "in", "27"), step(2, "PENALIZES", "in", "83")),
        ("penalty",), "section", set(), tuning,
    )  # fmt: skip
    assert 0 < two < one <= tuning.max_weight_hop1 and two <= tuning.max_weight_hop2


def test_an_anchor_walks_no_score_and_the_fanout_cap_keeps_the_best_children():
    ctx = context(seeds=[Seed(key("26"), L, "vector", 0.5, hops=1)], paths=PENALTY_PATHS)
    WalkPaths().run(ctx)
    assert ctx.candidates == {}
    walked = [(key("26"), key("26"), (origin("26"), step(1, "REFERENCES", "in", n)), s, "section")
              for n, s in (("1", 0.1), ("2", 0.3), ("3", 0.2))]  # fmt: skip
    assert [e[2][-1].key for e in cap_fanout(walked, 2)] == [key("2"), key("3")]


def test_multi_seed_adds_a_share_of_the_paths_from_other_seeds():
    candidate = Candidate(key("84"), "section", best_per_seed={"a": 0.6, "b": 0.4, "c": 0.2})
    ctx = context(candidates={candidate.key: candidate})
    MultiSeed().run(ctx)
    assert candidate.bonus == pytest.approx(0.25 * (0.4 + 0.2))
    lone = Candidate(key("1"), "section", best_per_seed={"a": 0.6})
    MultiSeed().run(context(candidates={lone.key: lone}))
    assert lone.bonus == 0.0


def test_companions_are_read_off_the_paths_and_lift_the_section_they_complete():
    seeds = [Seed(key("26"), L, "vector", 1.0)]
    candidates = {k: Candidate(k, "section", vector=0.5) for k in (key("26"), key("27"))}
    ctx = context(
        intents=("penalty",),
        seeds=seeds,
        paths=PENALTY_PATHS,
        roles=roles(p.steps for p in PENALTY_PATHS),
        candidates=candidates,
    )
    Companions().run(ctx)
    assert [c for c, _, _ in ctx.companions[key("26")]] == [key("84")]
    assert key("84") in ctx.candidates  # reached only as a companion, now a candidate
    CompanionLift().run(ctx)
    lift = ctx.tuning.companions.lift
    assert lift > 1
    assert candidates[key("26")].evidence == pytest.approx(0.5 * lift)
    assert candidates[key("27")].evidence == 0.5  # nothing punishes it on these paths


def test_a_penalty_for_the_duty_as_applied_to_someone_else_is_a_weaker_companion():
    # s.39 is punished by s.82 (the controller's fine) and by s.88, a representative's
    # fine for s.39 as another section applies it
    paths = [
        WalkPath((origin("39"), step(1, "PENALIZES", "in", n)), "section") for n in ("82", "88")
    ]
    ctx = context(intents=("penalty",), seeds=[Seed(key("39"), L, "vector", 1.0)], paths=paths,
                  roles=roles(p.steps for p in paths), candidates={})  # fmt: skip
    Companions().run(ctx)
    assert [(c, strength) for c, strength, _ in ctx.companions[key("39")]] == [
        (key("82"), 0),
        (key("88"), 0),
    ]
    ctx.applied_penalties = {(key("88"), key("39"))}
    Companions().run(ctx)
    assert [(c, strength) for c, strength, _ in ctx.companions[key("39")]] == [
        (key("82"), 0),
        (key("88"), 1),
    ]


def test_a_seed_without_a_companion_for_the_intent_is_lowered():
    seeds = [Seed(key("27"), L, "vector", 1.0)]
    candidate = Candidate(key("27"), "section", vector=0.6)
    ctx = context(intents=("penalty",), seeds=seeds, candidates={candidate.key: candidate})
    CompanionlessSeed().run(ctx)
    assert candidate.evidence == pytest.approx(0.6 / ctx.tuning.companions.lift)
    untouched = Candidate(key("27"), "section", vector=0.6)
    CompanionlessSeed().run(context(seeds=seeds, candidates={untouched.key: untouched}))
    assert untouched.evidence == 0.6  # no intent, nothing to lack


def test_cited_first_pins_only_certain_citations_and_rank_puts_them_first():
    certain = Seed(key("26"), L, "citation", 1.0, certain=True)
    guess = Seed(key("5"), L, "citation", 1.0, certain=False)
    candidates = {
        key("26"): Candidate(key("26"), "section", vector=0.1),
        key("5"): Candidate(key("5"), "section", vector=0.2),
        key("9"): Candidate(key("9"), "section", vector=0.9),
    }
    ctx = context(seeds=[certain, guess], candidates=candidates)
    CitedFirst().run(ctx)
    Rank().run(ctx)
    assert [c.key for c in ctx.ranked] == [key("26"), key("9"), key("5")]


def test_completion_places_a_companion_right_after_the_section_it_completes():
    duty = Candidate(key("26"), "section", vector=0.9)
    other = Candidate(key("30"), "section", vector=0.8)
    penalty = Candidate(key("84"), "section", walk=0.1)
    links = {key("26"): [(key("84"), 0, PENALTY_PATHS[0].steps)]}
    ctx = context(
        candidates={c.key: c for c in (duty, other, penalty)},
        ranked=[duty, other, penalty],
        companions=links,
    )
    Completion().run(ctx)
    assert [c.key for c in ctx.ranked] == [key("26"), key("84"), key("30")]
    assert penalty.follows == pytest.approx(0.9 * 0.6) and penalty.score == penalty.follows


def test_english_rerank_reorders_each_english_law_among_its_own_places():
    gdpr = "eu-gdpr"
    articles = {n: Candidate(f"{gdpr}:s:{n}", "section", vector=v) for n, v in
                (("21", 0.9), ("83", 0.85), ("7", 0.7))}  # fmt: skip
    thai = Candidate(key("19"), "section", vector=0.8)
    ranked = [articles["21"], thai, articles["83"], articles["7"]]
    english = [VectorHit(f"{gdpr}:s:7#p1", 0.8, {"kind": "paragraph", "section": f"{gdpr}:s:7"})]

    def reranked(**fields) -> list[str]:
        ctx = context(ranked=list(ranked), **fields)
        EnglishRerank().run(ctx)
        return [c.key.rsplit(":", 1)[-1] for c in ctx.ranked]

    # Art. 7, first in the English list, gains 0.7: above Art. 21 (0.9) in the GDPR's
    # places; the Thai section keeps its place, and no section comes or goes.
    assert reranked(deep_hits={"english": english}) == ["7", "19", "21", "83"]
    assert "english_rerank: relevance 1.00" in articles["7"].trace
    assert reranked(deep_hits={}) == ["21", "19", "83", "7"]  # no English list searched
    weak = Settings(retrieval={"english_rerank": {"weight": 0.1}})
    assert reranked(deep_hits={"english": english}, settings=weak) == ["21", "19", "83", "7"]


def test_completion_takes_the_strongest_companion_of_each_pattern():
    duty = Candidate(key("29"), "section", vector=0.9)
    other = Candidate(key("30"), "section", vector=0.5)
    penalties = [Candidate(key(n), "section", walk=0.1 * i) for i, n in enumerate(("83", "84"))]
    citing_penalty = Candidate(key("79"), "section", walk=0.05)
    links = {key("29"): [(key("83"), 0, PENALTY_PATHS[0].steps), (key("84"), 0, PENALTY_PATHS[0].steps),
                         (key("79"), 1, PENALTY_PATHS[1].steps)]}  # fmt: skip
    ctx = context(
        candidates={c.key: c for c in (duty, other, *penalties, citing_penalty)},
        ranked=[duty, other, *penalties, citing_penalty],
        companions=links,
    )
    Completion().run(ctx)
    # s.84, the stronger of the two punishing s.29, and s.79 follow it; s.83 keeps its place
    assert [c.key for c in ctx.ranked] == [key(n) for n in ("29", "84", "79", "30", "83")]


def test_a_penalty_questions_conduct_seeds_only_in_the_laws_routing_chose():
    other = "eu-gdpr:s:33"
    both = [VectorHit(other, 1.0, {}), VectorHit(key("27"), 0.9, {})]
    for routed, seeded in [([L], {key("27")}), ([], {other, key("27")})]:
        seeds: dict[str, Seed] = {}
        SeedWalk.add_list_seeds(context(hits={}, seed_hits={"conduct": both}, routed=routed), seeds)
        assert set(seeds) == seeded
    seeds = {}  # another list's first sections seed in every law
    SeedWalk.add_list_seeds(context(hits={}, seed_hits={"lexical": both}, routed=[L]), seeds)
    assert set(seeds) == {other, key("27")}


def test_seed_evidence_puts_an_anchor_from_below_the_lists_under_the_weakest_hit():
    hits = {key("1"): Candidate(key("1"), "section", vector=1.0),
            key("2"): Candidate(key("2"), "section", vector=0.4)}  # fmt: skip
    ctx = context(
        candidates=hits,
        vector_scores={key("1"): 1.0, key("2"): 0.4},
        seeds=[Seed(key("1"), L, "vector", 1.0), Seed(key("77"), L, "vector", 0.9, hops=1)],
    )
    SeedEvidence().run(ctx)
    assert ctx.candidates[key("77")].evidence == pytest.approx(0.99 * 0.4)
    assert ctx.candidates[key("1")].seed_source == "vector"


def test_law_focus_weighs_a_hit_by_its_laws_share_of_the_evidence():
    other = "eu-gdpr:s:9"
    candidates = {key("26"): Candidate(key("26"), "section", vector=1.0),
                  other: Candidate(other, "section", vector=1.0)}  # fmt: skip
    ctx = context(candidates=candidates, deep_scores={key("26"): 1.0, key("27"): 1.0, other: 1.0})
    LawFocus().run(ctx)
    assert candidates[key("26")].law_focus == 1.0
    assert candidates[other].law_focus == pytest.approx(0.25 + 0.75 * 0.5)


def test_part_definitions_end_the_answer_with_the_part_s_defining_section():
    PART_DEFINITIONS.clear()
    graph = FakeGraphStore()
    law = "rc"
    graph.add_law(law, "v1")
    graph.add("Section", "rc:s:77/1", "v1", number="77/1", text="ในหมวดนี้ “ขาย” หมายความว่า …")
    graph.add("Definition", "rc:d:ขาย", "v1", term="ขาย")
    graph.link("DEFINES", "rc:s:77/1", "rc:d:ขาย")
    users = [Candidate(f"rc:s:{n}", "section", vector=1.0 - n / 100) for n in (78, 79, 80)]
    for user in users[:2]:
        graph.add("Section", user.key, "v1", number=user.key.rsplit(":", 1)[-1], text="ขาย")
        graph.link("USES_TERM", user.key, "rc:d:ขาย")
    ctx = context(ranked=list(users), in_force={law: Law(law, "v1", None)})
    ctx.graph = graph
    ctx.query = Query("x", top_k=3)
    PartDefinitions().run(ctx)
    assert [c.key for c in ctx.ranked] == ["rc:s:78", "rc:s:79", "rc:s:77/1", "rc:s:80"]
    assert ctx.ranked[2].steps[-1].type == "DEFINES"
    PART_DEFINITIONS.clear()


def scope_context(scope: float, ranked: list[str], **fields) -> SearchContext:
    """A law whose s.2 says when it comes into force, s.4 and s.5 what it does and does not
    apply to, and s.30 (past the first sections) applies a rule to someone."""
    SCOPE_SECTIONS.clear()
    graph = FakeGraphStore()
    graph.add_law(L, "v1")
    texts = {
        "2": (2, "พระราชบัญญัตินี้ให้ใช้บังคับตั้งแต่วันถัดจากวันประกาศในราชกิจจานุเบกษา"),
        "4": (4, "พระราชบัญญัตินี้ไม่ใช้บังคับแก่ (๑) การเก็บรวบรวมข้อมูลส่วนบุคคลเพื่อประโยชน์ส่วนตน"),
        "5": (5, "พระราชบัญญัตินี้ให้ใช้บังคับแก่การเก็บรวบรวม ใช้ หรือเปิดเผยข้อมูลส่วนบุคคล"),
        "30": (30, "พระราชบัญญัตินี้ให้ใช้บังคับแก่ผู้ประมวลผลข้อมูลส่วนบุคคลด้วย"),
    }
    for number, (order, text) in texts.items():
        graph.add("Section", key(number), "v1", number=number, order=order, text=text)
    candidates = [Candidate(key(n), "section", vector=1.0 - i / 10) for i, n in enumerate(ranked)]
    ctx = context(ranked=candidates, in_force={L: Law(L, "v1", None)}, **fields)
    ctx.graph = graph
    ctx.query = Query("x", top_k=3)
    ctx.intent_probabilities = {"scope": scope}
    return ctx


def test_a_scope_question_ends_the_answer_with_its_law_s_scope_section():
    ctx = scope_context(0.7, ["26", "27", "28", "29"])
    ScopeSections().run(ctx)
    assert [c.key for c in ctx.ranked] == [key("26"), key("27"), key("4"), key("28"), key("29")]
    # of the two, the one the vector search scored; a law's later sections are never read
    ctx = scope_context(0.7, ["26", "27", "28"], deep_scores={key("5"): 0.2, key("30"): 0.9})
    ScopeSections().run(ctx)
    assert [c.key for c in ctx.ranked][:3] == [key("26"), key("27"), key("5")]
    SCOPE_SECTIONS.clear()


@pytest.mark.parametrize(
    ("scope", "ranked"),
    [(0.3, ["26", "27", "28"]), (0.7, ["26", "5", "28"])],
    ids=["not a scope question", "a scope section is in the answer already"],
)
def test_scope_sections_leave_the_answer_as_it_is(scope, ranked):
    ctx = scope_context(scope, ranked)
    ScopeSections().run(ctx)
    assert [c.key for c in ctx.ranked] == [key(n) for n in ranked]
    SCOPE_SECTIONS.clear()


@pytest.mark.parametrize(
    ("head", "scope"),
    [
        ("พระราชบัญญัตินี้ไม่ใช้บังคับแก่ (๑) การเก็บรวบรวม", True),
        ("1.   This Regulation applies to the processing of personal data", True),
        ("—(1) Parts 3, 4, 5, 6, 6A and 6B do not impose any obligation on —", True),
        ("This Act shall not apply to any public agency", True),
        ("พระราชบัญญัตินี้ให้ใช้บังคับตั้งแต่วันถัดจากวันประกาศ", False),  # in force from
        ("1.   This Regulation lays down rules relating to the protection", False),
        ("ให้นำความในมาตรา ๒๓ มาใช้บังคับแก่การเก็บรวบรวม", False),  # applies another section
    ],
)
def test_a_scope_section_is_read_from_how_it_opens(head, scope):
    assert bool(SCOPE_OPENING.match(head)) is scope
