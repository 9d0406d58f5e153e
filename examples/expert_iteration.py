"""A baseline that learns from search: expert iteration on the 2-player base game.

Each iteration plays self-play games natively (:func:`carcassonne.selfplay.generate`,
every seat searching every decision) into the run's dataset ``OUT/data`` (Parquet
tables, docs/dataset.md), trains a small policy-value network on the rows of its last
games streamed from there (policy: cross-entropy to the search's visit shares over the
masked flat ids; value: squared error to the deciding seat's final outcome, 1 a win, ½ a
tie, 0 a loss, or a mix of it and the search's value of the decision with
``--value-mix``), and hands the network to the next iteration's search: its leaves are then evaluated by the
network in batches (softmax priors over the mask, a sigmoid value) instead of random
playouts (``carcassonne.search``'s evaluator). The first iteration has no network yet
and searches with random playouts (``--first-budget`` iterations per decision); the
later ones search with ``--budget`` network evaluations per decision. ``--init WEIGHTS``
starts from saved weights of the same network instead (an earlier run's, to go on, or
``train_ppo.py``'s of the same observation layout), and every iteration is then guided.
``--playouts`` keeps every iteration on random playouts (``--first-budget`` iterations,
``--first-games`` games, ``--first-epochs`` passes): with ``--init``, more distilled
search for saved weights, on other deals when ``--seed`` differs. The guided search's
tuning (``--c``, ``--margin``, ``--playout``, ``--standing``, ``--standing-end``; see
:data:`TUNING`) tunes the guided iterations' self-play as it tunes an evaluated search
(below): a teacher that mixes the standings into its leaves, for instance.

The network is the convolutional policy of ``train_ppo.py`` (a logit per window cell and
rotation from a 1×1 convolution, the other ids from pooled features; about 60,000
parameters, 0.25 MB of weights, at the default ``--width 32 --depth 3``), its value head
read through a sigmoid.

The replay buffer is the dataset on disk: iteration games are numbered on through the
run (each iteration its own range, ``first_game`` in the curve; the games of a network
are named by its weights' hash, :func:`weights_name`), never written twice, and each
iteration trains ``--epochs`` passes over the last ``--buffer`` GAMES of the run (a
window of whole games, about 100 decisions each in the 2-player base game), streamed in
minibatches by :func:`carcassonne.data.batches` (``games=`` the window's ids): each
game's record replayed and its decisions encoded natively, shuffled across games
through ``--shuffle-buffer`` rows. Memory does not grow with the window: the loader
holds at most its shuffle buffer and three games' rows (the iteration's line prints
that bound at the size of dense rows, about 37 KB a row, some 300 MB at the default
8,192 rows; the loader holds them sparse, in less), whatever
``--buffer`` is (docs/learning.md has the memory measured over 10,000 games); on disk a decision costs about 105 bytes (docs/benchmarks.md).

``OUT/checkpoint.pt`` (the network, the optimizer and each finished iteration's games)
is written after every iteration, whole: the same command again with the same
``--out`` goes on from it (``--iterations`` and ``--minutes`` then count the new run's
iterations and time), and an iteration that was interrupted plays again only the games
its network had not written. ``--ray ADDRESS`` (or ``auto``) plays each iteration's
self-play on a Ray cluster with :func:`carcassonne.distributed.selfplay` (tasks of
``--chunk`` games, one CPU each, the network sent to them as its weights:
:class:`WeightsEvaluator`) into the same ``OUT/data``, which must then be on storage
every node reaches, and trains on the driver, streaming from it; each iteration prints
the distributed run's summary (chunks Ray ran again among them) and the run ends with
what was retried. With ``--ray`` the time bound is checked between iterations only.

After each iteration the arg-max network (no search) plays ``--eval-deals`` deals from
both seats against ``heuristic`` and against ``mcts:150`` with
:func:`carcassonne.evaluation.evaluate` (the same deals every iteration), and a line of
the learning curve is printed and appended to ``OUT/curve.csv``. The weights are saved
after every iteration to ``OUT/policy.pt``, and those that did best against
``mcts:150`` to ``OUT/best.pt``. ``--minutes`` bounds the whole run: an iteration whose
self-play would start after the deadline is not begun, and its generation stops early
(fewer games) when time is short.

Run (from the repository's root, with the package and PyTorch installed; ``--ray``
needs the ``ray`` extra too, ``pip install "./python[ray]"``)::

    nice -n 10 python examples/expert_iteration.py --minutes 30 --out runs/exit
    python examples/expert_iteration.py --ray auto --minutes 120 --out /shared/runs/exit

``--smoke`` is two tiny iterations (a few games, short searches, one evaluation deal)
bounded by a minute unless ``--minutes`` says otherwise. ``--evaluate WEIGHTS`` trains
nothing: it plays the saved network against ``--opponent`` on ``--deals`` deals from
both seats, as the arg-max
policy (``--player argmax``) or guiding a search of N evaluations a move
(``--player search:50``; ``--c`` its PUCT constant, ``--batch`` its leaves a call,
``--margin`` the smooth margin's weight in a finished game's reward, ``--playout`` the
weight of a random playout in each leaf's value, ``--standing`` that of the standings if
the game ended at the leaf, ``--standing-end`` that weight at the end of the game when it
should grow as the tiles are placed), and prints the evaluation's table::

    python examples/expert_iteration.py --evaluate examples/expert_iteration_base_2p.pt \\
        --player argmax --opponent heuristic --deals 200

``--export FILE.onnx`` trains nothing either: it writes the network of ``--init WEIGHTS``
(without ``--init``, a randomly initialised one of ``--width`` and ``--depth``, seeded by
``--seed``) as an ONNX model that the engine runs in Rust (the ``net:FILE.onnx`` player;
see :func:`export_onnx` and docs/learning.md). It needs the ``onnx`` package besides
PyTorch. The shipped network ``session/nets/base-2p.onnx`` is made by::

    python examples/expert_iteration.py --init examples/expert_iteration_base_2p.pt \\
        --export session/nets/base-2p.onnx
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import io
import json
import os
import sys
import threading
import time
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

import numpy as np
import torch
import torch.nn.functional as F

import carcassonne
from carcassonne import data, selfplay
from carcassonne.evaluation import Evaluation, evaluate

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_ppo import Policy, masked  # noqa: E402  (the same network as the PPO example)

GAME: Dict[str, Any] = {"players": 2, "sets": ["base"]}
PRESET = "compact"
#: The run's dataset, a folder of ``--out`` (docs/dataset.md), and its checkpoint.
DATASET = "data"
CHECKPOINT = "checkpoint.pt"
#: The columns of ``OUT/curve.csv``: ``rows`` counts the run's rows so far, ``buffer_games``
#: the games of the replay window, ``first_game`` the number of the iteration's first game.
CURVE_HEADER = ["iteration", "search", "games", "rows", "buffer_games", "minutes", "rows_per_second",
                "cross_entropy", "value_mse", "win_heuristic", "win_mcts150", "first_game"]


def make_model(window: int, width: int = 32, depth: int = 3) -> Policy:
    return Policy(carcassonne.encoder_info(window, PRESET, **GAME), width=width, depth=depth)


def model_of(state: Dict[str, Any], window: int, width: Optional[int] = None, depth: Optional[int] = None,
             source: str = "the weights") -> Policy:
    """This network with the weights ``state``, its width and depth read from their
    shapes (a ``width`` or ``depth`` given must agree with them)."""
    saved = {"width": int(state["inp.weight"].shape[0]),
             "depth": sum(1 for k in state if k.startswith("convs.") and k.endswith(".weight"))}
    for name, asked in (("width", width), ("depth", depth)):
        if asked is not None and asked != saved[name]:
            raise SystemExit(f"--{name} {asked}: {source} have {name} {saved[name]}")
    model = make_model(window, saved["width"], saved["depth"])
    model.load_state_dict(state)
    model.eval()
    return model


def load_model(path: str, window: int, width: Optional[int] = None, depth: Optional[int] = None) -> Policy:
    """Saved weights of this network, its width and depth read from their shapes (a
    ``width`` or ``depth`` given must agree with them)."""
    return model_of(torch.load(path), window, width, depth, source=f"the weights {path}")


class NetworkEvaluator:
    """The evaluator of ``carcassonne.search`` and ``selfplay.generate``: a softmax over
    the masked logits as the priors, the value head through a sigmoid as the deciding
    seat's expected outcome. Called with the interpreter held; PyTorch releases it in
    the forward pass, so self-play threads share the cores."""

    def __init__(self, model: Policy) -> None:
        self.model = model
        self.calls = 0
        self.leaves = 0

    def __call__(self, batch: Dict[str, np.ndarray]) -> Tuple[np.ndarray, np.ndarray]:
        self.calls += 1
        self.leaves += len(batch["board"])
        with torch.no_grad():
            logits, v = self.model(torch.from_numpy(batch["board"]), torch.from_numpy(batch["globals"]))
            priors = torch.softmax(masked(logits, torch.from_numpy(batch["action_mask"])), dim=1)
            return priors.numpy(), torch.sigmoid(v).numpy()


#: The ONNX metadata keys that the engine checks when it loads a network
#: (``session/src/net.rs``).
ONNX_METADATA = ("carcassonne.layout_version", "carcassonne.preset", "carcassonne.window", "carcassonne.config")


def export_onnx(model: Policy, path: str, window: int) -> None:
    """Writes ``model`` as an ONNX model (opset 17, a dynamic batch axis ``batch``):
    inputs ``board`` uint8 [batch, C, W, W] and ``globals`` float32 [batch, G] of the
    ``compact`` preset at ``window``; outputs ``logits`` float32 [batch, A] over the flat
    ids and ``value`` float32 [batch], the value logit (its sigmoid is the deciding
    seat's expected outcome). The model's metadata (``metadata_props``, see
    :data:`ONNX_METADATA`) says what it was made for: the observation layout version
    (:data:`carcassonne.LAYOUT_VERSION`), the preset, the window and the game
    configuration (as ``Game.config`` gives it, without the seed and start tile)."""
    import warnings

    import onnx

    info = carcassonne.encoder_info(window, PRESET, **GAME)
    board = torch.zeros(1, int(info["num_planes"]), window, window, dtype=torch.uint8)
    globals_ = torch.zeros(1, int(info["num_globals"]), dtype=torch.float32)
    model.eval()
    with warnings.catch_warnings():
        # The TorchScript-based exporter (dynamo=False) needs no onnxscript; PyTorch
        # warns that it is the older of its two exporters.
        warnings.simplefilter("ignore")
        torch.onnx.export(
            model, (board, globals_), path, input_names=["board", "globals"],
            output_names=["logits", "value"], opset_version=17, dynamo=False,
            dynamic_axes={name: {0: "batch"} for name in ("board", "globals", "logits", "value")},
        )
    proto = onnx.load(path)
    config = {k: v for k, v in carcassonne.Game(**GAME).config.items() if k not in ("seed", "start")}
    values = (carcassonne.LAYOUT_VERSION, PRESET, str(window), json.dumps(config, sort_keys=True))
    for key, value in zip(ONNX_METADATA, values):
        entry = proto.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.save(proto, path)


class Named:
    """A player (a callable ``f(game) -> Action``) that the evaluation's table names."""

    def __init__(self, name: str, play: Callable[[carcassonne.Game], carcassonne.Action]) -> None:
        self.name = name
        self.play = play

    def __call__(self, game: carcassonne.Game) -> carcassonne.Action:
        return self.play(game)

    def __repr__(self) -> str:
        return self.name


def argmax_player(model: Policy) -> Callable[[carcassonne.Game], carcassonne.Action]:
    """The network's most likely legal id, played without search (a legal action drawn
    by a fixed rule when none lies in the window)."""

    def play(game: carcassonne.Game) -> carcassonne.Action:
        obs = game.observation()
        mask = game.legal_mask()
        if not mask.any():
            return game.legal_actions()[0]
        with torch.no_grad():
            logits, _ = model(torch.from_numpy(obs["board"][None]), torch.from_numpy(obs["globals"][None]))
            flat = int(masked(logits, torch.from_numpy(mask[None])).argmax(dim=1)[0])
        action = game.flat_to_action(flat)
        assert action is not None, f"id {flat} is offered by the mask but names no whole action"
        return action

    return Named("network", play)


#: The guided search's tuning options (``carcassonne.search``'s and ``selfplay.generate``'s
#: keywords of the same names): the PUCT constant ``c`` (default 1.5; larger leans on the
#: priors), the weight ``margin`` of the smooth score margin in the reward of a game
#: finished inside the tree (default 0, the outcome; 1 for a value head trained on the
#: margin), the weights ``playout`` of one random playout of each leaf and ``standing`` of
#: the standings if the game ended at the leaf against the value head (default 0, the
#: network alone), the latter at the start of the game, ``standing_end`` at its end
#: (default: the same as at the start).
TUNING = ("c", "margin", "playout", "standing", "standing_end")


def tuning_of(args: argparse.Namespace) -> Dict[str, float]:
    """The tuning options given on the command line, by keyword."""
    return {name: getattr(args, name) for name in TUNING if getattr(args, name) is not None}


def tuning_label(tuning: Dict[str, float], separator: str = ",") -> str:
    """``tuning`` as text, each option led by ``separator`` (empty without options)."""
    return "".join(f"{separator}{name}={value:g}" for name, value in tuning.items())


def search_player(model: Policy, evaluations: int, seed: int, batch: int = 8,
                  tuning: Optional[Dict[str, float]] = None) -> Callable[[carcassonne.Game], carcassonne.Action]:
    """The most visited action of a search guided by the network, ``evaluations``
    iterations a move (each decision searched from its own seed), ``batch`` leaves an
    evaluator call, tuned by ``tuning`` (keywords of :data:`TUNING`; the search's defaults
    for those not given)."""
    evaluator = NetworkEvaluator(model)
    counter = [seed]
    tuning = dict(tuning or {})

    def play(game: carcassonne.Game) -> carcassonne.Action:
        if len(game.legal_actions()) == 1:
            return game.legal_actions()[0]
        counter[0] += 1
        return carcassonne.search(game, evaluations, seed=counter[0], evaluator=evaluator, batch=batch,
                                  **tuning).best

    return Named(f"network+search:{evaluations}{tuning_label(tuning)}", play)


def window_ids(records: List[Dict[str, Any]], seed: int, buffer: int) -> List[str]:
    """The ids of the last ``buffer`` games of the run (the replay window), newest first:
    each iteration's record gives its games ``first_game .. first_game + games`` and the
    hash in their ids ``selfplay-<seed>-<n>-<hash>`` (``selfplay.generate``)."""
    ids: List[str] = []
    for r in reversed(records):
        for n in range(r["first_game"] + r["games"] - 1, r["first_game"] - 1, -1):
            if len(ids) == buffer:
                return ids
            ids.append(f"selfplay-{seed}-{n}-{r['hash']}")
    return ids


def minibatch(batch: Dict[str, np.ndarray], value_mix: float) -> Dict[str, torch.Tensor]:
    """A batch of :func:`carcassonne.data.batches` as the training tensors: the planes,
    globals and mask as the loader gives them, the policy target (the search's visit
    shares, dense), and the value target, ``(1 - value_mix)`` times the deciding seat's
    outcome plus ``value_mix`` times the search's value of the decision."""
    value = (1.0 - value_mix) * batch["outcome"] + value_mix * batch["search_value"]
    return {"board": torch.from_numpy(batch["board"]), "globals": torch.from_numpy(batch["globals"]),
            "mask": torch.from_numpy(batch["action_mask"]), "policy": torch.from_numpy(batch["policy"]),
            "value": torch.from_numpy(value.astype(np.float32))}


def train(model: Policy, opt: torch.optim.Optimizer, path: str, games: List[str], args: argparse.Namespace,
          epochs: int, seed: int, stop_at: float) -> Tuple[float, float, int, float]:
    """``epochs`` passes over the rows of the games ``games`` of the dataset ``path``,
    streamed in minibatches by :func:`carcassonne.data.batches` (shuffled across games
    through a buffer of ``--shuffle-buffer`` rows, from ``seed``), stopping at
    ``time.monotonic()`` ``stop_at``. Returns the mean policy cross-entropy and value
    squared error of the last pass, the rows of one pass, and the most bytes the loader
    holds at once (its bound, :attr:`carcassonne.data.Batches.max_rows_held` rows)."""
    stream = data.batches(path, args.minibatch, preset=PRESET, window=args.window, shuffle=True, seed=seed,
                          epochs=epochs, shuffle_buffer=args.shuffle_buffer, games=games)
    per_pass = max(stream.decisions, 1)
    model.train()
    ce_sum = mse_sum = 0.0
    seen = streamed = 0
    held_bytes = 0.0
    for batch in stream:
        size = len(batch["player"])
        if not held_bytes:
            held_bytes = stream.max_rows_held * sum(a.nbytes for a in batch.values()) / size
        if streamed == 0 or (streamed - 1) // per_pass != (streamed + size - 1) // per_pass:
            ce_sum = mse_sum = 0.0  # a new pass begins in this minibatch: the means are of the last pass
            seen = 0
        streamed += size
        rows = minibatch(batch, args.value_mix)
        logits, v = model(rows["board"], rows["globals"])
        logp = F.log_softmax(masked(logits, rows["mask"]), dim=1)
        ce = -(rows["policy"] * logp).sum(dim=1).mean()
        mse = F.mse_loss(torch.sigmoid(v), rows["value"])
        loss = ce + mse
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        ce_sum += float(ce.detach()) * size
        mse_sum += float(mse.detach()) * size
        seen += size
        if time.monotonic() >= stop_at:
            break
    model.eval()
    return ce_sum / max(seen, 1), mse_sum / max(seen, 1), stream.decisions, held_bytes


class Generated(NamedTuple):
    """What an iteration's self-play wrote into the dataset."""

    games: int
    rows: int
    seconds: float
    #: The hash of the games' ids (``selfplay-<seed>-<n>-<hash>``).
    hash: str
    #: With ``--ray``: the distributed run's summary (what Ray ran again, among others).
    summary: Optional[Any] = None

    @property
    def rows_per_second(self) -> float:
        return self.rows / self.seconds if self.seconds > 0 else 0.0


def weights_name(model: Policy) -> str:
    """The seat name of a network's self-play games: ``net:`` and 16 hexadecimal digits
    of the SHA-256 of its weights, so that each network's games have ids of their own."""
    h = hashlib.sha256()
    for name, tensor in model.state_dict().items():
        h.update(name.encode())
        h.update(tensor.detach().cpu().contiguous().numpy().tobytes())
    return "net:" + h.hexdigest()[:16]


class WeightsEvaluator:
    """A :class:`NetworkEvaluator` that travels as the network's weights (the state
    dict's bytes): what the Ray tasks of ``--ray`` are given. It builds the network on
    its first call, in the process that calls it, with one PyTorch thread."""

    def __init__(self, model: Policy, window: int) -> None:
        buf = io.BytesIO()
        torch.save(model.state_dict(), buf)
        self.weights = buf.getvalue()
        self.window = window
        self._evaluator: Optional[NetworkEvaluator] = None
        self._lock = threading.Lock()

    def __getstate__(self) -> Dict[str, Any]:
        return {"weights": self.weights, "window": self.window}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.weights, self.window = state["weights"], state["window"]
        self._evaluator = None
        self._lock = threading.Lock()

    def __call__(self, batch: Dict[str, np.ndarray]) -> Tuple[np.ndarray, np.ndarray]:
        if self._evaluator is None:
            with self._lock:
                if self._evaluator is None:
                    torch.set_num_threads(1)
                    self._evaluator = NetworkEvaluator(model_of(torch.load(io.BytesIO(self.weights)), self.window))
        return self._evaluator(batch)


def generate(model: Optional[Policy], games: int, args: argparse.Namespace, first_game: int,
             stop_at: float, path: str) -> Optional[Generated]:
    """Plays self-play games ``first_game ..`` (up to ``games``) into the dataset
    ``path``: random playouts without a model, the model's evaluations with one (tuned
    by the command line's :data:`TUNING` options, its games named by
    :func:`weights_name`). Games already in the dataset (an interrupted iteration's) are
    not played again. On this machine, in chunks of ``--chunk`` games, stopping when
    ``time.monotonic()`` passes ``stop_at``; with ``--ray``, as one distributed run on
    the cluster (tasks of ``--chunk`` games, each searching on one CPU). ``None`` when no
    game was played."""
    kwargs: Dict[str, Any] = dict(seed=args.seed, window=args.window, preset=PRESET,
                                  sample_moves=args.sample_moves, **GAME)
    if model is None:
        kwargs["budget"] = args.first_budget
    else:
        kwargs.update(budget=args.budget, batch=args.batch, seat_name=weights_name(model), **tuning_of(args))
    if args.ray:
        from carcassonne import distributed

        started = time.monotonic()
        evaluator = None if model is None else WeightsEvaluator(model, args.window)
        try:
            summary = distributed.selfplay(path, games, first_game=first_game, evaluator=evaluator,
                                           chunk_games=args.chunk, **kwargs)
        except distributed.DistributedError as e:
            if e.summary is not None:
                print(e.summary, flush=True)
            raise SystemExit(f"--ray: self-play on the cluster failed: {e} (the same command again goes on)")
        return Generated(games, summary.decisions, time.monotonic() - started, summary.hash, summary)
    if model is not None:
        kwargs["evaluator"] = NetworkEvaluator(model)
    done = rows = 0
    seconds = 0.0
    hash = ""
    while done < games and (done == 0 or time.monotonic() < stop_at):
        k = min(args.chunk, games - done)
        started = time.monotonic()
        written = selfplay.generate(k, first_game=first_game + done, threads=args.threads, out=path,
                                    part_games=k, **kwargs)
        seconds += time.monotonic() - started
        hash = written["hash"]
        done += k
        rows += written["decisions"]
    return Generated(done, rows, seconds, hash) if done else None


def next_game(records: List[Dict[str, Any]]) -> int:
    """The number of the next iteration's first game: after every game of ``records``."""
    return max((r["first_game"] + r["games"] for r in records), default=0)


def save_checkpoint(path: str, state: Dict[str, Any]) -> None:
    """Writes ``state`` to ``path`` whole or not at all (a temporary file, renamed)."""
    temporary = path + ".tmp"
    torch.save(state, temporary)
    os.replace(temporary, path)


def run_evaluation(model: Policy, player: str, opponent: str, deals: int, seed: int, window: int,
                   search_seed: int = 0, batch: int = 8, tuning: Optional[Dict[str, float]] = None) -> Evaluation:
    """``player`` (``argmax`` or ``search:N``, the latter with ``batch`` leaves an
    evaluator call, tuned by ``tuning``: see :data:`TUNING`) against the built-in
    ``opponent``."""
    if player == "argmax":
        me = argmax_player(model)
    elif player.startswith("search:"):
        me = search_player(model, int(player.split(":", 1)[1]), search_seed, batch=batch, tuning=tuning)
    else:
        raise SystemExit(f"--player {player}: expected argmax or search:N")
    return evaluate(me, opponent, deals, sets=GAME["sets"], seed=seed, window=window, preset=PRESET)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, help="time of the whole run (default 30; with --smoke, 1)")
    parser.add_argument("--iterations", type=int, default=100, help="most iterations (the minutes end it first)")
    parser.add_argument("--first-games", type=int, default=120, help="games of the first (playout) iteration")
    parser.add_argument("--first-budget", type=int, default=150, help="playout iterations a decision, first iteration")
    parser.add_argument("--games", type=int, default=60, help="games of each later iteration")
    parser.add_argument("--budget", type=int, default=64, help="network evaluations a decision, later iterations")
    parser.add_argument("--batch", type=int, default=8, help="leaves a call of the evaluator")
    parser.add_argument("--sample-moves", type=int, default=30, help="decisions a game drawn by visit share")
    parser.add_argument("--chunk", type=int, default=10, help="games a self-play call (with --ray: a task)")
    parser.add_argument("--buffer", type=int, default=500,
                        help="the replay window: the last games of the run (in OUT/data) that training streams from")
    parser.add_argument("--shuffle-buffer", type=int, default=8192,
                        help="rows of the loader's shuffle buffer (what training holds in memory; "
                             "larger learns better: docs/learning.md)")
    parser.add_argument("--epochs", type=int, default=2, help="passes over the buffer an iteration")
    parser.add_argument("--first-epochs", type=int, default=6, help="passes over the first iteration's rows")
    parser.add_argument("--minibatch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--width", type=int, help="channels of the network's convolutions (default 32; "
                        "with --init or --evaluate, those of the weights)")
    parser.add_argument("--depth", type=int, help="residual 3x3 convolutions of the network (default 3; "
                        "with --init or --evaluate, those of the weights)")
    parser.add_argument("--value-mix", type=float, default=0.0,
                        help="share of the search's value in the value target (the rest: the game's outcome)")
    parser.add_argument("--eval-deals", type=int, default=25, help="deals (2 games each) per opponent an iteration")
    parser.add_argument("--window", type=int, default=24)
    parser.add_argument("--threads", type=int, default=2, help="self-play threads")
    parser.add_argument("--torch-threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="runs/exit",
                        help="the run's folder: its dataset OUT/data, weights, curve and checkpoint (a run started "
                        "again with the same --out goes on from its checkpoint)")
    parser.add_argument("--ray", metavar="ADDRESS",
                        help="self-play on a Ray cluster (auto: the one this node is part of; HOST:PORT), "
                        "written into OUT/data, which must be on storage every node reaches")
    parser.add_argument("--playouts", action="store_true",
                        help="every iteration searches with random playouts, none with the network")
    parser.add_argument("--init", metavar="WEIGHTS",
                        help="start from these weights (this network's): every iteration is guided, unless --playouts")
    parser.add_argument("--smoke", action="store_true", help="two tiny iterations, within a minute")
    parser.add_argument("--evaluate", metavar="WEIGHTS", help="evaluate saved weights instead of training")
    parser.add_argument("--export", metavar="FILE.onnx", help="write the network of --init WEIGHTS (or a random one) "
                        "as ONNX for the engine's net:FILE.onnx player, instead of training")
    parser.add_argument("--player", default="argmax", help="with --evaluate: argmax, or search:N")
    guided_only = "the guided search's (--evaluate WEIGHTS --player search:N, or the guided iterations' self-play): "
    parser.add_argument("--c", type=float, help=guided_only + "the PUCT constant "
                        "(default 1.5; larger leans on the priors, smaller on the values)")
    parser.add_argument("--margin", type=float, help=guided_only + "weight 0..1 of the "
                        "smooth score margin in the reward of a game finished in the tree (default 0, the outcome; "
                        "1 for a value head trained on the margin: train_value.py --target margin)")
    parser.add_argument("--playout", type=float, help=guided_only + "weight 0..1 of "
                        "one random playout of each leaf against the value head (default 0, the network alone)")
    parser.add_argument("--standing", type=float, help=guided_only + "weight 0..1 of the "
                        "standings if the game ended at each leaf (scores with the final scoring, scored as --margin "
                        "says) against the value head (default 0, the network alone), at the start of the game")
    parser.add_argument("--standing-end", type=float, help=guided_only + "weight 0..1 of "
                        "the standings at the end of the game; the weight moves linearly from --standing (default 0) "
                        "to it as the tiles are placed (default: --standing's, constant)")
    parser.add_argument("--opponent", default="heuristic", help="with --evaluate: a built-in player's spec")
    parser.add_argument("--deals", type=int, default=200, help="with --evaluate: deals, each from both seats")
    parser.add_argument("--eval-seed", type=int, default=1_000_000, help="with --evaluate: the first deal's seed")
    args = parser.parse_args()
    if args.smoke:
        args.iterations, args.first_games, args.first_budget, args.games, args.budget = 2, 2, 16, 2, 8
        args.chunk, args.first_epochs, args.epochs, args.eval_deals = 2, 1, 1, 1
        args.shuffle_buffer = min(args.shuffle_buffer, 256)
    if args.minutes is None:
        args.minutes = 1.0 if args.smoke else 30.0

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.torch_threads)
    if not 0.0 <= args.value_mix <= 1.0:
        parser.error(f"--value-mix {args.value_mix}: expected a share in 0..1")
    if args.width is not None and args.width < 1:
        parser.error(f"--width {args.width}: expected at least 1 channel")
    if args.depth is not None and args.depth < 0:
        parser.error(f"--depth {args.depth}: expected 0 or more convolutions")
    # Training has guided iterations unless --playouts, or a single iteration with no --init (playouts).
    checkpoint_path = os.path.join(args.out, CHECKPOINT)
    resumes = os.path.exists(checkpoint_path)
    trains_guided = not args.playouts and (args.init is not None or args.iterations > 1 or resumes)
    guided_search = args.player.startswith("search:") if args.evaluate else trains_guided
    for name, value in tuning_of(args).items():
        option = "--" + name.replace("_", "-")
        if not guided_search:
            parser.error(f"{option} {value}: only a guided search has it (--evaluate WEIGHTS --player search:N, "
                         "or training with guided iterations: no --playouts, and --init, more than one iteration or a run "
                         "in --out to go on with)")
        if name == "c" and not 0.0 <= value <= 10.0:
            parser.error(f"--c {value}: expected a PUCT constant in 0..10")
        if name != "c" and not 0.0 <= value <= 1.0:
            parser.error(f"{option} {value}: expected a weight in 0..1")
    if args.batch < 1:
        parser.error(f"--batch {args.batch}: expected at least 1 leaf a call")
    for option, value, low in (("--buffer", args.buffer, 1), ("--shuffle-buffer", args.shuffle_buffer, 1),
                               ("--chunk", args.chunk, 1), ("--minibatch", args.minibatch, 1)):
        if value < low:
            parser.error(f"{option} {value}: expected at least {low}")
    if args.export:
        if args.init:
            model = load_model(args.init, args.window, args.width, args.depth)
        else:
            model = make_model(args.window, 32 if args.width is None else args.width, 3 if args.depth is None else args.depth)
        export_onnx(model, args.export, args.window)
        print(f"{args.export}: {os.path.getsize(args.export):,} bytes", flush=True)
        return
    if args.evaluate:
        model = load_model(args.evaluate, args.window, args.width, args.depth)
        result = run_evaluation(model, args.player, args.opponent, args.deals, args.eval_seed, args.window, args.seed,
                                args.batch, tuning_of(args))
        print(f"{args.evaluate} ({args.player}):")
        print(result.text(), flush=True)
        return

    started = time.monotonic()
    deadline = started + 60.0 * args.minutes
    os.makedirs(args.out, exist_ok=True)
    dataset = os.path.join(args.out, DATASET)
    curve_path = os.path.join(args.out, "curve.csv")
    # A run goes on from its checkpoint: the network, the optimizer, and each finished
    # iteration's games (their numbers and the hash of their ids).
    records: List[Dict[str, Any]] = []
    best = -1.0
    from_init = args.init is not None
    if resumes:
        if args.init:
            parser.error(f"--init {args.init}: {checkpoint_path} holds a run to go on with; "
                         "leave --init out to go on, or give another --out")
        saved = torch.load(checkpoint_path)
        for option, name in (("--seed", "seed"), ("--window", "window")):
            if saved["settings"][name] != getattr(args, name):
                parser.error(f"{option} {getattr(args, name)}: the run in {args.out} has {name} "
                             f"{saved['settings'][name]}; give the same, or another --out")
        model = model_of(saved["model"], args.window, args.width, args.depth, source=f"the weights of {checkpoint_path}")
        opt = torch.optim.Adam(model.parameters(), lr=args.lr)
        opt.load_state_dict(saved["optimizer"])
        for group in opt.param_groups:
            group["lr"] = args.lr  # the optimizer's moments go on; the rate is this run's
        records, best, from_init = list(saved["iterations"]), float(saved["best"]), bool(saved["from_init"])
        # The curve keeps the rows of the checkpointed iterations (not one written after it).
        with open(curve_path, newline="") as f:
            kept = list(csv.reader(f))[:len(records) + 1]
        with open(curve_path, "w", newline="") as f:
            csv.writer(f).writerows(kept or [CURVE_HEADER])
        print(f"going on from {checkpoint_path}: {len(records)} iterations, games 0..{next_game(records) - 1} "
              f"in {dataset}", flush=True)
    else:
        if args.init:
            model = load_model(args.init, args.window, args.width, args.depth)
        else:
            model = make_model(args.window, 32 if args.width is None else args.width,
                               3 if args.depth is None else args.depth)
        opt = torch.optim.Adam(model.parameters(), lr=args.lr)
        with open(curve_path, "w", newline="") as f:
            csv.writer(f).writerow(CURVE_HEADER)
    model.eval()
    print(f"{sum(p.numel() for p in model.parameters()):,} parameters", flush=True)
    if args.ray:
        try:
            import ray  # with the [ray] extra; carcassonne.distributed uses this connection
            from ray import cloudpickle
        except ImportError:
            parser.error(f'--ray {args.ray}: needs Ray and pyarrow: pip install "./python[ray]"')

        # The network's module goes to the workers inside the evaluator (by value): the
        # nodes need the package and PyTorch, not this folder.
        cloudpickle.register_pickle_by_value(sys.modules[Policy.__module__])
        ray.init(address=args.ray, log_to_driver=False)
    retried: List[str] = []
    first = len(records)
    for iteration in range(first, first + args.iterations):
        if iteration > first and time.monotonic() >= deadline:
            break
        left = deadline - time.monotonic()
        guided = (iteration > 0 or from_init) and not args.playouts
        games = args.games if guided else args.first_games
        first_game = next_game(records)
        # Self-play may take half the time left; training and evaluation share the rest.
        rows = generate(model if guided else None, games, args, first_game, time.monotonic() + left / 2, dataset)
        if rows is None:
            break
        if rows.summary is not None:
            print(rows.summary, flush=True)
            retried += [f"iteration {iteration}: games {a}-{b}, {n} attempts" for a, b, n in rows.summary.retried]
        record = {"first_game": first_game, "games": rows.games, "hash": rows.hash, "rows": rows.rows}
        window = window_ids(records + [record], args.seed, args.buffer)
        epochs = args.epochs if guided else args.first_epochs
        train_until = time.monotonic() + max(deadline - time.monotonic(), 0.0) * 0.7
        ce, mse, window_rows, held = train(model, opt, dataset, window, args, epochs,
                                           (args.seed * 1_000_003 + iteration) % 2**64,
                                           train_until if not args.smoke else float("inf"))
        torch.save(model.state_dict(), os.path.join(args.out, "policy.pt"))
        search = f"guided:{args.budget}{tuning_label(tuning_of(args), ' ')}" if guided else f"mcts:{args.first_budget}"
        results = [run_evaluation(model, "argmax", opp, args.eval_deals, 10_000, args.window) for opp in ("heuristic", "mcts:150")]
        minutes = (time.monotonic() - started) / 60
        wh, wm = results[0].win_rate, results[1].win_rate
        total_rows = sum(r["rows"] for r in records) + rows.rows
        print(f"[iteration {iteration}, {minutes:5.1f} min] {search}: {rows.games} games "
              f"({first_game}..{first_game + rows.games - 1}), {rows.rows} rows ({rows.rows_per_second:.0f}/s); "
              f"buffer {len(window)} games, {window_rows} rows (loader at most {held / 2**20:.0f} MB); "
              f"cross-entropy {ce:.3f}, value mse {mse:.3f}; arg-max network wins {100 * wh:.0f} % against "
              f"heuristic, {100 * wm:.0f} % against mcts:150 ({results[0].games} games each)", flush=True)
        with open(curve_path, "a", newline="") as f:
            csv.writer(f).writerow([iteration, search, rows.games, total_rows, len(window),
                                    f"{minutes:.2f}", f"{rows.rows_per_second:.1f}", f"{ce:.4f}", f"{mse:.4f}",
                                    f"{wh:.4f}", f"{wm:.4f}", first_game])
        if wm + wh > best:
            best = wm + wh
            torch.save(model.state_dict(), os.path.join(args.out, "best.pt"))
        records.append(record)
        save_checkpoint(checkpoint_path, {
            "model": model.state_dict(), "optimizer": opt.state_dict(), "iterations": records, "best": best,
            "from_init": from_init, "settings": {"seed": args.seed, "window": args.window}})
    if args.ray:
        print(f"self-play on the cluster: {len(retried)} chunks run again by Ray"
              + "".join(f"; {r}" for r in retried), flush=True)
    print(f"whole run: {(time.monotonic() - started) / 60:.2f} minutes of {args.minutes:g}", flush=True)
    print(f"curve: {curve_path}; weights: {os.path.join(args.out, 'policy.pt')} (last), "
          f"{os.path.join(args.out, 'best.pt')} (best in the evaluations)")


if __name__ == "__main__":
    main()
