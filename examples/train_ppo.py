"""A baseline that learns: PPO with action masks on the native vector environment.

A compact PPO in the CleanRL style, in plain PyTorch (the ``rl`` extra brings it): a
fully convolutional policy on the ``compact`` observation preset, whose tile-placement
logits are one 1×1 convolution over the board (a logit per window cell and rotation) and
whose other logits (deploy on a slot of the placed tile, pass) read the features of the
placed tile's cell and of the whole board. Games are the 2-player base game, the
learner's seat drawn per episode, against the built-in ``greedy`` player (``--opponents``).

The policy starts from a short imitation of the greedy player (``--bc-decisions``
decisions, cross-entropy on its ids, which the vector env gives with
``builtin_actions``), then PPO trains on the rewards ``score-diff`` / 10 plus ±1 for a
win or a loss at the end. Every ``--eval-every`` minutes the greedy (arg-max) policy
plays ``--eval-games`` games against ``random`` and against ``greedy`` (fresh seeds,
the learner's seat drawn per game) and a line of the learning curve is printed and
appended to ``OUT/curve.csv``: minutes of training, environment steps, win rate (ties
count half) with its standard error, and the mean score margin. The last weights are
saved to ``OUT/policy.pt``; those that did best against greedy in the evaluations to
``OUT/best.pt``, which the end of the run evaluates again on fresh games.

``--minutes`` bounds the whole run: the imitation (collecting and fitting), PPO and
every evaluation stop when their share of the time is spent (the imitation may use
``--bc-share`` of it; PPO stops when ``--final-share`` is left for the final
evaluations, which play as many of their games as that time allows and say how many).
A run ends within its minutes plus one PPO update or one batch of evaluation steps.

Run (from the repository's root, with the package and the ``rl`` extra installed)::

    python examples/train_ppo.py --minutes 30 --out runs/ppo

``--minutes 0.05 --envs 8 --steps 16 --eval-games 4 --final-games 4 --bc-decisions 64``
is a smoke run (one PPO update, under a minute on a free machine).

``--evaluate WEIGHTS`` trains nothing: it plays the saved policy (arg-max) through
Gymnasium's ``Carcassonne-v0``, one game at a time, against ``--opponents`` for
``--final-games`` games (seats alternating) and prints the win rate and margin: a check
of the training's own evaluation by another path.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import time
from typing import Dict, List, Tuple

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import carcassonne

GAME = {"players": 2, "sets": ["base"]}


def plane_scales(names: List[str]) -> torch.Tensor:
    """A divisor per plane that brings counts and point values near [0, 1]."""
    scale = []
    for n in names:
        if n.startswith("side-value") or n == "centre-value":
            scale.append(10.0)
        elif n.startswith("side-open"):
            scale.append(4.0)
        else:
            scale.append(1.0)
    return torch.tensor(scale).view(1, -1, 1, 1)


class Policy(nn.Module):
    """Convolutional trunk; spatial logits for the ``tile`` (and ``cell``) blocks, dense
    logits for the other ids; a value head."""

    def __init__(self, info: Dict, width: int = 32, depth: int = 3) -> None:
        super().__init__()
        self.w = int(info["window"])
        c, g = int(info["num_planes"]), int(info["num_globals"])
        self.register_buffer("scale", plane_scales(list(info["plane_names"])))
        self.last_placed = list(info["plane_names"]).index("last-placed")
        blocks = {name: (first, n) for name, first, n in info["action_blocks"]}
        self.num_actions = int(info["num_actions"])
        self.has_cell = "cell" in blocks
        ww = self.w * self.w
        spatial = 4 * ww + (ww if self.has_cell else 0)
        assert blocks["tile"] == (0, 4 * ww)
        self.rest = self.num_actions - spatial
        self.inp = nn.Conv2d(c, width, 1)
        self.glob = nn.Sequential(nn.Linear(g, width), nn.ReLU(), nn.Linear(width, width))
        self.convs = nn.ModuleList(nn.Conv2d(width, width, 3, padding=1) for _ in range(depth))
        self.spatial_head = nn.Conv2d(width, 5 if self.has_cell else 4, 1)
        feat = 3 * width
        self.rest_head = nn.Sequential(nn.Linear(feat, 128), nn.ReLU(), nn.Linear(128, self.rest))
        self.value_head = nn.Sequential(nn.Linear(feat, 128), nn.ReLU(), nn.Linear(128, 1))

    def forward(self, board: torch.Tensor, globals_: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        x = board.float() / self.scale
        g = torch.sign(globals_) * torch.log1p(globals_.abs())
        h = F.relu(self.inp(x) + self.glob(g)[:, :, None, None])
        for conv in self.convs:
            h = F.relu(h + conv(h))
        n = h.shape[0]
        spatial = self.spatial_head(h).reshape(n, -1)
        # Features of the last placed tile's cell (the tile that deploy ids refer to).
        at = board[:, self.last_placed].reshape(n, -1).float()
        at = at / at.sum(dim=1, keepdim=True).clamp(min=1.0)
        placed = torch.einsum("ncp,np->nc", h.reshape(n, h.shape[1], -1), at)
        pooled = torch.cat([h.mean(dim=(2, 3)), h.amax(dim=(2, 3)), placed], dim=1)
        logits = torch.cat([spatial, self.rest_head(pooled)], dim=1)
        return logits, self.value_head(pooled).squeeze(1)


def masked(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return logits.masked_fill(mask == 0, -1e9)


def make_env(n: int, opponents: str, seed: int, threads: int, window: int) -> carcassonne.VectorEnv:
    return carcassonne.VectorEnv(
        n, **GAME, seed=seed, window=window, preset="compact", opponents=opponents,
        learner_seat=None, reward="score-diff", threads=threads,
    )


class Clock:
    """The run's time budget: ``left()`` seconds until the deadline."""

    def __init__(self, minutes: float) -> None:
        self.start = time.monotonic()
        self.deadline = self.start + 60.0 * minutes

    def minutes(self) -> float:
        return (time.monotonic() - self.start) / 60

    def left(self) -> float:
        return self.deadline - time.monotonic()

    def until(self, share: float) -> float:
        """The time (``time.monotonic()``) when ``share`` of the whole budget is spent."""
        return self.start + share * (self.deadline - self.start)


def evaluate(model: Policy, opponents: str, games: int, seed: int, window: int,
             stop_at: float = math.inf) -> Tuple[float, float, float, int]:
    """(win rate with ties as half, its standard error, mean margin, games played) of the
    arg-max policy over ``games`` games (the learner's seat drawn per game), or over the
    games finished when ``time.monotonic()`` passes ``stop_at`` (NaN without any)."""
    n = min(games, 64)
    env = carcassonne.VectorEnv(
        n, **GAME, seed=seed, window=window, preset="compact", opponents=opponents,
        learner_seat=None, reward="score",
    )
    obs, _ = env.reset()
    results: List[Tuple[float, float]] = []
    truncated = 0
    model.eval()
    with torch.no_grad():
        while len(results) < games and time.monotonic() < stop_at:
            logits, _ = model(torch.from_numpy(obs["board"]), torch.from_numpy(obs["globals"]))
            ids = masked(logits, torch.from_numpy(obs["action_mask"])).argmax(dim=1).numpy()
            seats = env.learner_seats().copy()
            obs, _, term, trunc, info = env.step(ids)
            for i in np.flatnonzero(term | trunc):
                s = info["final_scores"][i]
                own, other = int(s[seats[i]]), int(s[1 - seats[i]])
                results.append((1.0 if own > other else 0.5 if own == other else 0.0, own - other))
                truncated += int(trunc[i])
    model.train()
    if truncated:
        print(f"  {truncated} games against {opponents} truncated (no legal move in the window)", flush=True)
    if not results:
        return math.nan, math.nan, math.nan, 0
    r = np.array(results[:games])
    p = float(r[:, 0].mean())
    return p, math.sqrt(max(p * (1 - p), 1e-12) / len(r)), float(r[:, 1].mean()), len(r)


def describe(p: float, se: float, margin: float, played: int) -> str:
    """An evaluation's result as text."""
    if played == 0:
        return "no game finished in the time"
    return f"{100 * p:5.1f}% ± {100 * se:.1f} (margin {margin:+.1f}, {played} games)"


def evaluate_gym(model: Policy, opponent: str, games: int, seed: int, window: int) -> Tuple[float, float, float]:
    """As :func:`evaluate`, through ``Carcassonne-v0`` one game at a time."""
    import gymnasium as gym

    results: List[Tuple[float, float]] = []
    truncated = 0
    model.eval()
    with torch.no_grad():
        for g in range(games):
            env = gym.make("Carcassonne-v0", **GAME, opponents=opponent, learner_seat=g % 2, window=window,
                           preset="compact")
            obs, _ = env.reset(seed=seed + g)
            done = False
            while not done:
                logits, _ = model(torch.from_numpy(obs["board"][None]), torch.from_numpy(obs["globals"][None]))
                a = int(masked(logits, torch.from_numpy(obs["action_mask"][None])).argmax(dim=1)[0])
                obs, _, term, trunc, info = env.step(a)
                done = term or trunc
            truncated += int(trunc)
            s = info["final_scores"]
            own, other = int(s[g % 2]), int(s[1 - g % 2])
            results.append((1.0 if own > other else 0.5 if own == other else 0.0, own - other))
    if truncated:
        print(f"  {truncated} of {games} games truncated (no legal move in the window)")
    r = np.array(results)
    p = float(r[:, 0].mean())
    return p, math.sqrt(max(p * (1 - p), 1e-12) / len(r)), float(r[:, 1].mean())


def imitate(model: Policy, decisions: int, args: argparse.Namespace, stop_at: float) -> None:
    """Behaviour cloning of the greedy player on ``decisions`` learner decisions (its own
    Adam optimizer, learning rate ``--bc-lr``); collecting and fitting stop when
    ``time.monotonic()`` passes ``stop_at`` (collecting at half the time left)."""
    if decisions <= 0:
        return
    collect_until = time.monotonic() + (stop_at - time.monotonic()) / 2
    opt = torch.optim.Adam(model.parameters(), lr=args.bc_lr, eps=1e-5)
    env = make_env(args.envs, args.opponents, args.seed + 7, args.threads, args.window)
    obs, _ = env.reset()
    boards, globs, masks, ids = [], [], [], []
    while len(ids) * args.envs < decisions and (not ids or time.monotonic() < collect_until):
        a = env.builtin_actions("greedy", seed=len(ids))
        boards.append(obs["board"].copy())
        globs.append(obs["globals"].copy())
        masks.append(obs["action_mask"].copy())
        ids.append(a.copy())
        obs, *_ = env.step(a)
    b = torch.from_numpy(np.concatenate(boards))
    g = torch.from_numpy(np.concatenate(globs))
    m = torch.from_numpy(np.concatenate(masks))
    y = torch.from_numpy(np.concatenate(ids))
    for epoch in range(args.bc_epochs):
        perm = torch.randperm(len(y))
        total, seen = 0.0, 0
        for k in range(0, len(y), args.minibatch):
            if k > 0 and time.monotonic() >= stop_at:
                break
            j = perm[k : k + args.minibatch]
            logits, _ = model(b[j], g[j])
            loss = F.cross_entropy(masked(logits, m[j]), y[j])
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 0.5)
            opt.step()
            total += float(loss.detach()) * len(j)
            seen += len(j)
        print(f"imitation epoch {epoch + 1}: cross-entropy {total / seen:.3f} on {seen} of {len(y)} decisions",
              flush=True)
        if time.monotonic() >= stop_at:
            break


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=60.0,
                        help="time of the whole run: imitation, PPO and evaluations")
    parser.add_argument("--bc-share", type=float, default=0.5, help="most of the time the imitation may take")
    parser.add_argument("--final-share", type=float, default=0.15,
                        help="share of the time kept for the final evaluations")
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--steps", type=int, default=64, help="rollout steps per env")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--minibatch", type=int, default=512)
    parser.add_argument("--lr", type=float, default=5e-5, help="PPO's learning rate")
    parser.add_argument("--gamma", type=float, default=1.0)
    parser.add_argument("--lam", type=float, default=0.95)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--ent", type=float, default=0.001)
    parser.add_argument("--win-bonus", type=float, default=1.0)
    parser.add_argument("--opponents", default="greedy")
    parser.add_argument("--window", type=int, default=24)
    parser.add_argument("--bc-decisions", type=int, default=32000)
    parser.add_argument("--bc-epochs", type=int, default=2)
    parser.add_argument("--bc-lr", type=float, default=1e-3)
    parser.add_argument("--eval-every", type=float, default=5.0, help="minutes between evaluations")
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--final-games", type=int, default=400, help="games per opponent of the last evaluation")
    parser.add_argument("--threads", type=int, default=1, help="threads of the vector env")
    parser.add_argument("--torch-threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="runs/ppo")
    parser.add_argument("--evaluate", metavar="WEIGHTS", help="evaluate saved weights instead of training")
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.torch_threads)
    if args.evaluate:
        model = Policy(carcassonne.encoder_info(args.window, "compact", **GAME))
        model.load_state_dict(torch.load(args.evaluate))
        start = time.monotonic()
        p, se, margin = evaluate_gym(model, args.opponents, args.final_games, 1_000_000, args.window)
        print(f"{args.evaluate} against {args.opponents} over {args.final_games} games: "
              f"{100 * p:.1f}% ± {100 * se:.1f} (ties count half), mean margin {margin:+.1f} "
              f"({time.monotonic() - start:.0f} s)")
        return
    os.makedirs(args.out, exist_ok=True)
    env = make_env(args.envs, args.opponents, args.seed, args.threads, args.window)
    info = env.encoder_info()
    model = Policy(info)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr, eps=1e-5)
    n, t_len = args.envs, args.steps
    print(f"observations: {info['num_planes']} planes x {args.window}^2, {info['num_globals']} globals, "
          f"{info['num_actions']} ids; {sum(p.numel() for p in model.parameters()):,} parameters", flush=True)

    clock = Clock(args.minutes)
    curve_path = os.path.join(args.out, "curve.csv")
    with open(curve_path, "w", newline="") as f:
        csv.writer(f).writerow(["minutes", "env_steps", "games", "win_random", "se_random", "margin_random",
                                "win_greedy", "se_greedy", "margin_greedy"])
    env_steps, games = 0, 0
    eval_seed = 10_000

    best = -1.0
    best_path = os.path.join(args.out, "best.pt")

    # An evaluation during training may take a tenth of the time; the final ones share
    # what is left.
    eval_time = 0.1 * 60.0 * args.minutes

    def report(games_per_opponent: int = args.eval_games) -> None:
        nonlocal eval_seed, best
        minutes = clock.minutes()
        stop = min(time.monotonic() + eval_time, clock.deadline)
        rows = []
        for k, opp in enumerate(("random", "greedy")):
            # Each opponent gets half of the evaluation's time.
            rows.append(evaluate(model, opp, games_per_opponent, eval_seed, args.window,
                                 time.monotonic() + (stop - time.monotonic()) / (2 - k)))
        eval_seed += 1
        (wr, sr, mr, nr), (wg, sg, mg, ng) = rows
        print(f"[{minutes:6.1f} min, {env_steps:>9,} steps, {games:>6,} games] "
              f"vs random {describe(*rows[0])}  vs greedy {describe(*rows[1])}", flush=True)
        with open(curve_path, "a", newline="") as f:
            csv.writer(f).writerow([f"{minutes:.2f}", env_steps, games, f"{wr:.4f}", f"{sr:.4f}", f"{mr:.2f}",
                                    f"{wg:.4f}", f"{sg:.4f}", f"{mg:.2f}"])
        if wg > best or not os.path.exists(best_path):
            best = wg if ng else best
            torch.save(model.state_dict(), best_path)

    report(min(args.eval_games, 100))
    imitate(model, args.bc_decisions, args, clock.until(args.bc_share))
    if args.bc_decisions > 0:
        report()
    next_eval = clock.minutes() + args.eval_every
    train_until = clock.until(1.0 - args.final_share)

    obs, _ = env.reset()
    w = args.window
    c = info["num_planes"]
    boards = torch.zeros((t_len, n, c, w, w), dtype=torch.uint8)
    globs = torch.zeros((t_len, n, info["num_globals"]))
    masks = torch.zeros((t_len, n, info["num_actions"]), dtype=torch.int8)
    actions = torch.zeros((t_len, n), dtype=torch.long)
    logps = torch.zeros((t_len, n))
    values = torch.zeros((t_len, n))
    rewards = torch.zeros((t_len, n))
    dones = torch.zeros((t_len, n))
    ep_returns: List[float] = []
    iterations = 0
    # At least one PPO update, however short the time given.
    while iterations == 0 or time.monotonic() < train_until:
        iterations += 1
        # Rollout.
        with torch.no_grad():
            for t in range(t_len):
                b, g, m = (torch.from_numpy(obs["board"]), torch.from_numpy(obs["globals"]),
                           torch.from_numpy(obs["action_mask"]))
                boards[t], globs[t], masks[t] = b, g, m
                logits, v = model(b, g)
                dist = torch.distributions.Categorical(logits=masked(logits, m))
                a = dist.sample()
                actions[t], logps[t], values[t] = a, dist.log_prob(a), v
                seats = env.learner_seats().copy()
                obs, r, term, trunc, inf = env.step(a.numpy())
                rew = r[np.arange(n), seats] / 10.0
                done = term | trunc
                for i in np.flatnonzero(done):
                    s = inf["final_scores"][i]
                    diff = int(s[seats[i]]) - int(s[1 - seats[i]])
                    rew[i] += args.win_bonus * float(np.sign(diff))
                    ep_returns.append(float(inf["episode_returns"][i, seats[i]]))
                    games += 1
                rewards[t] = torch.from_numpy(rew.astype(np.float32))
                dones[t] = torch.from_numpy(done.astype(np.float32))
            _, next_value = model(torch.from_numpy(obs["board"]), torch.from_numpy(obs["globals"]))
        env_steps += n * t_len
        # Generalized advantage estimation (dones[t]: the episode ended after step t).
        adv = torch.zeros((t_len, n))
        last = torch.zeros(n)
        for t in reversed(range(t_len)):
            nv = next_value if t == t_len - 1 else values[t + 1]
            nonterminal = 1.0 - dones[t]
            delta = rewards[t] + args.gamma * nv * nonterminal - values[t]
            last = delta + args.gamma * args.lam * nonterminal * last
            adv[t] = last
        ret = adv + values
        # Update.
        fb, fg, fm = boards.reshape(-1, c, w, w), globs.reshape(-1, globs.shape[-1]), masks.reshape(-1, masks.shape[-1])
        fa, fl, fadv, fret = actions.reshape(-1), logps.reshape(-1), adv.reshape(-1), ret.reshape(-1)
        for _ in range(args.epochs):
            perm = torch.randperm(len(fa))
            for k in range(0, len(fa), args.minibatch):
                j = perm[k : k + args.minibatch]
                logits, v = model(fb[j], fg[j])
                dist = torch.distributions.Categorical(logits=masked(logits, fm[j]))
                newlogp = dist.log_prob(fa[j])
                ratio = (newlogp - fl[j]).exp()
                a_j = fadv[j]
                a_j = (a_j - a_j.mean()) / (a_j.std() + 1e-8)
                pg = torch.max(-a_j * ratio, -a_j * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
                vloss = 0.5 * ((v - fret[j]) ** 2).mean()
                ent = dist.entropy().mean()
                loss = pg + 0.5 * vloss - args.ent * ent
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(model.parameters(), 0.5)
                opt.step()
        if clock.minutes() >= next_eval and time.monotonic() < train_until:
            if ep_returns:
                print(f"  training: {len(ep_returns)} episodes, mean score-diff return {np.mean(ep_returns):+.2f}",
                      flush=True)
                ep_returns.clear()
            report()
            next_eval += args.eval_every
    # The final evaluations share the time left: the last weights, then the best ones.
    eval_time = max(clock.left(), 0.0) / 2
    report(args.final_games)
    torch.save(model.state_dict(), os.path.join(args.out, "policy.pt"))
    # The weights that did best against greedy in the evaluations, evaluated again on
    # games none of those evaluations played.
    model.load_state_dict(torch.load(best_path))
    for k, opp in enumerate(("random", "greedy")):
        stop = time.monotonic() + max(clock.left(), 0.0) / (2 - k)
        result = evaluate(model, opp, args.final_games, 999_999, args.window, stop)
        print(f"best evaluated weights against {opp} on fresh games: {describe(*result)}", flush=True)
    print(f"whole run: {clock.minutes():.2f} minutes of {args.minutes:g}", flush=True)
    print(f"curve: {curve_path}; weights: {os.path.join(args.out, 'policy.pt')} (last), {best_path} (best)")


if __name__ == "__main__":
    main()
