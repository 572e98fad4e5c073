"""Errors of the pure ingestion layer (no service imports here)."""

from __future__ import annotations


class InvalidSource(ValueError):
    """A source file cannot become a law: empty, binary, not UTF-8, no sections,
    duplicate section numbers, unknown format. Names the file and the problem."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem
