"""Shared helpers of the Python tests, and a local Ray cluster of two nodes (the
``cluster`` fixture of tests/python/test_distributed.py and tests/python/test_rl.py)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, Iterator, List, Set

import numpy as np
import pytest

import carcassonne

DATA = Path(__file__).resolve().parents[1] / "data"

#: Configurations that reach every kind of decision between them.
CONFIGS: List[Dict[str, Any]] = [
    dict(players=2, sets=["base"], seed=1),
    dict(players=3, sets=["base", "river1"], seed=2),
    dict(players=4, sets=["base", "princess-and-dragon"], seed=3, figures={"abbot": 1}),
    dict(players=2, sets=["base", "abbey-and-mayor"], seed=4),
    dict(
        players=5,
        sets=["base", "river1", "river2", "princess-and-dragon", "abbey-and-mayor"],
        seed=5,
        figures={"abbot": 1},
    ),
    dict(players=3, sets=["base", "princess-and-dragon"], seed=7, rules={"fairy": "on-tile"}),
]


def records(name: str) -> Iterator[Dict[str, Any]]:
    """The records of ``tests/data/<name>``."""
    with open(DATA / name, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def offered(mask: np.ndarray) -> List[int]:
    return [int(i) for i in np.flatnonzero(mask)]


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(12345)


def random_game(config: Dict[str, Any], decisions: int, seed: int = 0) -> carcassonne.Game:
    """A game after ``decisions`` random legal decisions (or at its end)."""
    game = carcassonne.Game(**config)
    r = np.random.default_rng(seed)
    for _ in range(decisions):
        if game.is_terminal:
            break
        legal = game.legal_actions()
        game.apply(legal[int(r.integers(len(legal)))])
    return game


# ----- a Ray cluster of this machine: a head node and a second node joining it ---------

BIN = Path(sys.executable).parent
#: The cluster listens on the loopback interface only, so it runs without Ray's token
#: authentication (nothing is read from or written to ~/.ray).
ENV = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", RAY_AUTH_MODE="disabled")


def _free_ports(n: int) -> List[int]:
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def _children() -> Dict[int, List[int]]:
    out: Dict[int, List[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        out.setdefault(ppid, []).append(int(entry))
    return out


def _descendants(roots: List[int]) -> Set[int]:
    children = _children()
    seen: Set[int] = set()
    todo = list(roots)
    while todo:
        pid = todo.pop()
        for child in children.get(pid, []):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return seen


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _marked(marker: str) -> Set[int]:
    """Processes whose command line or environment names ``marker`` (this cluster's
    temporary directory)."""
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                environ = f.read()
        except OSError:
            environ = b""
        if marker in _cmdline(int(entry)) or marker.encode() in environ:
            found.add(int(entry))
    return found


class Cluster:
    """A head node and a joining node, each ``ray start --block`` of its own."""

    def __init__(self) -> None:
        self.temp = tempfile.mkdtemp(prefix="carc-ray-")
        self.port = _free_ports(1)[0]
        self.address = f"127.0.0.1:{self.port}"
        self.procs: List[subprocess.Popen[bytes]] = []
        self.log = open(os.path.join(self.temp, "ray-start.log"), "wb")

    def start(self) -> None:
        common = ["--block", "--num-cpus", "1", "--node-ip-address", "127.0.0.1", "--disable-usage-stats",
                  "--dashboard-agent-listen-port", "0"]
        dashboard, metrics = _free_ports(2)
        head = [str(BIN / "ray"), "start", "--head", "--port", str(self.port), "--include-dashboard", "false",
                "--dashboard-port", str(dashboard), "--metrics-export-port", str(metrics), "--temp-dir", self.temp]
        node = [str(BIN / "ray"), "start", "--address", self.address]
        for i, command in enumerate([head, node]):
            env = dict(ENV, CARC_RAY_TEST_CLUSTER=self.temp)  # found in the environment of every process of the cluster
            self.procs.append(subprocess.Popen(command + common, env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                               start_new_session=True))
            self._wait_for(i + 1)

    def _wait_for(self, nodes: int) -> None:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            for p in self.procs:
                if p.poll() is not None:
                    raise RuntimeError(f"ray start ended ({p.returncode}): {self.output()}")
            if self.output().count("Ray runtime started.") >= nodes:
                status = subprocess.run([str(BIN / "ray"), "status", "--address", self.address], env=ENV,
                                        capture_output=True, text=True)
                if status.returncode == 0 and status.stdout.count(" node_") >= nodes:
                    return
            time.sleep(0.5)
        raise RuntimeError(f"the cluster did not reach {nodes} nodes: {self.output()}")

    def output(self) -> str:
        self.log.flush()
        with open(self.log.name, encoding="utf-8", errors="replace") as f:
            return f.read()[-3000:]

    def workers(self, task: str) -> List[int]:
        """The cluster's worker processes running ``task`` now."""
        return sorted(pid for pid in _descendants([p.pid for p in self.procs]) if _cmdline(pid).startswith(f"ray::{task}"))

    def stop(self) -> None:
        """Stops this cluster's processes only: each ``ray start --block`` by its id
        (it stops the node's processes), then any process left that names the cluster's
        directory."""
        for p in reversed(self.procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        deadline = time.monotonic() + 10
        while (left := _marked(self.temp)) and time.monotonic() < deadline:
            time.sleep(0.2)
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.log.close()
        shutil.rmtree(self.temp, ignore_errors=True)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    c = Cluster()
    try:
        c.start()
        yield c
    finally:
        c.stop()
        assert not _marked(c.temp), "processes of the test cluster are still running"
