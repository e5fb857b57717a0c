"""Circus Train rules: every rulebook number, variant, optional rule and CT-AMB decision as a Rules field.

Component values printed on the board, cards and counters (map, wages, quotas, prices, card ranges, counter
values, the reputation column) live in the data files (sim/circus_train/data.py), not here. Solitaire is not a
flag: it is the game with one player (CT-SOLO-*). Kernels read ``Rules.to_array()`` through the ``R`` namespace:
``rules[R.famous_threshold]``; a choice field holds the index of its value in ``CHOICES[field]``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from sim.core.errors import PlaytestError
from sim.core.names import namespace

CHOICES = {
    "solo_fired_city": ("player", "farthest"),  # CT-AMB-8
    "fired_city_policy": ("heuristic", "policy"),  # CT-AMB-33
    "most_money_level": ("dice", "box"),  # CT-AMB-17
    "solo_scoring": ("rulebook", "money_only"),  # CT-AMB-27
}
"""Values of the text-valued fields, in the order their index is stored in the kernel array."""


@dataclass(frozen=True)
class Rules:
    """Circus Train (2nd edition, Italian rulebook v1.0 with the Nov 2013 FAQ); defaults follow the rulebook."""

    # --- variants and optional rules
    advanced: bool = False  # CT-ADV-*, CT-REP-*: the advanced game
    special_characters: bool = False  # CT-OPT-CHAR-*: the six Special Characters
    event_cards: bool = False  # CT-OPT-EVENT-*: five Event cards (stand-in contents, CT-AMB-34)
    simple_variant: bool = False  # CT-OPT-SIMPLE-*: no Wage & Transit, no VP; best performance wins
    april_rule: bool = True  # CT-SCORE-MONTH-4: April pays 5 VP per performer instead of best performance (3+ p.)
    # --- setup
    start_money: int = 0  # CT-SETUP-1 / CT-AMB-1 (settled by the rulebook)
    start_clowns: int = 1  # CT-SETUP-1
    start_choice_talents: int = 2  # CT-SETUP-8: acrobats, freaks or horses
    best_start: int = 10  # CT-SETUP-2: Best Performance markers start at 10
    fill_start: int = 8  # CT-SETUP-10: occupied cities after setup
    # --- performing
    famous_threshold: int = 3  # CT-PERF-3
    famous_multiplier: int = 2  # CT-PERF-3
    new_best_money: int = 10  # CT-PERF-8
    bertha_bonus: int = 10  # CT-OPT-CHAR-10
    # --- hiring, stealing, wages
    hire_success_max: int = 4  # CT-HIRE-2: 1-4 succeeds in the basic game
    hire_buy_cost: int = 10  # CT-HIRE-3
    hire_adaptive: bool = True  # CT-AMB-37: choose the next target after seeing a failed roll
    steal_success_max: int = 4  # CT-STEAL-1
    steal_max: int = 2  # CT-AMB-21: counters per steal
    steal_character_extra: bool = False  # CT-AMB-21: True = up to steal_max talents plus one character
    ted_discount: int = 1  # CT-OPT-CHAR-11 / CT-AMB-25: per elephant, after solitaire doubling
    # --- end of month
    most_talent_min: int = 2  # CT-SCORE-MONTH-1
    best_vp_1: int = 7  # CT-SCORE-MONTH-2
    best_vp_2: int = 4  # CT-SCORE-MONTH-2
    best_vp_3: int = 2  # CT-SCORE-MONTH-2
    best_third_tie_vp: int = 1  # CT-SCORE-MONTH-2 / CT-AMB-12: each player tied for 3rd
    best_vp_2p: int = 4  # CT-SCORE-MONTH-3: 2-player variant, split on a tie
    april_vp: int = 5  # CT-SCORE-MONTH-4
    april_keeps_lower_places: bool = False  # CT-AMB-11 literal reading: April replaces only the 7-VP 1st place
    # --- final scoring (CT-SCORE-FINAL-*)
    taxes_vp: int = 3  # CT-SCORE-FINAL-1 (2 players)
    taxes_wage_multiplier: int = 2  # CT-SCORE-FINAL-1
    taxes_fire: bool = True  # CT-AMB-14: unpayable taxes fire talent by the wage rule
    most_vp: int = 5  # CT-SCORE-FINAL-2/5/6, CT-ADV-FINAL-1: a single leader
    most_shared_vp: int = 2  # the same awards when the most is shared
    no_clown_vp: int = 3  # CT-SCORE-FINAL-3
    no_animal_vp: int = 5  # CT-SCORE-FINAL-4, per missing animal type
    most_requires_positive: bool = True  # CT-AMB-15
    vp_floor: int = 0  # CT-VP-1 / CT-AMB-13 (settled by the rulebook)
    # --- advanced game
    replay_rep_cost: int = 2  # CT-ADV-REPLAY-1, April-July
    replay_vp_cost: int = 4  # CT-ADV-REPLAY-1, August-September (CT-AMB-18: allowed below 4 VP)
    pocket_money: int = 5  # CT-ADV-POCKET-1, per reputation step
    parade_cost: int = 10  # CT-ADV-PARADE-1
    parade_vp: int = 2  # CT-ADV-PARADE-1
    wage_release_vp: int = 3  # CT-ADV-WAGE-1, August-September, per released talent
    steal_rep_bonus: int = 1  # CT-ADV-STEAL-1: victim's reputation higher -> +1 per roll
    most_money_level: str = "dice"  # CT-AMB-17: "dice" (success_max >= 5) or "box" (index >= most_money_min_index)
    most_money_min_index: int = 4  # CT-AMB-17, the "box" reading
    most_money_ineligible_blocks: bool = True  # CT-AMB-39
    rest_week_1: bool = False  # CT-AMB-20: Rest may not be played in week 1
    # --- two-week shows, claims, board
    claim_requires_step: bool = True  # CT-AMB-4 / CT-MOVE-5
    two_week_reserved: bool = False  # CT-AMB-5 (True: the house rule)
    two_week_score_at_completion: bool = True  # CT-AMB-6 (False: talents and earlier PRs as at the start)
    lone_character_occupies: bool = False  # CT-AMB-9
    fired_city_policy: str = "heuristic"  # CT-AMB-33: "heuristic" or "policy" (the chooser's strategy decides)
    # --- special characters
    character_buy_any: bool = True  # CT-AMB-24
    character_yellow_window: bool = False  # CT-AMB-40
    # --- solitaire (CT-SOLO-*)
    solo_vp_money: int = 5  # CT-SOLO-5: $ per VP
    solo_wage_multiplier: int = 2  # CT-SOLO-4
    solo_replay_money: int = 20  # CT-SOLO-7
    solo_fired_city: str = "player"  # CT-AMB-8: "player" or "farthest"
    solo_scoring: str = "rulebook"  # CT-AMB-27: "rulebook" or "money_only"
    solo_most_awards: bool = True  # CT-AMB-27
    solo_most_money: bool = False  # CT-AMB-27
    solo_band_defeat: int = 100  # CT-SOLO-8: below this, collapse
    solo_band_draw: int = 141  # CT-SOLO-8
    solo_band_victory: int = 181  # CT-SOLO-8
    solo_band_incredible: int = 221  # CT-SOLO-8: above $220
    # --- simple variant
    simple_tiebreak: bool = True  # CT-AMB-41
    # --- component files
    data: str = ""  # CT-COMP-*: "" = the packaged files, else a designer's directory (--set data=DIR)

    def validate(self, n_players: int | None = None) -> None:
        """Raise PlaytestError naming the first impossible field (for an ``n_players`` game when given)."""
        if n_players is not None and not 1 <= n_players <= 5:
            raise PlaytestError(f"circus_train: {n_players} players; the game takes 1 to 5 (--players 1..5)")
        for name, options in CHOICES.items():
            if getattr(self, name) not in options:
                raise PlaytestError(f"circus_train rules: {name}='{getattr(self, name)}'; "
                                    f"use one of {', '.join(options)} (--set {name}={options[0]})")
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, int) and not isinstance(value, bool) and not 0 <= value <= 1000:
                raise PlaytestError(f"circus_train rules: {f.name}={value} is outside 0..1000; fix the --set value")
        checks = [
            (self.steal_max >= 1, "steal_max must be at least 1"),
            (self.famous_threshold >= 1, "famous_threshold must be at least 1"),
            (1 <= self.hire_success_max <= 6, "hire_success_max must be between 1 and 6 (a d6)"),
            (1 <= self.steal_success_max <= 6, "steal_success_max must be between 1 and 6 (a d6)"),
            (self.most_talent_min >= 1, "most_talent_min must be at least 1"),
            (self.vp_floor == 0, "vp_floor is settled by the rulebook at 0 (CT-AMB-13); remove the --set"),
            (self.solo_band_defeat <= self.solo_band_draw <= self.solo_band_victory <= self.solo_band_incredible,
             "the solo_band_* thresholds must rise: defeat <= draw <= victory <= incredible"),
            (not (self.simple_variant and self.event_cards),
             "simple_variant plays without Event cards (CT-OPT-SIMPLE-1); drop --set event_cards=true"),
        ]
        for ok, msg in checks:
            if not ok:
                raise PlaytestError(f"circus_train rules: {msg}; fix the --set value")

    def to_array(self) -> np.ndarray:
        """All kernel fields as int64 in field order (bools 0/1, text fields as their index in CHOICES); the
        data directory is read in Python only."""
        out = np.zeros(len(KERNEL_FIELDS), dtype=np.int64)
        for i, name in enumerate(KERNEL_FIELDS):
            value = getattr(self, name)
            out[i] = CHOICES[name].index(value) if name in CHOICES else int(value)
        return out


KERNEL_FIELDS = tuple(f.name for f in fields(Rules) if f.name != "data")
"""The fields the kernels read (all but the data directory)."""
R = namespace("R", KERNEL_FIELDS)
"""Field name -> index into ``Rules.to_array()``, a compile-time constant inside @njit."""
