"""Circus Train rules: every rulebook number, variant, optional rule and CT-AMB decision as a Rules field.

Component values printed on the board, cards and counters (map, wages, quotas, prices, card ranges, counter
values, the reputation column) live in the data files (sim/circus_train/data.py), not here. Solitaire is not a
flag: it is the game with one player (CT-SOLO-*). Kernels read ``Rules.to_array()`` through the ``R`` namespace:
``rules[R.famous_threshold]``; a choice field holds the index of its value in ``CHOICES[field]``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim.core.fields import field
from sim.core.rules import RulesFields, kernel_namespace, require

CHOICES = {
    "solo_fired_city": ("player", "farthest"),  # CT-AMB-8
    "fired_city_policy": ("heuristic", "policy"),  # CT-AMB-33
    "most_money_level": ("dice", "box"),  # CT-AMB-17
    "solo_scoring": ("rulebook", "money_only"),  # CT-AMB-27
}
"""Values of the text-valued fields, in the order their index is stored in the kernel array."""
SEAT_MONEY_MAX = 20
"""Most extra starting money a seat may get (CT-SEAT-1: seat compensation, not in the rulebook): two $10 buys."""
MAX_STEAL = 3
"""Counters one steal takes at most: a steal option row holds three targets (special_hire.steal_options)."""


@dataclass(frozen=True)
class Rules(RulesFields):
    """Circus Train (2nd edition, Italian rulebook v1.0 with the Nov 2013 FAQ); defaults follow the rulebook."""

    # --- variants and optional rules
    advanced: bool = field(False, rule="CT-ADV-*", doc="the advanced game (reputation, CT-REP-*)")
    special_characters: bool = field(False, rule="CT-OPT-CHAR-*", doc="the six Special Characters")
    event_cards: bool = field(False, rule="CT-OPT-EVENT-*", doc="five Event cards (stand-in contents, CT-AMB-34)")
    simple_variant: bool = field(False, rule="CT-OPT-SIMPLE-*", doc="no Wage & Transit, no VP; best performance "
                                                                    "wins")
    april_rule: bool = field(True, rule="CT-SCORE-MONTH-4", doc="April pays VP per performer instead of best "
                                                                "performance (3+ players)")
    # --- setup
    start_money: int = field(0, ge=0, le=100, rule="CT-SETUP-1", doc="money each player starts with (CT-AMB-1)")
    start_clowns: int = field(1, ge=0, le=10, rule="CT-SETUP-1", doc="clowns each player starts with")
    start_choice_talents: int = field(2, ge=0, le=10, rule="CT-SETUP-8", doc="starting acrobats, freaks or horses")
    best_start: int = field(10, ge=0, le=100, rule="CT-SETUP-2", doc="where the Best Performance markers start")
    fill_start: int = field(8, ge=0, le=8, rule="CT-SETUP-10", doc="occupied cities after setup (at most the first "
                                                                   "month's quota, CT-STATE-3)")
    # --- performing
    famous_threshold: int = field(3, ge=1, le=10, rule="CT-PERF-3", doc="talents of a type that make it famous")
    famous_multiplier: int = field(2, ge=1, le=5, rule="CT-PERF-3", doc="a famous type's bonus multiplier")
    new_best_money: int = field(10, ge=0, le=100, rule="CT-PERF-8", doc="money for a new Best Performance")
    bertha_bonus: int = field(10, ge=0, le=100, rule="CT-OPT-CHAR-10", doc="Bertha's performance bonus")
    # --- hiring, stealing, wages
    hire_success_max: int = field(4, ge=1, le=6, rule="CT-HIRE-2", doc="highest d6 face that hires (basic game)")
    hire_buy_cost: int = field(10, ge=0, le=100, rule="CT-HIRE-3", doc="money to buy a failed hire")
    hire_adaptive: bool = field(True, rule="CT-AMB-37", doc="choose the next target after seeing a failed roll")
    steal_success_max: int = field(4, ge=1, le=6, rule="CT-STEAL-1", doc="highest d6 face that steals")
    steal_max: int = field(2, ge=1, le=MAX_STEAL, rule="CT-AMB-21", doc="counters per steal (a steal row holds "
                                                                        f"{MAX_STEAL})")
    steal_character_extra: bool = field(False, rule="CT-AMB-21", doc="up to steal_max talents plus one character")
    ted_discount: int = field(1, ge=0, le=10, rule="CT-OPT-CHAR-11", doc="Ted's wage discount per elephant, "
                                                                         "after solitaire doubling (CT-AMB-25)")
    # --- end of month
    most_talent_min: int = field(2, ge=1, le=10, rule="CT-SCORE-MONTH-1", doc="least count for most talent")
    best_vp_1: int = field(7, ge=0, le=50, rule="CT-SCORE-MONTH-2", doc="VP for the best performance")
    best_vp_2: int = field(4, ge=0, le=50, rule="CT-SCORE-MONTH-2", doc="VP for the second best")
    best_vp_3: int = field(2, ge=0, le=50, rule="CT-SCORE-MONTH-2", doc="VP for the third best")
    best_third_tie_vp: int = field(1, ge=0, le=50, rule="CT-SCORE-MONTH-2", doc="VP to each player tied for 3rd "
                                                                                "(CT-AMB-12)")
    best_vp_2p: int = field(4, ge=0, le=50, rule="CT-SCORE-MONTH-3", doc="2-player best performance VP, split on "
                                                                         "a tie")
    april_vp: int = field(5, ge=0, le=50, rule="CT-SCORE-MONTH-4", doc="April VP per performer")
    april_keeps_lower_places: bool = field(False, rule="CT-AMB-11", doc="April replaces only the 1st place")
    # --- final scoring (CT-SCORE-FINAL-*)
    taxes_vp: int = field(3, ge=0, le=50, rule="CT-SCORE-FINAL-1", doc="taxes in VP (2 players)")
    taxes_wage_multiplier: int = field(2, ge=1, le=5, rule="CT-SCORE-FINAL-1", doc="taxes as a multiple of wages")
    taxes_fire: bool = field(True, rule="CT-AMB-14", doc="unpayable taxes fire talent by the wage rule")
    most_vp: int = field(5, ge=0, le=50, rule="CT-SCORE-FINAL-2", doc="a final 'most' award to a single leader "
                                                                      "(also FINAL-5/6, CT-ADV-FINAL-1)")
    most_shared_vp: int = field(2, ge=0, le=50, rule="CT-SCORE-FINAL-2", doc="the same award when the most is "
                                                                             "shared")
    no_clown_vp: int = field(3, ge=0, le=50, rule="CT-SCORE-FINAL-3", doc="VP lost without a clown")
    no_animal_vp: int = field(5, ge=0, le=50, rule="CT-SCORE-FINAL-4", doc="VP lost per missing animal type")
    most_requires_positive: bool = field(True, rule="CT-AMB-15", doc="'most' awards need a positive amount")
    vp_floor: int = field(0, ge=0, le=0, rule="CT-VP-1", doc="VP never fall below 0 (settled, CT-AMB-13)")
    # --- advanced game
    replay_rep_cost: int = field(2, ge=0, le=10, rule="CT-ADV-REPLAY-1", doc="reputation steps for a replay, "
                                                                             "April-July")
    replay_vp_cost: int = field(4, ge=0, le=50, rule="CT-ADV-REPLAY-1", doc="VP for a replay, August-September "
                                                                            "(CT-AMB-18)")
    pocket_money: int = field(5, ge=0, le=50, rule="CT-ADV-POCKET-1", doc="money per reputation step")
    parade_cost: int = field(10, ge=0, le=100, rule="CT-ADV-PARADE-1", doc="money for a parade")
    parade_vp: int = field(2, ge=0, le=50, rule="CT-ADV-PARADE-1", doc="VP for a parade")
    wage_release_vp: int = field(3, ge=0, le=50, rule="CT-ADV-WAGE-1", doc="VP per released talent, "
                                                                           "August-September")
    steal_rep_bonus: int = field(1, ge=0, le=5, rule="CT-ADV-STEAL-1", doc="added to each roll when the victim's "
                                                                           "reputation is higher")
    most_money_level: str = field("dice", choices=CHOICES["most_money_level"], rule="CT-AMB-17",
                                  doc="most-money eligibility: 'dice' (success_max >= 5) or 'box' (index >= "
                                      "most_money_min_index)")
    most_money_min_index: int = field(4, ge=0, le=20, rule="CT-AMB-17", doc="the 'box' reading's least index")
    most_money_ineligible_blocks: bool = field(True, rule="CT-AMB-39", doc="an ineligible richest player blocks "
                                                                           "most money")
    rest_week_1: bool = field(False, rule="CT-AMB-20", doc="Rest may be played in week 1")
    # --- two-week shows, claims, board
    claim_requires_step: bool = field(True, rule="CT-AMB-4", doc="claims need a movement of at least one step")
    two_week_reserved: bool = field(False, rule="CT-AMB-5", doc="the house rule: a two-week show is reserved")
    two_week_score_at_completion: bool = field(True, rule="CT-AMB-6", doc="score a two-week show as it completes "
                                                                          "(False: as at its start)")
    lone_character_occupies: bool = field(False, rule="CT-AMB-9", doc="a lone character occupies its city")
    fired_city_policy: str = field("heuristic", choices=CHOICES["fired_city_policy"], rule="CT-AMB-33",
                                   doc="who picks a fired talent's city: 'heuristic' or 'policy' (the chooser's "
                                       "strategy)")
    # --- special characters
    character_buy_any: bool = field(True, rule="CT-AMB-24", doc="a character nobody owns is buyable")
    character_yellow_window: bool = field(False, rule="CT-AMB-40", doc="yellow characters have a window")
    # --- solitaire (CT-SOLO-*)
    solo_vp_money: int = field(5, ge=1, le=50, rule="CT-SOLO-5", doc="money per VP in solitaire")
    solo_wage_multiplier: int = field(2, ge=1, le=5, rule="CT-SOLO-4", doc="solitaire wage multiplier")
    solo_replay_money: int = field(20, ge=0, le=100, rule="CT-SOLO-7", doc="money for a solitaire replay")
    solo_fired_city: str = field("player", choices=CHOICES["solo_fired_city"], rule="CT-AMB-8",
                                 doc="where a fired talent goes in solitaire: 'player' or 'farthest'")
    solo_scoring: str = field("rulebook", choices=CHOICES["solo_scoring"], rule="CT-AMB-27",
                              doc="solitaire scoring: 'rulebook' or 'money_only'")
    solo_most_awards: bool = field(True, rule="CT-AMB-27", doc="solitaire month-end most-talent awards")
    solo_most_money: bool = field(False, rule="CT-AMB-27", doc="solitaire final most-money step")
    solo_band_defeat: int = field(100, ge=0, le=1000, rule="CT-SOLO-8", doc="below this, collapse")
    solo_band_draw: int = field(141, ge=0, le=1000, rule="CT-SOLO-8", doc="from this, a draw")
    solo_band_victory: int = field(181, ge=0, le=1000, rule="CT-SOLO-8", doc="from this, a victory")
    solo_band_incredible: int = field(221, ge=0, le=1000, rule="CT-SOLO-8", doc="from this, an incredible victory")
    # --- simple variant
    simple_tiebreak: bool = field(True, rule="CT-AMB-41", doc="simple variant ties: marker, money, then PR "
                                                              "counters")
    # --- seat compensation (CT-SEAT-1): a "seat" is a place in turn order counted from the random first player
    seat2_money: int = field(0, ge=0, le=SEAT_MONEY_MAX, rule="CT-SEAT-1", doc="extra starting money for the 2nd "
                                                                               "in turn order from the first player")
    seat3_money: int = field(0, ge=0, le=SEAT_MONEY_MAX, rule="CT-SEAT-1", doc="extra starting money for the 3rd "
                                                                               "in turn order from the first player")
    seat4_money: int = field(0, ge=0, le=SEAT_MONEY_MAX, rule="CT-SEAT-1", doc="extra starting money for the 4th "
                                                                               "in turn order from the first player")
    seat5_money: int = field(0, ge=0, le=SEAT_MONEY_MAX, rule="CT-SEAT-1", doc="extra starting money for the 5th "
                                                                               "in turn order from the first player")
    # --- component files
    data: str = field("", rule="CT-COMP-*", doc='a designer\'s component directory ("" = the packaged files)')


R = kernel_namespace(Rules)
"""Field name -> index into ``Rules.to_array()``, a compile-time constant inside @njit (the data directory is
read in Python only)."""


def check_rules(rules: Rules, n_players: int, data: Any) -> None:
    """The cross-field checks (each field's own bounds are declared): raise PlaytestError on the first."""
    first_quota = int(data.month_quota[0])
    checks = [
        (rules.fill_start <= first_quota, f"fill_start={rules.fill_start} exceeds the first month's quota of "
                                          f"{first_quota} occupied cities (CT-STATE-3)"),
        (rules.steal_max + rules.steal_character_extra <= MAX_STEAL,
         f"steal_character_extra adds a character to steal_max talents: a steal takes at most {MAX_STEAL} "
         f"counters, so steal_max must be at most {MAX_STEAL - 1} with it"),
        (rules.solo_band_defeat <= rules.solo_band_draw <= rules.solo_band_victory <= rules.solo_band_incredible,
         "the solo_band_* thresholds must rise: defeat <= draw <= victory <= incredible"),
        (not (rules.simple_variant and rules.event_cards),
         "simple_variant plays without Event cards (CT-OPT-SIMPLE-1); drop --set event_cards=true"),
    ]
    require("circus_train", checks)
