# Two entry points: `make run` builds everything and plays a demo game; `make test` runs
# every check CI runs. Other targets are conveniences.

CARGO ?= cargo
OUT ?= out

.PHONY: run run-check generate generate-check test test-plan test-leftovers build install uninstall rust-checks rust-tests c-tests html-tests play-tests python-tests docs-tests bench bench-ab bench-bots notebook screenshots clean

# Where `make install` puts the C library (DESTDIR, LIBDIR, INCLUDEDIR, DATADIR also apply).
PREFIX ?= /usr/local

# The command line, built in release mode.
CARC = $(CARGO) run --release -q -p carcassonne-cli --
# The Royal Gift sets: what the README and docs mean by the name (the demo adds the
# Abbot: --abbot 1).
ROYAL_GIFT = base,river1,river2,princess-and-dragon,count,king-and-robber,cult,bridges-castles-and-bazaars
# The demo game: 2 players, the Royal Gift sets, an MCTS player (200 iterations per
# decision) against the greedy player; this seed's board fits 120 columns.
DEMO = play --sets $(ROYAL_GIFT) --abbot 1 --bots mcts:200,greedy --seed 2

## Build everything (about 7 minutes from a fresh clone on 2 cores), then play the demo
## game (about 15 s, the game alone): print the board and where each
## seat's points came from, and write the record, the board as SVG and the HTML replay to
## out/ (open demo-replay.html in a browser).
run: build
	mkdir -p $(OUT)
	$(CARC) $(DEMO) --out $(OUT)/demo-record.json
	$(CARC) render $(OUT)/demo-record.json --svg $(OUT)/demo-board.svg --html $(OUT)/demo-replay.html --quiet
	@echo "board: $(OUT)/demo-board.svg, replay: $(OUT)/demo-replay.html (open them in a browser)"

build:
	$(CARGO) build --release --workspace

## Install the C library: header, shared and static libraries, pkg-config file, CMake
## package, valgrind suppression, licenses (tools/install.sh lists every file).
install:
	$(CARGO) build --release -p carcassonne-ffi
	PREFIX="$(PREFIX)" bash tools/install.sh install

uninstall:
	PREFIX="$(PREFIX)" bash tools/install.sh uninstall

## Every test: formatting, lints, docs, Rust tests (reference games included), the C ABI
## from C, C++ and C#, the HTML replay in headless Chromium, a person's games in the
## terminal and in the browser page, the Python package (the example notebook included),
## and every command and program of the READMEs and docs.
## It first prints what it installs, where and how big (tools/test-plan.sh), and at the
## end checks that it left nothing under /usr/local.
test: test-plan rust-checks rust-tests generate-check c-tests html-tests play-tests python-tests docs-tests run-check test-leftovers

# Files written under this folder during `make test` fail it: the tests install nothing
# outside the repository but through the system's package manager (whose files go to /usr).
SYSTEM_PREFIX ?= /usr/local
STAMP = target/.make-test-started

# The demo of `make run` plays its game and prints nothing wider than 120 columns.
run-check:
	mkdir -p target
	$(CARC) $(DEMO) --out target/demo-record.json >target/demo.txt
	@awk 'length > 120 { print "make run prints a line of " length " columns (at most 120): " $$0; bad = 1 } END { exit bad }' target/demo.txt
	@echo "== make run: $$(wc -l <target/demo.txt) lines of at most 120 columns"

test-plan:
	@bash tools/test-plan.sh
	@mkdir -p target && touch $(STAMP)

test-leftovers:
	@left=$$(find $(SYSTEM_PREFIX) -newer $(STAMP) ! -type d 2>/dev/null | head -n 20); \
	if [ -n "$$left" ]; then echo "make test wrote under $(SYSTEM_PREFIX):"; echo "$$left"; exit 1; fi; \
	echo "== nothing written under $(SYSTEM_PREFIX)"

rust-checks:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps
	# The C library's crate is named like the C library (libcarcassonne), so its Rust docs
	# are built apart, where they cannot replace the rules crate's target/doc/carcassonne.
	RUSTDOCFLAGS="-D warnings" $(CARGO) rustdoc -p carcassonne-ffi --lib --target-dir target/ffi-doc

rust-tests:
	$(CARGO) test --workspace

## Regenerate every file derived from a declaration: the tile table, the C header, the C#
## binding's enums, the tables of docs/observations.md and docs/expansion-state.md, the
## Python action classes and state types (tools/generate.py lists them).
generate:
	python3 tools/generate.py

## Fail, changing nothing, when a generated file is not what its generator writes.
generate-check:
	python3 tools/generate.py --check

c-tests:
	bash tests/c/run.sh

html-tests:
	bash tests/html/run.sh

## A person's games against MCTS with every set: in the terminal through a
## pseudo-terminal, and in the browser page by clicks in headless Chromium.
play-tests:
	bash tests/play/run.sh

python-tests:
	bash python/build_and_test.sh

docs-tests:
	bash tests/docs/run.sh

## Run examples/analysis.ipynb and store it with its outputs (needs the Python package:
## the virtual environment of python/build_and_test.sh is used when present).
notebook:
	bash examples/make_notebook.sh

## The pictures of the README: docs/board.png (the SVG of a finished Royal Gift game) and
## docs/replay.png (its HTML replay at the middle turn in a 1280x800 window), taken with
## headless Chromium.
screenshots:
	bash tools/screenshots.sh
	SCREENSHOT=$(CURDIR)/docs/play.png SCREENSHOT_ITERATIONS=1500 bash tests/play/run.sh browser

## Benchmarks (the figures of docs/benchmarks.md come from these).
bench:
	$(CARC) bench --players 2 --sets base --seconds 10
	$(CARC) bench --players 2 --sets base,river1,river2 --abbot 1 --seconds 10
	$(CARC) bench --players 2 --sets base,princess-and-dragon --seconds 10
	$(CARC) bench --players 4 --sets base,river1,river2,princess-and-dragon,abbey-and-mayor --abbot 1 --seconds 10
	$(CARC) bench --players 4 --sets base,count,king-and-robber,cult --seconds 10
	$(CARC) bench --players 4 --sets base,bridges-castles-and-bazaars --seconds 10
	$(CARC) bench --players 4 --sets $(ROYAL_GIFT_SETS) --abbot 1 --seconds 10
	$(CARC) bench --players 4 --sets base,tower --seconds 10
	$(CARC) bench --players 4 --sets base,inns-and-cathedrals,traders-and-builders --seconds 10
	$(CARC) bench --players 4 --sets $(ROYAL_GIFT_SETS),inns-and-cathedrals,tower --abbot 1 --seconds 10
	$(CARC) bench --players 4 --sets $(ROYAL_GIFT_SETS),inns-and-cathedrals,traders-and-builders,tower --abbot 1 --seconds 10
	$(CARC) bench --players 4 --sets base,hills-and-sheep --seconds 10
	$(CARC) bench --players 4 --sets $(ROYAL_GIFT_SETS),inns-and-cathedrals,traders-and-builders,tower,hills-and-sheep --abbot 1 --seconds 10

## Another commit against the working tree (docs/benchmarks.md): instructions per game and
## per decision of both under callgrind (the same games), games/s and MCTS iterations/s in
## alternating rounds; ARGS="--vector" adds the VectorEnv A/B (tools/bench_ab.py --help).
bench-ab:
	@test -n "$(REV)" || { echo "usage: make bench-ab REV=<commit> [ARGS=...]"; exit 2; }
	python3 tools/bench_ab.py $(REV) $(ARGS)

## The built-in players (docs/bots.md): MCTS search speed per set,
## then the matches of the strength table (long: hours on two cores). ROYAL_GIFT_SETS: the
## Royal Gift sets (ROYAL_GIFT) and abbey-and-mayor, nine keys (the figures of the docs were
## measured with them).
ROYAL_GIFT_SETS = base,river1,river2,princess-and-dragon,abbey-and-mayor,count,king-and-robber,cult,bridges-castles-and-bazaars
bench-bots:
	for sets in base base,river1 base,river2 base,princess-and-dragon base,abbey-and-mayor \
	    base,count base,king-and-robber base,cult base,bridges-castles-and-bazaars; do \
	    $(CARC) bench --bot mcts:1000 --players 2 --sets $$sets --seconds 30 | tail -1; done
	$(CARC) bench --bot mcts:1000 --players 2 --sets $(ROYAL_GIFT_SETS) --abbot 1 --seconds 30 | tail -1
	$(CARC) match --bots mcts:1500,greedy --games 400 --players 2 --sets base --threads 2
	$(CARC) match --bots mcts:150,greedy --games 400 --players 2 --sets base --threads 2
	$(CARC) match --bots mcts:1500,mcts:150 --games 200 --players 2 --sets base --threads 2
	$(CARC) match --bots mcts:150,greedy --games 40 --players 2 --sets $(ROYAL_GIFT_SETS) --abbot 1 --threads 1
	$(CARC) match --bots mcts:50,greedy --games 40 --players 2 --sets $(ROYAL_GIFT_SETS) --abbot 1 --threads 1
	$(CARC) match --bots mcts:150,mcts:50 --games 20 --players 2 --sets $(ROYAL_GIFT_SETS) --abbot 1 --threads 1
	$(CARC) match --bots mcts:500,greedy --games 40 --players 2 --sets $(ROYAL_GIFT_SETS) --abbot 1 --threads 2
	$(CARC) match --bots mcts:500,mcts:150 --games 20 --players 2 --sets $(ROYAL_GIFT_SETS) --abbot 1 --threads 2

clean:
	$(CARGO) clean
	rm -rf $(OUT)
