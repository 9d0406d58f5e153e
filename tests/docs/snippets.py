"""Runs the commands and programs of the project's Markdown documents, as written.

Every fenced block of the README, python/README.md and docs/*.md whose language is
``sh`` or ``python`` runs, in order of the document; the HTML comment on the line just
above a fence says otherwise or more:

``<!-- not run: REASON -->``
    the block is shown, not run (the reason is printed with the results);
``<!-- file: NAME -->``
    the block is written to NAME (relative to the repository) for the blocks after it;
``<!-- expected output -->``
    the block is what the previous block printed, compared line by line;
``<!-- run: cargo -->``
    a ``rust`` block is ``src/main.rs`` of a new Cargo project, outside the repository,
    whose ``Cargo.toml`` is the last ``toml`` block above it (a ``path`` dependency on
    the crate's folder ``.../core`` is pointed at this checkout); it is built and run.

Shell blocks run with ``bash -eo pipefail`` from the repository's root, with the
package's virtual environment first on ``PATH`` (``python`` is the Python that has the
package); files they create in the root are removed after the document. ``HOME`` is a
scratch folder, removed at the end, so that what the documents install for a user
(``make install PREFIX=$HOME/.local``, ``cargo install``, whose ``CARGO_INSTALL_ROOT`` is
``$HOME/.cargo``) lands there and nowhere else; ``$HOME/.cargo/bin`` and
``$HOME/.local/bin`` are on ``PATH``. Cargo and rustup keep their own folders
(``CARGO_HOME``, ``RUSTUP_HOME``), and Cargo builds into the repository's ``target/``. Python blocks
run in a scratch folder (so the source folder ``python/carcassonne`` cannot shadow the
installed package). Prints one line per block and ``docs: N passed, M failed, K skipped`` (K: not run).

Usage: python3 tests/docs/snippets.py [DOC.md ...]
       python3 tests/docs/snippets.py --extract DOC.md HEADING LANG OUT
         (writes the first LANG block under the heading to OUT, and the expected output
         after it to OUT.expected when there is one; used by tests/c/run.sh)
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional

ROOT = Path(__file__).resolve().parents[2]
VENV = Path(os.environ.get("CARC_VENV", ROOT / "target" / "python-venv"))
TIMEOUT = 900
#: Folders that builds create in the root: never removed by the clean-up.
KEEP = {"target", "out"}
MARKER = re.compile(r"^<!--\s*(not run|file|expected output|run)\s*:?\s*(.*?)\s*-->\s*$")


@dataclass
class Block:
    doc: Path
    line: int
    lang: str
    text: str
    heading: str
    marker: Optional[str] = None
    argument: str = ""


@dataclass
class Tally:
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    failures: List[str] = field(default_factory=list)


def blocks_of(doc: Path) -> List[Block]:
    """The fenced blocks of a Markdown document, each with the marker above it."""
    lines = doc.read_text(encoding="utf-8").splitlines()
    out: List[Block] = []
    heading = ""
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
        if line.startswith("```"):
            lang = line[3:].strip().split(" ")[0]
            start = i
            i += 1
            body = []
            while i < len(lines) and lines[i].rstrip() != "```":
                body.append(lines[i])
                i += 1
            block = Block(doc, start + 1, lang, "\n".join(body) + "\n", heading)
            above = lines[start - 1].strip() if start > 0 else ""
            m = MARKER.match(above)
            if m:
                block.marker, block.argument = m.group(1), m.group(2)
            out.append(block)
        i += 1
    return out


def same_output(expected: str, actual: str) -> bool:
    norm = lambda s: [l.rstrip() for l in s.strip("\n").splitlines()]  # noqa: E731
    return norm(expected) == norm(actual)


def environment(scratch: Path) -> dict:
    """The environment of the blocks: a scratch ``HOME`` (see the module's text)."""
    env = dict(os.environ)
    real_home = Path.home()
    env.setdefault("CARGO_HOME", str(real_home / ".cargo"))
    env.setdefault("RUSTUP_HOME", str(real_home / ".rustup"))
    env.setdefault("CARGO_TARGET_DIR", str(ROOT / "target"))
    home = scratch / "home"
    home.mkdir(exist_ok=True)
    env["HOME"] = str(home)
    env["CARGO_INSTALL_ROOT"] = str(home / ".cargo")
    paths = [str(home / ".cargo" / "bin"), str(home / ".local" / "bin")]
    if (VENV / "bin").is_dir():
        paths.append(str(VENV / "bin"))
        env["VIRTUAL_ENV"] = str(VENV)
    env["PATH"] = os.pathsep.join(paths + [env.get("PATH", "")])
    env.setdefault("MPLBACKEND", "Agg")
    return env


def run(cmd: List[str], cwd: Path, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=TIMEOUT
    )


def cargo_project(block: Block, toml: Optional[str], scratch: Path) -> List[str]:
    if toml is None:
        raise ValueError("no toml block above the rust program")
    project = Path(tempfile.mkdtemp(prefix="rust-", dir=scratch))
    core = (ROOT / "core").as_posix()
    manifest = re.sub(r'path\s*=\s*"[^"]*core"', f'path = "{core}"', toml)
    if "[workspace]" not in manifest:
        manifest += "\n[workspace]\n"
    (project / "Cargo.toml").write_text(manifest, encoding="utf-8")
    (project / "src").mkdir()
    (project / "src" / "main.rs").write_text(block.text, encoding="utf-8")
    shutil.copy(ROOT / "Cargo.lock", project / "Cargo.lock")
    return ["cargo", "run", "-q", "--manifest-path", str(project / "Cargo.toml")]


def check_doc(doc: Path, tally: Tally, scratch: Path, env: dict) -> None:
    before = set(os.listdir(ROOT))
    written: List[Path] = []
    last_output: Optional[str] = None
    toml: Optional[str] = None
    try:
        for block in blocks_of(doc):
            where = f"{doc.relative_to(ROOT)}:{block.line}"
            if block.lang == "toml":
                toml = block.text
            if block.marker == "file":
                path = ROOT / block.argument
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(block.text, encoding="utf-8")
                written.append(path)
                continue
            if block.marker == "expected output":
                if last_output is None:
                    tally.failed += 1
                    tally.failures.append(f"{where}: expected output of a block that did not run")
                    print(f"!! FAILED {where}: expected output of a block that did not run")
                elif same_output(block.text, last_output):
                    tally.passed += 1
                    print(f"ok   {where} output as documented")
                else:
                    tally.failed += 1
                    tally.failures.append(f"{where}: output differs")
                    print(f"!! FAILED {where}: output differs\n-- documented:\n{block.text}-- printed:\n{last_output}")
                continue
            runnable = block.lang in ("sh", "python") or (block.lang == "rust" and block.marker == "run")
            if not runnable:
                continue
            if block.marker == "not run":
                tally.skipped += 1
                print(f"skip {where} {block.lang}: {block.argument}")
                last_output = None
                continue
            if block.lang == "sh":
                cmd, cwd = ["bash", "-eo", "pipefail", "-c", block.text], ROOT
            elif block.lang == "python":
                script = scratch / f"snippet-{block.line}.py"
                script.write_text(block.text, encoding="utf-8")
                python = str(VENV / "bin" / "python") if (VENV / "bin" / "python").exists() else sys.executable
                cmd, cwd = [python, str(script)], scratch
            else:
                cmd, cwd = cargo_project(block, toml, scratch), scratch
            t0 = time.monotonic()
            try:
                done = run(cmd, cwd, env)
                code, out, err = done.returncode, done.stdout, done.stderr
            except subprocess.TimeoutExpired:
                code, out, err = -1, "", f"timed out after {TIMEOUT} s"
            seconds = time.monotonic() - t0
            last_output = out if code == 0 else None
            if code == 0:
                tally.passed += 1
                print(f"ok   {where} {block.lang} ({seconds:.1f} s)")
            else:
                tally.failed += 1
                tally.failures.append(f"{where}: exit status {code}")
                print(f"!! FAILED {where} {block.lang}: exit status {code}\n{block.text}-- stdout:\n{out[-3000:]}-- stderr:\n{err[-3000:]}")
    finally:
        for path in written:
            path.unlink(missing_ok=True)
        for name in set(os.listdir(ROOT)) - before:
            if name.startswith(".") or name in KEEP:
                continue
            target = ROOT / name
            if target.is_dir() and not target.is_symlink():
                shutil.rmtree(target, ignore_errors=True)
            else:
                target.unlink(missing_ok=True)


def extract(doc: Path, heading: str, lang: str, out: Path) -> int:
    blocks = blocks_of(doc)
    for i, block in enumerate(blocks):
        if block.heading == heading and block.lang == lang:
            out.write_text(block.text, encoding="utf-8")
            expected = next(
                (b for b in blocks[i + 1 :] if b.marker == "expected output" and b.heading == heading), None
            )
            if expected is not None:
                Path(f"{out}.expected").write_text(expected.text, encoding="utf-8")
            return 0
    print(f"{doc}: no {lang} block under the heading {heading!r}", file=sys.stderr)
    return 1


def main(argv: List[str]) -> int:
    if argv[:1] == ["--extract"]:
        if len(argv) != 5:
            print(__doc__, file=sys.stderr)
            return 2
        return extract(Path(argv[1]), argv[2], argv[3], Path(argv[4]))
    docs = [Path(a).resolve() for a in argv] or [
        ROOT / "README.md",
        ROOT / "python" / "README.md",
        *sorted((ROOT / "docs").glob("*.md")),
    ]
    tally = Tally()
    with tempfile.TemporaryDirectory(prefix="carc-docs-") as tmp:
        env = environment(Path(tmp))
        for doc in docs:
            check_doc(doc, tally, Path(tmp), env)
    for failure in tally.failures:
        print(f"failed: {failure}")
    print(f"docs: {tally.passed} passed, {tally.failed} failed, {tally.skipped} skipped")
    return 0 if tally.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
