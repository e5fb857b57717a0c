"""Circus Train log schema: the game's own columns (the core puts the standard ones first)."""

from __future__ import annotations

from sim.circus_train.data import CARDS, MONTHS, TALENT_TYPES
from sim.circus_train.state import ST
from sim.core.records import Column, columns_namespace, game_record, player_record

END_LABELS = ("september",)
"""The game always ends after the 27th week (CT-CAL-1, CT-SCORE-FINAL-0)."""
END_SEPTEMBER = END_LABELS.index("september")
SOLO_BANDS = ("collapse", "defeat", "draw", "victory", "incredible")
"""Solitaire result bands (CT-SOLO-8), the codes of ``solo_band``."""

_GAME = [
    ("rounds", "weeks played (27, CT-CAL-1)"),
    ("end_reason", "always 'september': the game ends after the last week (CT-SCORE-FINAL-0)"),
    ("winner_seat", "seat of the sole winner after the tie-breaks (CT-WIN-1), -1 when shared"),
    ("weeks", "calendar weeks completed"),
    ("catchups", "catch-up steals that took a counter (CT-CATCHUP-1)"),
    ("events_revealed", "Event cards revealed (optional rule, CT-OPT-EVENT-2)"),
    ("fired_groups", "groups of fired talent placed on a city (CT-FIRE-2)"),
    ("bag_left", "counters left in the bag at the end"),
    ("replacements", "cities replenished by Roustabout phases (CT-ROUST-2)"),
    ("bag_empty_week", "first week after whose Roustabout phase the bag in use was empty, 0 never"),
    ("quota_short_weeks", "weeks that began with fewer occupied cities than the month's quota (bag empty)"),
    ("solo_band", "solitaire result band (0 collapse .. 4 incredible, CT-SOLO-8), -1 with 2+ players"),
]

_STAT = {  # the per-player counters of state.ST, in order (a card or month block is expanded below)
    "start_city": "start city index (0-based, data/map.json order; CT-SETUP-13)",
    "vp_talent": "VP from most talent at month ends (CT-SCORE-MONTH-1; solitaire: paid as money)",
    "vp_best": "VP from best performance and the April rule at month ends (CT-SCORE-MONTH-2..4)",
    "vp_points": "VP from Points counters (CT-PTS-1; solitaire: paid as money)",
    "vp_final": "net change at final scoring, taxes included: VP, or money in solitaire (end wages included)",
    "performances": "performances scored (CT-PERF-*)",
    "shows_started": "two-week shows started (CT-TWO-1)",
    "perf_money": "money earned by performances (CT-PERF-8, CT-SOLO-3)",
    "hire_rolls": "hire dice rolled (CT-HIRE-2)",
    "hired": "counters hired (roll, $10 buy or Smuggler Sam)",
    "hire_buys": "$10 buys after a failed roll (CT-HIRE-3)",
    "steal_rolls": "steal dice rolled (CT-STEAL-1)",
    "stolen": "counters taken by Overnight Hire steals",
    "robbed": "counters lost to steals and catch-up steals",
    "reserve_buys": "Special Hire buys from the reserve (CT-SPH-1)",
    "special_declined": "Special Hires declined while a hire, steal or buy was open (CT-SPH-1, CT-AMB-42)",
    "wages_paid": "money paid in wages (taxes and solitaire end wages included)",
    "fired": "counters released by wage payments (CT-FIRE-1, CT-ADV-WAGE-1)",
    "catchups": "catch-up steals made (CT-CATCHUP-1)",
    "recruits": "Special Characters recruited (CT-OPT-CHAR-4)",
    "replays": "discards replayed (CT-ADV-REPLAY-1, Engineer Eddie)",
    "pockets": "times wages were pocketed (CT-ADV-POCKET-1)",
    "parades": "parades (CT-ADV-PARADE-1)",
    "rest_rewards": "Rest-in-Canada rewards (CT-ADV-REST-1)",
    "distance": "shortest-path steps between the cities left and reached by each movement",
    "dead_end_weeks": "weeks ended in a city with a single rail line (Omaha, St. Louis, Louisville, ...)",
    "points_taken": "Points counters claimed (CT-PTS-1)",
}


def _stat_columns() -> list[Column]:
    cols = [Column(n, _STAT[n]) for n in ST._fields if n in _STAT]
    cols += [Column(f"card_{c}", f"times {c} was played or replayed") for c in CARDS]
    cols += [Column(f"money_{m}", f"money at the end of {m.capitalize()}, after its scoring") for m in MONTHS]
    cols += [Column(f"vp_{m}", f"VP at the end of {m.capitalize()}, after its scoring") for m in MONTHS]
    cols += [Column(f"start_{t}", f"{t} counters chosen at setup (CT-SETUP-8)") for t in TALENT_TYPES]
    cols += [Column(f"hired_{t}", f"{t} counters hired (roll, $10 buy, Smuggler Sam) or bought from the reserve")
             for t in TALENT_TYPES]
    assert len(cols) == len(ST), "records: one column per state.ST counter, in order"
    return cols


_PLAYER = [
    ("score", "VP (CT-WIN-1); money in solitaire (CT-SOLO-2); the Best Performance marker in the simple variant"),
    ("rank", "1 = best after the tie-breaks (Best Performance, money, PR counters); exact ties share"),
    ("won", "1 for each winner"),
    ("vp", "victory points at the end"),
    ("money", "money at the end"),
    ("best_performance", "Best Performance marker (CT-PERF-7)"),
    ("requests", "performance request counters owned (CT-PERF-6)"),
    ("reputation", "reputation box index at the end (advanced game, CT-REP-1), -1 in the basic game"),
    ("solo_band", "solitaire result band (0 collapse .. 4 incredible, CT-SOLO-8), -1 with 2+ players"),
    ("talent", "talent counters owned at the end"),
    *[(f"{t}s" if not t.endswith("s") else t, f"{t} counters owned at the end") for t in TALENT_TYPES],
    ("characters", "Special Characters owned at the end (CT-OPT-CHAR-*)"),
    ("turn_order", "place in turn order from the first player drawn at setup, 0 = first (CT-SETUP-7; the seats of "
                   "CT-SEAT-1)"),
]
GAME_COLUMNS = game_record(END_LABELS, dict(_GAME[:3]), [Column(n, d) for n, d in _GAME[3:]])
PLAYER_COLUMNS = player_record(dict(_PLAYER[:3]), [Column(n, d) for n, d in _PLAYER[3:]] + _stat_columns())
GC = columns_namespace("GC", GAME_COLUMNS)
"""Game column -> index (``st.games[GC.catchups]``)."""
PC = columns_namespace("PC", PLAYER_COLUMNS)
"""Player column -> index; the talent types follow ``PC.clowns`` and the ST counters follow ``PC.start_city`` in
state order."""
