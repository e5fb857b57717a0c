# The two set-up commands: `make demo` and `make test` (each creates .venv and installs first).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PLAYTEST := $(BIN)/playtest

.PHONY: demo demo-sea-trade demo-bus demo-circus-train demo-seven-wonders test install bench clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

demo: demo-sea-trade demo-bus demo-circus-train demo-seven-wonders

demo-sea-trade: $(STAMP)
	$(PLAYTEST) run sea_trade --players 4 --games 1000000 --seed 1 --out runs/demo-sea_trade-4p
	$(PLAYTEST) report runs/demo-sea_trade-4p --out reports/sea_trade

demo-bus: $(STAMP)
	$(PLAYTEST) run bus --players 4 --games 1000000 --seed 1 --out runs/demo-bus-4p
	$(PLAYTEST) run bus --players 3 --games 200000 --seed 1 --out runs/demo-bus-3p
	$(PLAYTEST) run bus --players 5 --games 200000 --seed 1 --out runs/demo-bus-5p
	$(PLAYTEST) report runs/demo-bus-4p runs/demo-bus-3p runs/demo-bus-5p --out reports/bus

demo-circus-train: $(STAMP)
	$(PLAYTEST) run circus_train --players 4 --games 200000 --seed 1 --out runs/demo-circus_train-4p
	$(PLAYTEST) run circus_train --players 2 --games 50000 --seed 1 --out runs/demo-circus_train-2p
	$(PLAYTEST) run circus_train --players 3 --games 50000 --seed 1 --out runs/demo-circus_train-3p
	$(PLAYTEST) run circus_train --players 5 --games 50000 --seed 1 --out runs/demo-circus_train-5p
	$(PLAYTEST) report runs/demo-circus_train-4p runs/demo-circus_train-2p runs/demo-circus_train-3p \
		runs/demo-circus_train-5p --out reports/circus_train

SW_RUN := $(PLAYTEST) run seven_wonders --seed 1 --set wonder_sides=2
SW_DATA := $(BIN)/python -c 'import sys; from analysis.sections.seven_wonders import write_perturbed_data as w; \
	print("\n".join(w(sys.argv[1], int(sys.argv[2]))))'

# 7 Wonders + Babel: random board sides; base game and stand-in data perturbed one step down and up (SW-STUDY-5/8).
demo-seven-wonders: $(STAMP)
	$(SW_RUN) --players 4 --games 200000 --out runs/demo-seven_wonders-4p
	$(SW_RUN) --players 3 --games 30000 --out runs/demo-seven_wonders-3p
	$(SW_RUN) --players 5 --games 30000 --out runs/demo-seven_wonders-5p
	$(SW_RUN) --players 7 --games 30000 --out runs/demo-seven_wonders-7p
	$(SW_RUN) --players 4 --games 100000 --set babel_tower=false --set great_projects=false \
		--out runs/demo-seven_wonders-4p-base
	$(SW_DATA) runs/sw-data-minus -1
	$(SW_DATA) runs/sw-data-plus 1
	$(SW_RUN) --players 4 --games 40000 --set data=runs/sw-data-minus --out runs/demo-seven_wonders-4p-minus
	$(SW_RUN) --players 4 --games 40000 --set data=runs/sw-data-plus --out runs/demo-seven_wonders-4p-plus
	$(PLAYTEST) report runs/demo-seven_wonders-4p runs/demo-seven_wonders-3p runs/demo-seven_wonders-5p \
		runs/demo-seven_wonders-7p runs/demo-seven_wonders-4p-base runs/demo-seven_wonders-4p-minus \
		runs/demo-seven_wonders-4p-plus --out reports/seven_wonders

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 tests

bench: $(STAMP)
	$(PLAYTEST) bench sea_trade --players 4
	$(PLAYTEST) bench bus --players 4
	$(PLAYTEST) bench circus_train --players 4
	$(PLAYTEST) bench seven_wonders --players 4

clean:
	rm -rf $(VENV) runs
