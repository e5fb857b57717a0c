# The two set-up commands: `make demo` and `make test` (each creates .venv and installs first).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PLAYTEST := $(BIN)/playtest

.PHONY: demo demo-sea-trade demo-bus demo-circus-train test install bench clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

demo: demo-sea-trade demo-bus demo-circus-train

demo-sea-trade: $(STAMP)
	$(PLAYTEST) run sea_trade --players 4 --games 1000000 --seed 1 --out runs/demo-sea_trade-4p
	$(PLAYTEST) ladder sea_trade --players 4 --base trader,raider,blocker,balanced --playouts 0,2,4 --games 80 \
		--seed 1 --out runs/demo-sea_trade-ladder-4p
	$(PLAYTEST) report runs/demo-sea_trade-4p --ladder runs/demo-sea_trade-ladder-4p --out reports/sea_trade

demo-bus: $(STAMP)
	$(PLAYTEST) run bus --players 4 --games 1000000 --seed 1 --out runs/demo-bus-4p
	$(PLAYTEST) run bus --players 3 --games 200000 --seed 1 --out runs/demo-bus-3p
	$(PLAYTEST) run bus --players 5 --games 200000 --seed 1 --out runs/demo-bus-5p
	$(PLAYTEST) ladder bus --players 4 --base balanced,commuter,expander,builder --playouts 0,4,16 --games 200 \
		--seed 1 --out runs/demo-bus-ladder-4p
	$(PLAYTEST) report runs/demo-bus-4p runs/demo-bus-3p runs/demo-bus-5p --ladder runs/demo-bus-ladder-4p \
		--out reports/bus

demo-circus-train: $(STAMP)
	$(PLAYTEST) run circus_train --players 4 --games 200000 --seed 1 --out runs/demo-circus_train-4p
	$(PLAYTEST) run circus_train --players 2 --games 50000 --seed 1 --out runs/demo-circus_train-2p
	$(PLAYTEST) run circus_train --players 3 --games 50000 --seed 1 --out runs/demo-circus_train-3p
	$(PLAYTEST) run circus_train --players 5 --games 50000 --seed 1 --out runs/demo-circus_train-5p
	$(PLAYTEST) report runs/demo-circus_train-4p runs/demo-circus_train-2p runs/demo-circus_train-3p \
		runs/demo-circus_train-5p --out reports/circus_train

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 tests

bench: $(STAMP)
	$(PLAYTEST) bench sea_trade --players 4
	$(PLAYTEST) bench bus --players 4
	$(PLAYTEST) bench circus_train --players 4

clean:
	rm -rf $(VENV) runs
