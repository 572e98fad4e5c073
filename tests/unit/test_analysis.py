"""Question analysis: citations, tokens, keywords, intents, optional LLM keywords."""

from __future__ import annotations

import httpx
import pytest

from services.core.analysis import (
    Rewrite,
    analyse_question,
    asking_part,
    normalise_section_number,
    qualifying_places,
    without_intent_words,
)
from services.core.bootstrap import build_keyword_source
from services.core.llm import LLMKeywords, parse_rewrite
from services.core.settings import Settings


@pytest.mark.parametrize(
    ("text", "number", "paragraph"),
    [
        ("มาตรา 26", "26", None),
        ("ม. ๒๖", "26", None),
        ("ม.26", "26", None),
        ("Section 26", "26", None),
        ("s.26", "26", None),
        ("Art. 9(2)", "9", "2"),
        ("Article 83(5)", "83", "5"),
        ("มาตรา ๒๖/๑", "26/1", None),
        ("มาตรา ๑๙ ทวิ วรรคสอง", "19 ทวิ", "2"),
        ("第17条", "17", None),
        ("第二十七条", "27", None),
    ],
)
def test_explicit_citations_are_read_in_every_form(text, number, paragraph):
    cited = analyse_question(f"อะไรคือ {text} ครับ").citations
    assert [c.number for c in cited] == [number]
    assert cited[0].paragraph == paragraph


def test_citations_keep_order_and_drop_duplicates():
    cited = analyse_question("มาตรา ๘๔ และ ม.26 กับ Section 84").citations
    assert [c.number for c in cited] == ["84", "26"]


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("มาตรา ๒๖ และ ๒๗", ["26", "27"]),
        ("มาตรา 24 ถึงมาตรา 26", ["24", "25", "26"]),
        ("ม.37 หรือ 38", ["37", "38"]),
        ("Articles 15 to 17", ["15", "16", "17"]),
        ("Arts. 5 and 6", ["5", "6"]),
        ("第27条及び第28条", ["27", "28"]),
    ],
)
def test_lists_and_ranges_in_a_question_mean_what_they_mean_in_a_statute(text, numbers):
    assert [c.number for c in analyse_question(f"{text} ว่าอย่างไร").citations] == numbers


def test_a_cited_clause_and_the_law_named_after_it_are_kept():
    (cited,) = analyse_question("เงินได้ตามมาตรา 40 (2) แห่งประมวลรัษฎากร เสียภาษีอย่างไร").citations
    assert (cited.number, cited.clause, cited.law) == ("40", "2", "ประมวลรัษฎากร")
    (cited,) = analyse_question("what does Article 9(2)(a) allow?").citations
    assert (cited.number, cited.paragraph, cited.clause) == ("9", "2", "a")


def test_citations_are_not_keywords():
    keywords = analyse_question("ม.26 และ 27 ห้ามเก็บข้อมูลสุขภาพ").keywords
    assert "26" not in keywords and "27" not in keywords and "ข้อมูล" in keywords


def test_thai_question_is_tokenised_with_thai_digits_normalised():
    analysis = analyse_question("ข้อมูลสุขภาพ ตามมาตรา ๒๖")
    assert "สุขภาพ" in analysis.tokens
    assert "26" in analysis.normalised


def test_keywords_drop_stopwords_and_section_numbers_deterministically():
    question = "บริษัทเก็บข้อมูลสุขภาพของพนักงานได้ไหม ตามมาตรา ๒๖"
    first = analyse_question(question).keywords
    assert first == analyse_question(question).keywords
    assert {"บริษัท", "สุขภาพ", "พนักงาน"} <= set(first)
    assert not {"ของ", "ได้ไหม", "ไหม", "26", "มาตรา"} & set(first)
    english = analyse_question("Can a company collect employees' health data?").keywords
    assert "health" in english and "can" not in english and "a" not in english


@pytest.mark.parametrize(
    ("question", "intents"),
    [
        ("ถ้าทำผิดมีโทษอะไร", ("penalty",)),
        ("ฝ่าฝืนมาตรา 26 จำคุกกี่ปี", ("penalty",)),
        ("what is the penalty if it gets it wrong?", ("penalty",)),
        ("Is there a fine or sanction?", ("penalty",)),
        ("We ignored the order. What can happen?", ("penalty",)),
        ("We never asked them. What is our exposure here?", ("penalty",)),
        ("เก็บได้เว้นแต่กรณีใด", ("exception",)),
        ("Can we collect it unless consent is given? Any exemption?", ("exception",)),
        ("ข้อมูลส่วนบุคคล หมายความว่าอะไร", ("definition",)),
        ("What is personal data?", ("definition",)),
        ("definition of data controller", ("definition",)),
        # whether a defined term takes in a case; not Thai "ถือเป็น", a tax ruling's "counts as income"
        ("Does a licence plate count as personal data?", ("definition",)),
        ("Who counts as a data controller?", ("definition",)),
        ("รางวัลนี้ถือเป็นเงินได้หรือไม่", ()),
        ("ปรับปรุงข้อมูลให้ถูกต้อง", ()),  # "ปรับ" inside "ปรับปรุง" (improve) is no fine
        # "ผิด" inside "รับผิดชอบ" (responsible), "ผิดพลาด" (error), "ผิดนัด" (late payment)
        ("หน่วยงานที่รับผิดชอบต้องเสียภาษีหรือไม่", ()),
        ("กรอกแบบผิดพลาดต้องแก้อย่างไร", ()),
        ("ดอกเบี้ยผิดนัดถือเป็นเงินได้หรือไม่", ()),
        ("กรอกผิดพลาด บริษัทจะมีความผิดหรือไม่", ("penalty",)),
        ("บริษัทผิดไหม", ("penalty",)),
        ("ร้านทำแบบนี้จะโดนอะไรบ้าง", ("penalty",)),  # as "what can happen" in English
        # "wrong" data is inaccurate data; "criminal" records are a kind of data
        ("My bank has my address wrong. Must it fix it?", ()),
        ("May a landlord ask tenants for their criminal records?", ()),
        ("Is selling criminal records a crime?", ("penalty",)),
    ],
)
def test_intent_flags(question, intents):
    assert analyse_question(question).intents == intents


@pytest.mark.parametrize(
    ("question", "conduct"),
    [
        ("คลินิกขายข้อมูลคนไข้ ต้องรับโทษอะไร", "คลินิกขายข้อมูลคนไข้ ต้องรับ อะไร"),
        # the words a penalty word sits inside stay whole; "ปรับ" alone may be "ปรับปรุง"
        ("ใครรับผิดชอบ ถ้าทำผิดจะถูกปรับไหม", "ใครรับผิดชอบ ถ้าทำ จะ ไหม"),
        ("ปรับปรุงระบบไม่ทัน", "ปรับปรุงระบบไม่ทัน"),
        (
            "We sold the list. What FINES, or what happens if they sue?",
            "We sold the list. What , or they sue?",
        ),
        ("Refined data", "Refined data"),  # whole words only
    ],
)
def test_a_penalty_questions_conduct_is_the_question_without_its_penalty_words(question, conduct):
    assert without_intent_words(question, "penalty") == conduct
    assert without_intent_words(question, "no such intent") == question


def test_control_characters_and_whitespace_are_cleaned():
    analysis = analyse_question("ข้อมูล\x00สุขภาพ\t\n  มาตรา\x07 26")
    assert "\x00" not in analysis.question and "  " not in analysis.question
    assert [c.number for c in analysis.citations] == ["26"]


@pytest.mark.parametrize(("raw", "number"), [("26", "26"), ("๒๖", "26"), ("26/1", "26/1"),
                                             ("๑๙ทวิ", "19 ทวิ"), ("มาตรา ๒๖", "26")])  # fmt: skip
def test_section_numbers_normalise_like_section_keys(raw, number):
    assert normalise_section_number(raw) == number


def _client(handler):
    return httpx.Client(transport=httpx.MockTransport(handler))


def test_llm_keyword_step_is_off_by_default():
    assert analyse_question("ข้อมูลสุขภาพ").llm_keywords == ()
    assert build_keyword_source(Settings()) is None


def test_llm_keywords_are_parsed_from_a_chat_completion():
    seen = {}

    def handler(request: httpx.Request) -> httpx.Response:
        seen["url"] = str(request.url)
        content = '{"keywords": ["ข้อมูลอ่อนไหว", "ความยินยอมโดยชัดแจ้ง"]}'
        return httpx.Response(200, json={"choices": [{"message": {"content": content}}]})

    settings = Settings(llm_keywords_url="http://llm.test/v1")
    keywords = LLMKeywords(settings, client=_client(handler))
    assert keywords("ข้อมูลสุขภาพ").keywords == ("ข้อมูลอ่อนไหว", "ความยินยอมโดยชัดแจ้ง")
    assert seen["url"] == "http://llm.test/v1/chat/completions"
    analysis = analyse_question("ข้อมูลสุขภาพ", keywords=keywords)
    assert analysis.llm_keywords == ("ข้อมูลอ่อนไหว", "ความยินยอมโดยชัดแจ้ง")


def test_the_llm_s_intents_join_those_the_words_say_and_unknown_ones_are_dropped():
    content = '{"keywords": ["ค่าปรับทางปกครอง"], "intents": ["Penalty", "weather", "scope"]}'
    assert parse_rewrite(content) == Rewrite(("ค่าปรับทางปกครอง",), ("penalty",))
    question = "บริษัทเก็บข้อมูลสุขภาพลูกค้าไว้โดยไม่ถาม จะเป็นอะไรไหม"
    assert "penalty" not in analyse_question(question).intents
    rewritten = analyse_question(question, keywords=lambda q: parse_rewrite(content))
    assert "penalty" in rewritten.intents and rewritten.llm_keywords == ("ค่าปรับทางปกครอง",)
    # a plain list of keywords (a caller's own source) still works
    assert analyse_question(question, keywords=lambda q: ["ข้อมูลอ่อนไหว"]).llm_keywords == (
        "ข้อมูลอ่อนไหว",
    )


@pytest.mark.parametrize("status", [500, 401])
def test_llm_failures_fall_back_silently(status, caplog):
    settings = Settings(llm_keywords_url="http://llm.test/v1/chat/completions")
    keywords = LLMKeywords(settings, client=_client(lambda r: httpx.Response(status)))
    assert keywords("x") == Rewrite()
    assert "LLM keyword step failed" in caplog.text


def test_llm_unreachable_leaves_the_deterministic_analysis():
    settings = Settings(llm_keywords_url="http://127.0.0.1:9/v1", store_timeout_s=0.5)
    keywords = build_keyword_source(settings)
    assert keywords is not None
    analysis = analyse_question("ข้อมูลสุขภาพ", keywords=keywords)
    assert analysis.llm_keywords == () and "สุขภาพ" in analysis.keywords


def test_a_glossary_applies_only_when_a_law_in_its_language_is_searched():
    question = "Do journalists need consent to publish personal data in news?"
    assert analyse_question(question, statute_languages={"en"}).bridge_terms == ()
    assert analyse_question(question, statute_languages={"en", "th"}).bridge_terms


def test_english_words_bring_the_thai_terms_of_the_glossary_as_bridge_terms():
    analysis = analyse_question("Do journalists need consent to publish personal data in news?")
    assert analysis.bridge_terms == ("สื่อมวลชน", "ความยินยอม", "เปิดเผย", "ข้อมูลส่วนบุคคล")
    # they are in another language: not the question's own glossary terms
    assert analysis.glossary_terms == ()
    # whole words only: "define" holds "fine", "officers" is "officer" and not "office"
    assert analyse_question("How do they define the officers?").bridge_terms == ("เจ้าหน้าที่",)
    # plurals of the keys count
    assert "ประวัติอาชญากรรม" in analyse_question("Can we ask for criminal records?").bridge_terms


def test_a_thai_question_quoting_english_words_gets_no_english_glossary_terms():
    analysis = analyse_question("บริษัทไม่ได้จัดทำบันทึก (ROPA) มีโทษปรับเท่าไร")
    assert analysis.glossary_terms == () and analysis.bridge_terms == ()


def test_everyday_thai_words_bring_the_statutory_terms_the_question_lacks():
    analysis = analyse_question("ร้านเอาเบอร์โทรของฉันไปขายโดยไม่ได้ถาม ข้อมูลส่วนบุคคลก็ด้วย")
    # เบอร์โทร -> ข้อมูลส่วนบุคคล is left out: the question already says it
    assert analysis.glossary_terms == ("เปิดเผย", "ความยินยอม") and analysis.bridge_terms == ()


FACTS_TH = "ผมเปิดร้านเช่ารถอยู่ที่ภูเก็ต ลูกค้าส่วนใหญ่เป็นนักท่องเที่ยว ถ่ายสำเนาพาสปอร์ตเก็บไว้ทุกครั้ง " * 6
FACTS_EN = "We run a small clinic in Chiang Mai. Patients fill in paper forms at the desk. " * 6


def test_a_long_question_asks_from_its_last_asking_phrase_or_in_its_question_sentences():
    asked = "อยากทราบว่าส่งข้อมูลลูกค้าให้ตำรวจได้ไหม"
    assert asking_part(f"{FACTS_TH} ตำรวจถามว่ารถอยู่ไหน {asked}") == asked  # the last phrase
    question = f"{FACTS_EN}Is it wrong? The forms are kept for ten years. Must we delete them?"
    assert asking_part(question) == "Is it wrong? Must we delete them?"
    assert analyse_question(question).asking == "Is it wrong? Must we delete them?"


def test_a_short_question_or_one_that_asks_nothing_has_no_asking_part():
    assert asking_part("อยากทราบว่าเก็บข้อมูลสุขภาพได้ไหม") is None  # all of it is the ask
    assert asking_part(FACTS_TH) is None
    assert asking_part(FACTS_EN) is None


@pytest.mark.parametrize(
    ("question", "places"),
    [
        ("Under the Thai PDPA, what is biometric data?", ("TH",)),
        ("A Bangkok clinic was fined 500,000 baht", ("TH",)),
        ("ร้านค้าในประเทศไทยเก็บข้อมูลลูกค้า", ("TH",)),
        ("We ship to EU customers and invoice in euros", ("EU",)),
        ("A Singapore shop charged S$5,000", ("SG",)),
        ("日本の事業者が個人情報を", ("JP",)),
        ("A Singaporean firm selling to Thai customers", ("TH", "SG")),
        ("Our hotel in Chiang Mai scans passports", ("TH",)),  # a province (ISO 3166-2)
        ("a factory in Chonburi", ("TH",)),  # "Chon Buri" run together
        ("A start-up with offices in Germany and Osaka", ("EU", "JP")),  # a member state
        ("A neutral third party", ()),  # "eu" only as a word
        ("My nan asked the clinic", ()),  # a province shorter than four letters
        ("บทบาทของเจ้าหน้าที่", ()),
    ],
)
def test_the_jurisdictions_a_question_names_are_read_from_its_place_people_and_money(
    question, places
):
    assert analyse_question(question).places == places


@pytest.mark.parametrize(
    ("question", "places"),
    [
        ("does the thai pdpa apply to a singapore company?", ("TH",)),
        ("under singapore's pdpa, may we", ("SG",)),
        ("the pdpa of thailand says", ("TH",)),
        ("is the pdpa (singapore) stricter", ("SG",)),
        ("a singapore company asks whether the pdpa applies", ()),  # named elsewhere
    ],
)
def test_a_place_qualifies_a_law_s_name_only_right_before_or_after_it(question, places):
    start = question.index("pdpa")
    assert qualifying_places(question, start, start + len("pdpa")) == places


def test_a_long_questions_intent_words_are_read_from_its_asking_part():
    facts = FACTS_TH + "ลูกค้าขู่ว่าจะแจ้งความ ให้ร้านติดคุกและถูกปรับ "  # penalty words in the facts
    asked = analyse_question(facts + "อยากทราบว่าต้องลบสำเนาพาสปอร์ตเมื่อไร")
    assert asked.asking and not asked.penalty
    assert analyse_question(facts + "อยากทราบว่าร้านจะมีโทษอะไร").penalty
    assert analyse_question("ลูกค้าขู่ว่าร้านจะถูกปรับ ต้องลบสำเนาพาสปอร์ตเมื่อไร").penalty  # short: all of it
