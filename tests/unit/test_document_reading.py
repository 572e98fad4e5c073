"""A firm's documents in every format become passages labelled by their headings, and
their citations of statutes resolve to section keys by the law named with them, after
them, before them, or the only law the document names."""

from __future__ import annotations

import pytest

from ingest.documents import named_laws, read_citations, read_document
from ingest.errors import InvalidSource
from tests.document_files import docx_bytes, pdf_bytes

NAMES = {
    "th-pdpa-2562": ["พระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล พ.ศ. ๒๕๖๒", "PDPA"],
    "eu-gdpr": ["General Data Protection Regulation", "GDPR"],
}
MARKDOWN = """# Health-data policy

Who this covers.

## 4.2 Health data

We never collect health data without explicit consent (s.26 PDPA; Article 9 GDPR).
"""


def _labels(parsed):
    return [p.label for p in parsed.passages]


def test_every_format_gives_passages_by_heading():
    md = read_document(MARKDOWN.encode(), "policy.md")
    assert md.format == "markdown" and _labels(md) == ["Health-data policy", "4.2"]
    assert "explicit consent" in md.passages[1].text
    txt = read_document(b"Intro.\n\n4.2 Health data\nNo health data.\n\n5 Fines\nNone.", "p.txt")
    assert _labels(txt) == ["preamble", "4.2", "5"]
    docx = read_document(docx_bytes([("4.2 Health data", "Consent first."), ("5. Fines", "x")]),
                         "p.docx")  # fmt: skip
    assert docx.format == "docx" and _labels(docx) == ["4.2", "5"]
    pdf = read_document(pdf_bytes(["1. Scope", "Staff.", "2.1 Health data", "Consent."]), "p.pdf")
    assert pdf.format == "pdf" and _labels(pdf) == ["1", "2.1"]
    assert pdf.passages[1].text == "2.1 Health data\nConsent."


def test_sentences_about_statutes_or_counts_are_no_headings():
    text = b"Intro\nArticle 28 under section 28 PDPA.\n26 employees were affected.\n3.1 Scope\nx"
    parsed = read_document(text, "memo.txt")
    assert _labels(parsed) == ["preamble", "3.1"]
    assert "26 employees were affected." in parsed.passages[0].text


def test_a_long_section_is_cut_at_paragraph_ends():
    text = "## 3 Retention\n\n" + "\n\n".join(f"Paragraph {i} " + "word " * 60 for i in range(6))
    parsed = read_document(text.encode(), "r.md", max_chars=700)
    assert all(len(p.text) <= 700 + 20 for p in parsed.passages)
    assert _labels(parsed)[:2] == ["3", "3 (2)"] and len(parsed.passages) >= 3


@pytest.mark.parametrize(
    ("data", "name", "problem"),
    [
        (b"", "a.md", "empty"),
        (b"x", "a.exe", "not one of"),
        (b"\xff\xfe\x00bad", "a.txt", "not UTF-8"),
        (b"not a zip", "a.docx", "not a readable DOCX"),
        (b"%PDF-1.4 nonsense", "a.pdf", "PDF"),
        (pdf_bytes([]), "scan.pdf", "no text layer"),
        (b"   \n\n  ", "a.txt", "no text"),
    ],
)
def test_bad_files_are_refused_naming_what_is_wrong(data, name, problem):
    with pytest.raises(InvalidSource, match=problem):
        read_document(data, name)


def test_citations_take_the_law_named_with_after_or_before_them():
    found = read_citations(MARKDOWN, NAMES)
    assert [(c.text, c.key) for c in found] == [
        ("section 26", "th-pdpa-2562:s:26"),
        ("Article 9", "eu-gdpr:s:9"),
    ]
    thai = read_citations("ตามมาตรา ๒๖ แห่งพระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล และมาตรา ๘๔", NAMES)
    assert [c.key for c in thai] == ["th-pdpa-2562:s:26", "th-pdpa-2562:s:84"]
    punctuated = read_citations("(มาตรา ๒๖ แห่งพระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล; s.84 PDPA)", NAMES)
    assert [c.key for c in punctuated] == ["th-pdpa-2562:s:26", "th-pdpa-2562:s:84"]
    english = read_citations("sections 26 and 84 of the Personal Data Protection Act", NAMES)
    assert [c.key for c in english] == [None, None]  # not a name the laws go by
    before = read_citations("Under the GDPR, Article 9 governs this.", NAMES)
    assert [c.key for c in before] == ["eu-gdpr:s:9"]


def test_a_citation_naming_no_law_takes_the_documents_only_law_or_none():
    assert [c.key for c in read_citations("See section 84.", NAMES)] == [None]
    assert [
        c.key for c in read_citations("See section 84.", NAMES, default_law="th-pdpa-2562")
    ] == ["th-pdpa-2562:s:84"]
    assert named_laws(MARKDOWN, NAMES) == ["th-pdpa-2562", "eu-gdpr"]
