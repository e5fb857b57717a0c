# The two set-up commands: `make demo` and `make test` (each creates .venv and installs first).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test install bench clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/playtest run sea_trade --players 4 --games 1000000 --rotate --seed 1 --out runs/demo-sea_trade
	$(BIN)/playtest report runs/demo-sea_trade --out reports/sea_trade

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 tests

bench: $(STAMP)
	$(BIN)/playtest bench sea_trade --players 4

clean:
	rm -rf $(VENV) runs
