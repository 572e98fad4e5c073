"""An EU act's recitals: read from the EUR-Lex file, linked by wording to the articles they
explain (ingest/explanations.py), profiled whole, and a hit on one counts for its articles
(services/core/retrieval/vectors.py `hit_keys`)."""

from __future__ import annotations

import pytest

from ingest.build import build_graph
from ingest.errors import InvalidSource
from ingest.explanations import explained_sections
from ingest.graph import NodeLabel, RelType
from ingest.models import Recital
from ingest.readers.eurlex import read_eurlex
from ingest.serial import law_from_text, law_to_text
from services.core.ports import VectorHit
from services.core.profiles import profile_documents
from services.core.retrieval.vectors import hit_keys, hit_kinds

ARTICLES = [
    {"number": "1", "title": "Subject-matter", "text": "This Regulation lays down rules on "
     "the protection of natural persons with regard to the processing of personal data."},
    {"number": "2", "title": "Conditions applicable to child's consent", "text": "Where the "
     "child is below the age of 16 years, processing shall be lawful only if consent is "
     "given or authorised by the holder of parental responsibility over the child."},
    {"number": "3", "title": "Notification of a personal data breach", "text": "In the case "
     "of a personal data breach, the controller shall notify the supervisory authority "
     "without undue delay and within 72 hours after having become aware of it."},
]  # fmt: skip
RECITALS = [
    {"recital_number": 1, "text": "Children merit specific protection with regard to their "
     "personal data; the consent of the holder of parental responsibility should not be "
     "necessary for preventive services offered directly to a child."},
    {"recital_number": 2, "text": "As soon as the controller becomes aware that a personal "
     "data breach has occurred, it should notify the breach to the supervisory authority."},
]  # fmt: skip


def act(recitals=RECITALS):
    return read_eurlex("act.json", {"full_name": "A Test Regulation", "articles": ARTICLES,
                                    "recitals": recitals})  # fmt: skip


def test_the_reader_keeps_each_recital_once_in_order() -> None:
    law = act([*RECITALS, dict(RECITALS[1])])  # the second printed twice, as the GDPR seed does
    assert [r.number for r in law.recitals] == ["1", "2"]
    assert law.recitals[0].text.startswith("Children merit specific protection")
    assert law.warnings == ["recital 2 appears twice with the same text: kept once"]
    assert law_from_text(law_to_text(law)) == law


def test_one_number_with_two_texts_is_refused() -> None:
    with pytest.raises(InvalidSource, match="recital 2 appears twice with different texts"):
        act([*RECITALS, {"recital_number": 2, "text": "Something else entirely."}])
    with pytest.raises(InvalidSource, match="recital 1 has no number or no text"):
        act([{"recital_number": 3, "text": "Fine."}, {"recital_number": "", "text": "x"}][::-1])


def test_a_recital_explains_the_articles_it_shares_most_words_with() -> None:
    law = act()
    links = explained_sections(law.recitals, law.sections)
    assert [key for key, _ in links["1"]][0] == law.sections[1].key  # the child's consent
    assert [key for key, _ in links["2"]][0] == law.sections[2].key  # the breach notification
    assert all(len(found) <= 2 for found in links.values())
    # A recital that shares no word with any article explains none.
    assert explained_sections([Recital("9", "Zebras")], law.sections) == {"9": []}


def test_the_graph_has_recital_nodes_and_ranked_explains_edges() -> None:
    law = act()
    graph = build_graph(law)
    recitals = [n for n in graph.nodes if n.label is NodeLabel.RECITAL]
    assert [(n.key, n.props["label"]) for n in recitals] == [
        (f"{law.id}:rc:1", "Recital 1"), (f"{law.id}:rc:2", "Recital 2"),
    ]  # fmt: skip
    explains = [e for e in graph.edges if e.type is RelType.EXPLAINS]
    first = {e.source: e.target for e in explains if e.props["rank"] == 1}
    assert first == {f"{law.id}:rc:1": f"{law.id}:s:2", f"{law.id}:rc:2": f"{law.id}:s:3"}


def test_a_recital_is_profiled_whole_and_its_hit_stands_for_its_articles() -> None:
    law = act()
    docs = {d.key: d for d in profile_documents(law, build_graph(law), "v1")}
    recital = docs[f"{law.id}:rc:1"]
    assert RECITALS[0]["text"] in recital.text  # not clipped to a short description
    assert recital.payload["kind"] == "recital"
    explained = recital.payload["explains"]
    assert explained[0] == f"{law.id}:s:2"
    # No EXPLAINS edge profile, and the articles' own profiles do not name recitals.
    assert not any("EXPLAINS" in key for key in docs)
    assert "Recital" not in docs[f"{law.id}:s:2"].text
    hit = VectorHit(recital.key, 0.9, recital.payload)
    assert hit_keys(hit) == explained
    assert hit_kinds({"profiles": [hit]}) == {key: "section" for key in explained}
