"""Documents a firm might upload, built in the test itself: a DOCX through python-docx and
a PDF with a text layer written by hand (one page, Helvetica, one line per text object),
so the readers are tested on real files of each format without binary fixtures."""

from __future__ import annotations

import io
from collections.abc import Sequence


def docx_bytes(blocks: Sequence[tuple[str | None, str]]) -> bytes:
    """(heading or None, paragraph) blocks as a DOCX: a heading becomes a "Heading 2"."""
    import docx

    document = docx.Document()
    for heading, text in blocks:
        if heading is not None:
            document.add_heading(heading, level=2)
        if text:
            document.add_paragraph(text)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def pdf_bytes(lines: Sequence[str]) -> bytes:
    """A one-page PDF whose text layer holds `lines` (ASCII), an empty line between
    paragraphs giving a blank line in the extracted text."""

    def escape(text: str) -> str:
        return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")

    ops = ["BT", "/F1 11 Tf", "14 TL", "50 780 Td"]
    for line in lines:
        ops.append(f"({escape(line)}) Tj T*" if line else "T*")
    ops.append("ET")
    stream = "\n".join(ops).encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)
