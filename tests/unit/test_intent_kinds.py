"""`bench/intent_kinds.py`'s counts: the intents read by words, by the model and by either,
against the kind each gold question has."""

from __future__ import annotations

from bench.intent_kinds import confusion, render


def test_readings_count_as_true_or_false_positives_per_rule():
    table = confusion(
        [
            ("penalty", "en", "tune", True, True, False),  # a penalty question its words flag
            ("penalty", "en", "tune", True, False, False),  # one nothing flags
            ("penalty", "en", "tune", False, True, True),  # another kind, flagged by both
            ("penalty", "en", "tune", False, False, True),  # another kind, by the model only
            ("penalty", "th", "check", False, False, False),
        ]
    )
    english = table[("penalty", "en", "tune")]
    assert (english["n"], english["kind"]) == (4, 2)
    assert (english["words tp"], english["words fp"]) == (1, 1)
    assert (english["model tp"], english["model fp"]) == (0, 2)
    assert (english["either tp"], english["either fp"]) == (1, 2)
    thai = table[("penalty", "th", "check")]
    assert (thai["n"], thai["kind"], thai["either fp"]) == (1, 0, 0)
    lines = render(table).splitlines()
    assert lines[1].split()[:5] == ["penalty", "en", "tune", "4", "2"]
    assert len(lines) == 3
