"""examples/analysis.ipynb: stored with its outputs (boards, a score histogram, a
win-rate table, the tables and plots of the dataset section), written by
examples/make_notebook.py, and runs from top to bottom (the dataset section over a few
dozen games instead of 10,000: CARC_NOTEBOOK_GAMES)."""

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
    assert sum("image/png" in d for d in data) >= 2, "the score histogram, the score curves"
    tables = [d["text/markdown"] for d in data if "text/markdown" in d]
    assert any("| seat 0 | seat 1 | seat 0 wins |" in t for t in tables), "the win-rate table"
    assert any(t.startswith("| scored by | base |") for t in tables), "points by kind and setup"
    assert any(t.startswith("| player | games | win rate | seat 0 |") for t in tables), "win rate by player"
    text = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    assert "greedy wins" in text and "final scores" in text
    assert "lopsided game" in text and "mean turns" in text


def test_stored_notebook_shows_its_outputs() -> None:
    nb = nbformat.read(str(NOTEBOOK), as_version=4)
    nbformat.validate(nb)
    assert all(c.get("outputs") for c in nb.cells if c.cell_type == "code"), "run `make notebook`"
    _check_outputs(nb)


def test_stored_notebook_is_the_generated_one() -> None:
    stored = nbformat.read(str(NOTEBOOK), as_version=4)
    built = _generator().build()
    assert [c.source for c in stored.cells] == [c.source for c in built.cells], "run `make notebook`"


def test_notebook_executes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("polars")
    # The kernel inherits the environment: 24 games into a fresh dataset.
    monkeypatch.setenv("CARC_NOTEBOOK_GAMES", "24")
    monkeypatch.setenv("CARC_NOTEBOOK_DATASET", str(tmp_path / "dataset"))
    nb = _generator().run(nbformat.read(str(NOTEBOOK), as_version=4), timeout=600)
    _check_outputs(nb)
