"""What the corpus holds: law names -> law ids, and (law id, section number) -> section key.

Citations name other laws the way Thai drafting does: the full title with its year
("พระราชบัญญัติบริษัทมหาชนจำกัด พ.ศ. ๒๕๓๕"), the title without the year, a code's short
name ("ประมวลกฎหมายแพ่งและพาณิชย์", "ประมวลรัษฎากร"), or "กฎหมายว่าด้วย…" plus the
subject. Names are compared after removing whitespace (PDF text breaks lines inside
names) and turning Thai digits into Arabic ones.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from ingest.ids import normalise_section_number, normalise_title, title_aliases
from ingest.models import Law

_YEAR_RE = re.compile(r"\s*(?:พ\.\s*ศ\.|ค\.\s*ศ\.)\s*[0-9๐-๙]{4}\s*$")
_SPACE_RE = re.compile(r"\s+")


def normalise_law_name(name: str) -> str:
    """The form law names are compared in: `ingest.ids.normalise_title` without whitespace."""
    return _SPACE_RE.sub("", normalise_title(name)).strip("“”\"'")


def without_year(name: str) -> str:
    """A Thai title without its closing year ("… พ.ศ. 2562" -> "…")."""
    return _YEAR_RE.sub("", name)


def law_name_aliases(law: Law) -> list[str]:
    """Every name by which another law may cite `law` (raw, not normalised): its title,
    the reader's aliases, its short name, and `ingest.ids.title_aliases` (title without the
    year, "กฎหมายว่าด้วย…")."""
    names = [law.title, *law.aliases, *title_aliases(law.title)]
    if law.short_name:
        names.append(law.short_name)
    for name in list(names):
        bare = without_year(name)
        if bare != name:
            names.append(bare)
    return [n for n in dict.fromkeys(names) if len(n.strip()) > 3]


@dataclass
class CorpusIndex:
    """Law names and section keys of every law in one ingestion run."""

    law_ids_by_name: dict[str, str] = field(default_factory=dict)  # normalised name -> id
    titles: dict[str, str] = field(default_factory=dict)  # law id -> title
    section_keys: dict[str, dict[str, str]] = field(default_factory=dict)  # id -> number -> key
    section_order: dict[str, list[str]] = field(default_factory=dict)  # id -> numbers in order
    division_keys: dict[str, set[str]] = field(default_factory=dict)  # id -> chapter/part keys
    _names_by_prefix: dict[str, list[str]] = field(default_factory=dict, repr=False)
    _names_by_suffix: dict[str, list[str]] = field(default_factory=dict, repr=False)

    @classmethod
    def from_laws(cls, laws: Iterable[Law]) -> CorpusIndex:
        index = cls()
        for law in laws:
            index.add_law(law)
        return index

    def add_law(self, law: Law) -> None:
        self.titles[law.id] = law.title
        numbers = self.section_keys.setdefault(law.id, {})
        order = self.section_order.setdefault(law.id, [])
        self.division_keys[law.id] = {division.key for division in law.divisions}
        for section in sorted(law.sections, key=lambda s: s.order):
            if section.number not in numbers:
                numbers[section.number] = section.key
                order.append(section.number)
        for alias in law_name_aliases(law):
            name = normalise_law_name(alias)
            # A full title wins over someone else's short alias; first law wins ties.
            if name and name not in self.law_ids_by_name:
                self.law_ids_by_name[name] = law.id
                self._names_by_prefix.setdefault(name[:4], []).append(name)
                self._names_by_suffix.setdefault(name[-3:], []).append(name)
        for table in (self._names_by_prefix, self._names_by_suffix):
            for names in table.values():
                names.sort(key=len, reverse=True)

    def __contains__(self, law_id: object) -> bool:
        return law_id in self.titles

    def resolve_law(self, name: str) -> str | None:
        """The id of the law a citation names, or None when it is not in the corpus."""
        return self.law_ids_by_name.get(normalise_law_name(name))

    def match_law_name(self, normalised_text: str) -> str | None:
        """The longest known (normalised) law name `normalised_text` starts with."""
        for name in self._names_by_prefix.get(normalised_text[:4], ()):
            if normalised_text.startswith(name):
                return name
        return None

    def match_law_name_suffix(self, normalised_text: str) -> str | None:
        """The longest known (normalised) law name `normalised_text` ends with."""
        for name in self._names_by_suffix.get(normalised_text[-3:], ()):
            if normalised_text.endswith(name):
                return name
        return None

    def section_key(self, law_id: str, number: str) -> str | None:
        """The key of section `number` of law `law_id`, or None when it has no such section."""
        return self.section_keys.get(law_id, {}).get(normalise_section_number(number))

    def numbers_between(self, law_id: str, first: str, last: str) -> list[str] | None:
        """Section numbers from `first` to `last` inclusive, in the law's order (so a range
        "มาตรา 14 ถึงมาตรา 15" includes 14/1 and 14/2), or None when either end is missing."""
        order = self.section_order.get(law_id, [])
        try:
            start = order.index(normalise_section_number(first))
            end = order.index(normalise_section_number(last))
        except ValueError:
            return None
        return order[start : end + 1] if start <= end else None
