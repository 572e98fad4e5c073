"""Every benchmark script imports: a renamed argument in the code a script builds on at
import time (train_router's stage list) otherwise shows only when someone next runs it."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.mark.parametrize(
    "script", sorted(p.stem for p in BENCH.glob("*.py") if p.stem != "__init__")
)
def test_a_bench_script_imports(script):
    module = importlib.import_module(f"bench.{script}")
    assert callable(getattr(module, "main", None)) or script.startswith("_")
