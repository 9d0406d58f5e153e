"""examples/analysis.ipynb: stored with its outputs (boards, a score histogram, a
win-rate table), written by examples/make_notebook.py, and runs from top to bottom."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any, Dict, List

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NOTEBOOK = EXAMPLES / "analysis.ipynb"

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_notebook", EXAMPLES / "make_notebook.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _outputs(nb: Any) -> List[Dict[str, Any]]:
    return [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]


def _check_outputs(nb: Any) -> None:
    outputs = _outputs(nb)
    assert not [o for o in outputs if o.get("output_type") == "error"]
    data = [o.get("data", {}) for o in outputs]
    assert sum("image/svg+xml" in d for d in data) >= 2, "a board in the middle and at the end"
    assert any("image/png" in d for d in data), "the score histogram"
    tables = [d["text/markdown"] for d in data if "text/markdown" in d]
    assert any("| seat 0 | seat 1 | seat 0 wins |" in t for t in tables), "the win-rate table"
    text = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    assert "greedy wins" in text and "final scores" in text


def test_stored_notebook_shows_its_outputs() -> None:
    nb = nbformat.read(str(NOTEBOOK), as_version=4)
    nbformat.validate(nb)
    assert all(c.get("outputs") for c in nb.cells if c.cell_type == "code"), "run `make notebook`"
    _check_outputs(nb)


def test_stored_notebook_is_the_generated_one() -> None:
    stored = nbformat.read(str(NOTEBOOK), as_version=4)
    built = _generator().build()
    assert [c.source for c in stored.cells] == [c.source for c in built.cells], "run `make notebook`"


def test_notebook_executes() -> None:
    nb = _generator().run(nbformat.read(str(NOTEBOOK), as_version=4))
    _check_outputs(nb)
