"""Thai number words, digits and durations as penalty clauses write them."""

from __future__ import annotations

import pytest

from ingest.thai_numbers import (
    max_fine,
    max_prison_months,
    parse_duration_months,
    parse_thai_number,
)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("ห้าล้าน", 5_000_000),
        ("หนึ่งล้าน", 1_000_000),
        ("สามล้าน", 3_000_000),
        ("หนึ่งแสน", 100_000),
        ("ห้าแสน", 500_000),
        ("สามหมื่น", 30_000),
        ("ห้าพัน", 5_000),
        ("ยี่สิบ", 20),
        ("สิบเอ็ด", 11),
        ("สิบ", 10),
        ("หนึ่งร้อยยี่สิบห้า", 125),
        ("หนึ่งล้านห้าแสน", 1_500_000),
        ("สองร้อยล้าน", 200_000_000),
        ("๕,๐๐๐,๐๐๐", 5_000_000),
        ("5,000,000", 5_000_000),
        ("๕๐๐", 500),
        ("5 ล้าน", 5_000_000),
        ("20\u00a0000\u00a0000", 20_000_000),
    ],
)
def test_thai_number_words_and_digits_parse_to_int(text: str, value: int) -> None:
    assert parse_thai_number(text) == value


def test_text_that_is_not_a_number_gives_none() -> None:
    assert parse_thai_number("บาท") is None
    assert parse_thai_number("") is None


@pytest.mark.parametrize(
    ("text", "months"),
    [
        ("หนึ่งปี", 12),
        ("หกเดือน", 6),
        ("สามปี", 36),
        ("หนึ่งปีหกเดือน", 18),
        ("๒ ปี", 24),
        ("two years", 24),
        ("สิบห้าวัน", 1),
    ],
)
def test_durations_convert_to_months(text: str, months: int) -> None:
    assert parse_duration_months(text) == months


def test_penalty_clause_gives_max_fine_and_prison_term() -> None:
    clause = "ต้องระวางโทษจำคุกไม่เกินหนึ่งปี หรือปรับไม่เกินหนึ่งล้านบาท หรือทั้งจำทั้งปรับ"
    assert max_fine(clause) == (1_000_000, "THB")
    assert max_prison_months(clause) == 12


def test_administrative_fine_and_fine_ranges() -> None:
    assert max_fine("ต้องระวางโทษปรับทางปกครองไม่เกินห้าล้านบาท") == (5_000_000, "THB")
    ranged = "ต้องระวางโทษจำคุกตั้งแต่หนึ่งปีถึงสิบปี และปรับตั้งแต่สองหมื่นบาทถึงสองแสนบาท"
    assert max_fine(ranged) == (200_000, "THB")
    assert max_prison_months(ranged) == 120


def test_eur_fines_with_non_breaking_spaces() -> None:
    text = "administrative fines up to 20\u00a0000\u00a0000 EUR, or in the case of an undertaking"
    assert max_fine(text) == (20_000_000, "EUR")
