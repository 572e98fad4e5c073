"""Write the place names of ISO 3166 into `data/routing/jurisdictions.json` ("iso_places"):
for each jurisdiction, the names of its first-level subdivisions (ISO 3166-2: Thailand's
provinces, Japan's prefectures) and, for the EU, its member states (ISO 3166-1). A client
writes "our hotel in Chiang Mai" or "a customer in Germany" more often than "Thailand" or
"the EU"; routing reads these names as the jurisdiction named (`analysis.named_places`).

    pip install pycountry && python tools/iso_places.py

Names shorter than four letters are left out: as whole words they are English words or
abbreviations too ("Nan", "Tak", "Mie"). A name of several words is kept as written and run
together too ("Chon Buri", "Chonburi"). Singapore's ISO 3166-2 subdivisions are five
districts named by the compass ("North East"): left out.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
JURISDICTIONS = REPO / "data" / "routing" / "jurisdictions.json"
SUBDIVIDED = ("TH", "JP")
# The EU's member states (ISO 3166-1 alpha-2), 2020 onwards.
EU_MEMBERS = (
    "AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE".split()
)
SHORTEST = 4


def main() -> int:
    try:
        import pycountry  # type: ignore[import-not-found]
    except ImportError:
        print("tools/iso_places.py needs pycountry: pip install pycountry", file=sys.stderr)
        return 2
    places = {
        code: [s.name for s in pycountry.subdivisions.get(country_code=code)] for code in SUBDIVIDED
    }
    places["EU"] = [pycountry.countries.get(alpha_2=code).name for code in EU_MEMBERS]
    data = json.loads(JURISDICTIONS.read_text(encoding="utf-8"))
    data["iso_places"] = {code: _forms(names) for code, names in places.items()}
    data["iso_places_source"] = f"tools/iso_places.py, pycountry {pycountry.__version__}"
    JURISDICTIONS.write_text(_dump(data), "utf-8")
    print({code: len(names) for code, names in data["iso_places"].items()})
    return 0


def _dump(data: dict[str, Any]) -> str:
    """The file as it is kept: one line per jurisdiction's list of words."""
    top = []
    for key, value in data.items():
        if isinstance(value, dict):
            rows = ",\n".join(
                f"    {json.dumps(code)}: {json.dumps(words, ensure_ascii=False)}"
                for code, words in value.items()
            )
            top.append(f"  {json.dumps(key)}: {{\n{rows}\n  }}")
        else:
            top.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(top) + "\n}\n"


def _forms(names: list[str]) -> list[str]:
    """Each name lower-cased, and run together when it has several words."""
    forms: set[str] = set()
    for name in names:
        lowered = name.lower()
        if len(lowered.replace(" ", "")) < SHORTEST:
            continue
        forms.add(lowered)
        forms.add(lowered.replace(" ", ""))
    return sorted(forms)


if __name__ == "__main__":
    raise SystemExit(main())
