# The two commands of the README: `make local` (play in a browser) and `make test`.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: local test lint typecheck venv system-packages redis-server

$(BIN)/activate: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test,dev]'
	touch $(BIN)/activate

venv: $(BIN)/activate

local: venv
	$(BIN)/tetrad local

# redis-server, Chromium and the fonts come from the system packages, each when missing.
system-packages:
	@bash .ci/install-system-packages

redis-server: system-packages

# The suite on pytest-xdist, two workers per core, at most 16 (JOBS=0: in one process, as a
# plain `pytest` does): most of the suite's bot tests wait (for a poll, a worker, a clock)
# rather than compute, and with a worker per core the CPU was half idle (2 cores: 12 min
# with 2 workers, 7.5 min with 4, docs/TESTING.md). Worksteal, because a few tests take
# half a minute and most a fraction of a second.
# PYTEST_ARGS picks tests or adds options: make test PYTEST_ARGS='tests/bot -x'.
JOBS ?= $(shell n=$$(( 2 * $$(nproc) )); echo $$(( n < 16 ? n : 16 )))
PYTEST_ARGS ?=

test: system-packages venv
	$(BIN)/pytest -n $(JOBS) --dist worksteal $(PYTEST_ARGS)

lint: venv
	$(BIN)/ruff check .

# The packages the bot ships are held to --strict; the tests and benches to mypy's default
# level (their test functions' bodies are checked where annotated).
TYPED := bot storage playground render engine
CHECKED := tests bench

typecheck: venv
	$(BIN)/mypy --strict $(TYPED)
	$(BIN)/mypy $(CHECKED)
