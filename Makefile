# The two set-up commands: `make demo` (a tour of every game and the main verbs, about 4.5 minutes from a fresh clone after a 1-minute install) and `make test`
# (each creates .venv and installs first). `make reports` regenerates the committed reports under reports/.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PLAYTEST := $(BIN)/playtest

.PHONY: demo tour-pig tour-sea-trade tour-bus tour-circus-train tour-seven-wonders reports reports-sea-trade reports-bus \
	reports-circus-train reports-seven-wonders reports-sweeps reports-balance reports-balance-bus \
	reports-balance-sea-trade reports-ladder-bus harden-bus-4p test fuzz install bench clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# The tour: every game played and reported, and one main verb each (sweep, ladder, A/B, which writes its own
# report, replay), two games at a time, into runs/tour/ (the committed reports are not touched).
# Open runs/tour/<game>/report/index.html. Each command plays on one core (--jobs 1): make already runs two
# tours at once, and a command's own workers would only load the same compiled kernels again (the logs are the
# same on any number of workers).
TOUR := runs/tour
ONE := --jobs 1
demo: $(STAMP)
	$(MAKE) --no-print-directory -j2 tour-pig tour-sea-trade tour-bus tour-circus-train tour-seven-wonders
	@echo "tour done: open $(TOUR)/*/report/index.html (make reports regenerates reports/)"

tour-pig: $(STAMP)
	$(PLAYTEST) run pig --players 2 --games 20000 --seed 1 $(ONE) --out $(TOUR)/pig
	$(PLAYTEST) report $(TOUR)/pig
	$(PLAYTEST) replay pig --players 2 --seed 1 --game-index 0 > $(TOUR)/pig-game-0.txt

tour-sea-trade: $(STAMP)
	$(PLAYTEST) run sea_trade --players 4 --games 50000 --seed 1 $(ONE) --out $(TOUR)/sea_trade
	$(PLAYTEST) sweep sea_trade --players 4 --games 10000 --vary win_gold=20,25,30 --seed 1 $(ONE) --out $(TOUR)/sea_trade-sweep
	$(PLAYTEST) report $(TOUR)/sea_trade
	$(PLAYTEST) report $(TOUR)/sea_trade-sweep

tour-bus: $(STAMP)
	$(PLAYTEST) run bus --players 4 --games 50000 --seed 1 $(ONE) --out $(TOUR)/bus
	$(PLAYTEST) ladder bus --players 4 --base balanced,commuter,expander,builder --playouts 0,4 --games 60 --seed 1 $(ONE) \
		--out $(TOUR)/bus-ladder
	$(PLAYTEST) report $(TOUR)/bus --ladder $(TOUR)/bus-ladder
	$(PLAYTEST) replay bus --players 4 --seed 1 --game-index 0 > $(TOUR)/bus-game-0.txt

tour-circus-train: $(STAMP)
	$(PLAYTEST) run circus_train --players 4 --games 20000 --seed 1 $(ONE) --out $(TOUR)/circus_train
	$(PLAYTEST) ab circus_train --players 4 --games 5000 --base miser --variant random --seed 1 $(ONE) \
		--out $(TOUR)/circus_train-ab
	$(PLAYTEST) report $(TOUR)/circus_train

tour-seven-wonders: $(STAMP)
	$(PLAYTEST) run seven_wonders --players 4 --games 10000 --seed 1 $(ONE) --out $(TOUR)/seven_wonders
	$(PLAYTEST) report $(TOUR)/seven_wonders

# The regeneration of every committed report (about an hour on two cores).
reports: reports-sea-trade reports-bus reports-circus-train reports-seven-wonders reports-sweeps reports-balance \
	reports-ladder-bus

reports-sea-trade: $(STAMP)
	$(PLAYTEST) run sea_trade --players 4 --games 1000000 --seed 1 --out runs/demo-sea_trade-4p
	$(PLAYTEST) ladder sea_trade --players 4 --base trader,raider,blocker,balanced --playouts 0,2,4 --games 80 \
		--seed 1 --out runs/demo-sea_trade-ladder-4p
	$(PLAYTEST) run sea_trade --players 4 --games 200000 --seed 1 \
		--population reports/harden-sea_trade-4p/population.json --out runs/demo-sea_trade-4p-population
	$(PLAYTEST) report runs/demo-sea_trade-4p --ladder runs/demo-sea_trade-ladder-4p \
		--strong runs/demo-sea_trade-4p-population --out reports/sea_trade

reports-bus: reports-ladder-bus
	$(PLAYTEST) run bus --players 4 --games 1000000 --seed 1 --out runs/demo-bus-4p
	$(PLAYTEST) run bus --players 3 --games 200000 --seed 1 --out runs/demo-bus-3p
	$(PLAYTEST) run bus --players 5 --games 200000 --seed 1 --out runs/demo-bus-5p
	$(PLAYTEST) ladder bus --players 4 --base balanced,commuter,expander,builder --playouts 0,4,16 --games 200 \
		--seed 1 --out runs/demo-bus-ladder-4p
	for n in 3 4 5; do $(PLAYTEST) run bus --players $$n --games 200000 --seed 1 \
		--population reports/harden-bus-$${n}p/population.json --out runs/demo-bus-$${n}p-population || exit 1; done
	$(PLAYTEST) report runs/demo-bus-4p runs/demo-bus-3p runs/demo-bus-5p --ladder runs/demo-bus-ladder-4p \
		--ladder runs/ladder-bus-4p-pop --strong runs/demo-bus-4p-population --strong runs/demo-bus-3p-population \
		--strong runs/demo-bus-5p-population --out reports/bus

# The committed Bus 4p population from the softmax pool (reports/harden-bus-4p, its README): linear rounds with
# fixed-scale searches, then Hedge with free searches from their population; about 25 minutes on two cores.
# Not part of `reports` (a new population changes every strong-play figure); the report targets read the file.
HARDEN_BUS := --search-games 228000 --block 500 --final-games 20000 --member-games 5000 --probe-games 400 \
	--probe-playouts 4 --jobs 2 --keep best --confirm 2
harden-bus-4p: $(STAMP)
	$(PLAYTEST) harden bus --players 4 --strategy-file reports/harden-bus-4p/softmax-run/soft10.json \
		--pool balanced-t10,commuter-t10,expander-t10,builder-t10,clockmaster-t10 --budget 11000000 \
		--meta-games 20000 --seed 2 --meta-solver linear --fixed-scale $(HARDEN_BUS) --out runs/hour/linear
	$(PLAYTEST) harden bus --players 4 --from-population runs/hour/linear/population.json --budget 60000000 \
		--seed 5000 --meta-solver hedge --searches 2 $(HARDEN_BUS) --out runs/hour/hedge
	for s in 500 600 700 800; do $(PLAYTEST) exploit bus --population runs/hour/hedge/population.json --seed $$s \
		--search-games 228000 --block 500 --final-games 20000 --member-games 5000 --searches 3 --record \
		--jobs 2 --out runs/hour/exploit-seed$$s || exit 1; done
	cp runs/hour/hedge/population.json runs/hour/hedge/history.* runs/hour/hedge/exploitability.png reports/harden-bus-4p/

# Bus 4p strength ladder over the hardened population, sized to resolve a 3-pt change (reports/ladder-bus-4p).
reports-ladder-bus: $(STAMP)
	$(PLAYTEST) ladder bus --players 4 --population reports/harden-bus-4p/population.json --playouts 0,4 \
		--until-ci 4.0 --games 12000 --seed 1 --out runs/ladder-bus-4p-pop
	mkdir -p reports/ladder-bus-4p
	cp runs/ladder-bus-4p-pop/report/* runs/ladder-bus-4p-pop/ladder.json reports/ladder-bus-4p/

# Circus Train: basic 2-5 players; the advanced game and one flipped decision (CT-AMB-37, the sensitivity study) on
# the same seed as the 4-player basic run (the report pairs them game by game); solitaire with every strategy
# (random seating draws one strategy per game).
CT_ALL := random,showman,collector,miser,raider
reports-circus-train: $(STAMP)
	$(PLAYTEST) run circus_train --players 4 --games 200000 --seed 1 --out runs/demo-circus_train-4p
	$(PLAYTEST) run circus_train --players 4 --games 50000 --seed 1 --set advanced=true \
		--out runs/demo-circus_train-4p-advanced
	$(PLAYTEST) run circus_train --players 4 --games 50000 --seed 1 --set hire_adaptive=false \
		--out runs/demo-circus_train-4p-hire-fixed
	$(PLAYTEST) run circus_train --players 2 --games 50000 --seed 1 --out runs/demo-circus_train-2p
	$(PLAYTEST) run circus_train --players 3 --games 50000 --seed 1 --out runs/demo-circus_train-3p
	$(PLAYTEST) run circus_train --players 5 --games 50000 --seed 1 --out runs/demo-circus_train-5p
	$(PLAYTEST) run circus_train --players 1 --games 50000 --seed 1 --strategies $(CT_ALL) \
		--out runs/demo-circus_train-1p
	$(PLAYTEST) run circus_train --players 4 --games 200000 --seed 1 \
		--population reports/harden-circus_train-4p/population.json --out runs/demo-circus_train-4p-population
	$(PLAYTEST) report runs/demo-circus_train-4p runs/demo-circus_train-4p-advanced \
		runs/demo-circus_train-4p-hire-fixed runs/demo-circus_train-2p runs/demo-circus_train-3p \
		runs/demo-circus_train-5p runs/demo-circus_train-1p --strong runs/demo-circus_train-4p-population \
		--out reports/circus_train

reports-sweeps: $(STAMP)
	$(PLAYTEST) sweep bus --players 4 --games 50000 --vary clock_gems_45p=3,4,5,6 --seed 1 --out runs/demo-sweep-bus
	$(PLAYTEST) report runs/demo-sweep-bus --out reports/sweep-bus-clock-gems
	$(PLAYTEST) sweep sea_trade --players 4 --games 50000 --vary win_gold=20,25,30 --seed 1 --out runs/demo-sweep-sea_trade
	$(PLAYTEST) report runs/demo-sweep-sea_trade --out reports/sweep-sea_trade-win-gold
	$(PLAYTEST) tune bus --players 4 --against commuter,expander,clockmaster --start balanced --budget 240000 \
		--block 1000 --final-games 20000 --seed 1 --out runs/demo-tune-bus
	$(PLAYTEST) report runs/demo-tune-bus --out reports/tune-bus

# Balance searches (issue 23): which seat compensation brings every seat within 2 pts of the fair share, raced on
# common random numbers and re-measured on a fresh seed, paired with the rules as printed (the grids bracket the
# compensation section's first guess; a few minutes each on two cores).
reports-balance: reports-balance-bus reports-balance-sea-trade

reports-balance-bus: $(STAMP)
	$(PLAYTEST) balance bus --players 4 --seed 1 --vary seat2_points=1,2 --vary seat2_wins_ties=false,true \
		--vary seat3_points=2,3 --vary seat3_wins_ties=false,true --vary seat4_points=2,3 \
		--vary seat4_wins_ties=false,true --budget 120000 --quiet --out runs/demo-balance-bus
	$(PLAYTEST) report runs/demo-balance-bus --out reports/balance-bus

reports-balance-sea-trade: $(STAMP)
	$(PLAYTEST) balance sea_trade --players 4 --seed 1 --vary seat2_gold=0,1,2 --vary seat3_gold=0,1,2 \
		--vary seat4_gold=0,1,2 --budget 80000 --quiet --out runs/demo-balance-sea_trade
	$(PLAYTEST) report runs/demo-balance-sea_trade --out reports/balance-sea_trade

SW_RUN := $(PLAYTEST) run seven_wonders --seed 1 --set wonder_sides=2
SW_DATA := $(BIN)/python -c 'import sys; from analysis.sections.seven_wonders import write_perturbed_data as w; \
	print("\n".join(w(sys.argv[1], int(sys.argv[2]))))'

# 7 Wonders + Babel: random board sides; base game and stand-in data perturbed one step down and up (SW-STUDY-5/8).
# The base game and the perturbed runs play the 4-player run's seed and game count, so the report pairs them game
# by game with it (a difference of two runs is then measured on the same deals, not two samples' noise).
SW_4P_GAMES := 200000
reports-seven-wonders: $(STAMP)
	$(SW_RUN) --players 4 --games $(SW_4P_GAMES) --out runs/demo-seven_wonders-4p
	$(SW_RUN) --players 3 --games 30000 --out runs/demo-seven_wonders-3p
	$(SW_RUN) --players 5 --games 30000 --out runs/demo-seven_wonders-5p
	$(SW_RUN) --players 7 --games 30000 --out runs/demo-seven_wonders-7p
	$(SW_RUN) --players 4 --games $(SW_4P_GAMES) --set babel_tower=false --set great_projects=false \
		--out runs/demo-seven_wonders-4p-base
	$(SW_DATA) runs/sw-data-minus -1
	$(SW_DATA) runs/sw-data-plus 1
	$(SW_RUN) --players 4 --games $(SW_4P_GAMES) --set data=runs/sw-data-minus --out runs/demo-seven_wonders-4p-minus
	$(SW_RUN) --players 4 --games $(SW_4P_GAMES) --set data=runs/sw-data-plus --out runs/demo-seven_wonders-4p-plus
	$(SW_RUN) --players 4 --games $(SW_4P_GAMES) --population reports/harden-seven_wonders-4p/population.json \
		--out runs/demo-seven_wonders-4p-population
	$(PLAYTEST) report runs/demo-seven_wonders-4p runs/demo-seven_wonders-3p runs/demo-seven_wonders-5p \
		runs/demo-seven_wonders-7p runs/demo-seven_wonders-4p-base runs/demo-seven_wonders-4p-minus \
		runs/demo-seven_wonders-4p-plus --strong runs/demo-seven_wonders-4p-population --out reports/seven_wonders

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 tests

# The release fuzz: 400 fresh rules variants per game (rollout seats included), bounds-checked (tests/fuzz_rules.py).
fuzz: $(STAMP)
	FUZZ_EXAMPLES=400 FUZZ_RANDOM=1 FUZZ_ROLLOUTS=1 $(BIN)/python -m pytest tests/test_fuzz_gate.py

bench: $(STAMP)
	$(PLAYTEST) bench pig --players 2
	$(PLAYTEST) bench sea_trade --players 4
	$(PLAYTEST) bench bus --players 4
	$(PLAYTEST) bench circus_train --players 4
	$(PLAYTEST) bench seven_wonders --players 4

clean:
	rm -rf $(VENV) runs
