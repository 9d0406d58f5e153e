"""Reference records (tests/data, played by other engines) replayed through Python."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

import pytest

import carcassonne
from carcassonne import actions as A
from conftest import DATA, records

BASE_C2 = list(records("base-c2.jsonl"))


def _action(a: Dict[str, Any]) -> A.Action:
    t = a["type"]
    if t == "place_tile":
        return A.PlaceTile(a["x"], a["y"], a["rot"])
    if t == "deploy":
        return A.Deploy(a["figure"], a["x"], a["y"], a["feature"])
    if t == "pass":
        return A.Pass()
    raise AssertionError(f"unexpected action {t} in a base-game record")


def _setup_kwargs(setup: Dict[str, Any]) -> Dict[str, Any]:
    keys = ("players", "edition", "sets", "rules", "figures", "start")
    return {k: setup[k] for k in keys if k in setup}


@pytest.mark.parametrize("record", BASE_C2, ids=[r["id"] for r in BASE_C2])
def test_base_record_replays_action_by_action(record: Dict[str, Any]) -> None:
    """Each turn's draw and actions, given as Python action objects (features by their
    catalogue ids), give the record's scores after every turn (B1-B16)."""
    game = carcassonne.Game(chance="explicit", **_setup_kwargs(record["setup"]))
    for number, turn in enumerate(record["turns"]):
        assert game.phase == "draw", f"turn {number}"
        outcomes = dict(game.chance_outcomes())
        assert turn["draw"] in outcomes
        assert abs(sum(outcomes.values()) - 1.0) < 1e-9
        game.apply(A.Draw(turn["draw"]))
        for a in turn["actions"]:
            if a["type"] == "pass" and game.phase != "deploy":
                # A deployment with nothing to deploy is skipped by the engine.
                continue
            assert game.to_play == turn["player"]
            game.apply(_action(a))
        if not turn.get("discarded") and not game.is_terminal:
            # (After the last turn the engine has also done the final scoring.)
            assert game.scores == turn["scores"], f"turn {number}"
    assert game.is_terminal
    assert game.scores == record["final_scores"]


@pytest.mark.parametrize("record", BASE_C2, ids=[r["id"] for r in BASE_C2])
def test_from_record_reproduces_final_scores(record: Dict[str, Any]) -> None:
    import json

    game = carcassonne.Game.from_record(json.dumps(record))
    assert game.is_terminal
    assert game.scores == record["final_scores"]


def _known_divergences() -> List[str]:
    """Ids that ``tests/data/known-divergences.md`` lists, with their argued rule."""
    text = (DATA / "known-divergences.md").read_text(encoding="utf-8")
    return [
        line.split("id: ")[1].split(" ")[0]
        for line in text.splitlines()
        if line.startswith("- id: ")
    ]


def test_expansion_records_load_with_their_final_scores() -> None:
    import json

    divergent = set(_known_divergences())
    assert divergent
    checked = refused = 0
    for name in ("pd.jsonl", "am.jsonl", "river1-river2.jsonl", "base-c2-abbot.jsonl", "all.jsonl"):
        for record in records(name):
            if record["id"] in divergent:
                # Argued divergences (PD1, PD15) are refused with the place they diverge.
                with pytest.raises(carcassonne.InvalidRecordError, match="diverged"):
                    carcassonne.Game.from_record(json.dumps(record))
                refused += 1
                continue
            game = carcassonne.Game.from_record(json.dumps(record))
            assert game.scores == record["final_scores"], record["id"]
            checked += 1
    assert checked > 20 and refused > 0


def test_records_written_by_python_load_back() -> None:
    game = carcassonne.Game(players=3, sets=["base", "abbey-and-mayor"], seed=8)
    while not game.is_terminal:
        game.apply(game.builtin_action("greedy", seed=len(game.score_events())))
    again = carcassonne.Game.from_record(game.to_record("py-1"))
    assert again.scores == game.scores
    assert again.state_hash() == game.state_hash()
    half: Optional[carcassonne.Game] = None
    g = carcassonne.Game(players=2, seed=9)
    for _ in range(40):
        g.apply(g.legal_actions()[-1])
    half = carcassonne.Game.from_record(g.to_record())
    assert half.state_hash() == g.state_hash()
    assert half.legal_actions() == g.legal_actions()


def test_bad_records_are_refused() -> None:
    for text in ("", "{", "[]", '{"format": "x"}'):
        with pytest.raises(carcassonne.InvalidRecordError):
            carcassonne.Game.from_record(text)
    record = BASE_C2[0]
    import json

    broken: Dict[str, Any] = json.loads(json.dumps(record))
    broken["final_scores"] = [s + 1 for s in broken["final_scores"]]
    with pytest.raises(carcassonne.InvalidRecordError):
        carcassonne.Game.from_record(json.dumps(broken))
    broken = json.loads(json.dumps(record))
    turns: List[Dict[str, Any]] = broken["turns"]
    turns[3]["actions"][0]["x"] = 40
    with pytest.raises(carcassonne.InvalidRecordError):
        carcassonne.Game.from_record(json.dumps(broken))
