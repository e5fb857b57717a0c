"""Circus Train decision types and option features: what the engine fills per option, what strategies weigh.

Each decision fills its own run of columns (``choose`` scores only that span); unused columns stay 0.
"""

from __future__ import annotations

from sim.core.policy import DecisionSchema

# decision -> its features, in column order (H1..H13 of the spec name the option lists)
GROUPS = (
    ("start_talent", (  # CT-SETUP-8: an acrobat, freak or horse from the reserve
        "st_wage",  # its weekly wage
        "st_animal",  # 1 for an animal (horses: the no-animal penalty, CT-SCORE-FINAL-4)
        "st_have",  # counters of that type already owned
        "st_asked",  # requests on the board asking for that type
    )),
    ("start_city", (  # CT-SETUP-13: Winnipeg, Toronto or Montreal
        "sc_requests",  # PR counters within 3 steps
        "sc_talent",  # talent counters within 3 steps
        "sc_rivals",  # trains already there
    )),
    ("turn_option", (  # H3: play a card; advanced: replay a discard, pocket wages; Eddie's free replay
        "to_perform",  # best new performance level reachable with this card (0: none)
        "to_new_best",  # that level beats my Best Performance marker
        "to_hire",  # talent counters reachable with a card that may Hire
        "to_steal",  # rival circuses' counters reachable with Overnight Hire
        "to_buy",  # Overnight Hire: the reserve price when I can pay it, else 0
        "to_wages",  # Wage & Transit: my wage bill
        "to_wage_short",  # Wage & Transit: the bill exceeds my money
        "to_move",  # the card's movement allowance
        "to_rest",  # Rest (advanced)
        "to_replay",  # a paid replay of a discard (reputation, VP or $20)
        "to_pocket",  # money pocketed ($5 per reputation step)
        "to_hand_left",  # cards left in hand after playing it
        "to_show_due",  # completes my two-week show (Hold in place, or any card that performs there)
    )),
    ("destination", (  # H4: an end city (and whether the train moved)
        "ds_perform",  # performance level I would score there (0: no request I may perform)
        "ds_new_best",  # it beats my Best Performance marker
        "ds_talent",  # talent counters there
        "ds_points",  # VP of a Points counter claimed on arrival
        "ds_rivals",  # rival circuses' counters there (steals)
        "ds_stay",  # staying put (no movement)
        "ds_canada",  # a Canadian start city (Rest's reward)
        "ds_character",  # a Special Character waits there
        "ds_show_lost",  # leaving abandons my two-week show
    )),
    ("action", (  # H5: what the card does after its movement
        "ac_perform", "ac_level", "ac_new_best", "ac_hire", "ac_hire_talent", "ac_nothing", "ac_move",
        "ac_parade",
    )),
    ("recruit", (  # CT-OPT-CHAR-4: roll for the character on the city
        "rc_yes",
    )),
    ("ronald", (  # H13: Ringmaster Ronald's type for a performance
        "ro_level",  # the performance level with that choice
    )),
    ("rest_reward", (  # H12: a clown, an acrobat or +1 reputation in Canada
        "rr_talent", "rr_rep",
    )),
    ("parade_reward", (  # CT-ADV-PARADE-1: +1 reputation or +2 VP
        "pa_rep", "pa_vp",
    )),
    ("hire_step", (  # H6: declare, roll, buy after a failure, Smuggler Sam
        "hs_add",  # declare one more counter
        "hs_go",  # stop declaring (or stop hiring after a failure)
        "hs_roll",  # roll for a declared counter
        "hs_buy",  # buy the failed counter for $10
        "hs_pass",  # let the failed counter go
        "hs_sam",  # Smuggler Sam's free counter or reputation step
        "hs_odds",  # chance of a successful roll (sixths)
        "hs_wage",  # the counter's weekly wage
        "hs_asked",  # requests on the board asking for its type
        "hs_famous",  # it makes the type famous (3+)
        "hs_majority",  # it gives me the sole most of its type
        "hs_animal_new",  # my first animal of that type (no-animal penalty)
        "hs_money_left",  # money after the step, in $10
    )),
    ("special_hire", (  # H7: hire, steal from a rival on the city, buy from the reserve, or decline (CT-AMB-42)
        "sp_hire", "sp_steal", "sp_buy", "sp_price", "sp_victim_vp", "sp_victim_counters", "sp_asked",
        "sp_decline",  # decline the Special Hire (the card is spent)
        "sp_wage_short",  # after the buy my money is below my wage bill with the new counter (firing looms)
        "sp_wage",  # the bought counter's weekly wage (what it will cost at every Wage & Transit)
        "sp_famous",  # the bought counter makes its type famous (3+)
        "sp_majority",  # it gives me the sole most of its type
        "sp_animal_new",  # my first animal of that type (no-animal penalty)
        "sp_character",  # a Special Character bought (August/September, optional rule)
    )),
    ("steal_target", (  # H7: 1..2 counters of the victim
        "sl_count", "sl_asked", "sl_famous", "sl_character", "sl_wage",
    )),
    ("wage_keep", (  # H8: keep one more counter, or stop (fire the rest)
        "wk_done", "wk_wage", "wk_asked", "wk_famous", "wk_last_animal", "wk_clown",
    )),
    ("fired_city", (  # H9: the city receiving fired talent
        "fc_near_me", "fc_near_firer",
    )),
    ("catch_up", (  # H10: one counter from a rival, or nothing
        "cu_take", "cu_victim_vp", "cu_wage", "cu_asked",
    )),
    ("event_choice", (  # CT-OPT-EVENT-3: the counter an Event card's chooser names (a type or a character)
        "ev_owned", "ev_wage",
        "ev_character",  # a Special Character (CT-OPT-CHAR-5): +1 taken from the leader by a raid, -1 given up
    )),
    ("sam_reputation", (  # CT-OPT-CHAR-8: advanced, at the start of my turn: use Smuggler Sam for +1 reputation
        "sr_yes",  # use him now (he goes to the special-character reserve)
        "sr_gain",  # the step raises my reputation (0 on the top box)
        "sr_last_week",  # the last week: the last chance to use him
    )),
)

SCHEMA = DecisionSchema.from_groups(GROUPS)
D = SCHEMA.D
"""Decision name -> index (``D.hire_step``)."""
F = SCHEMA.F
"""Feature name -> column (``F.hs_odds``)."""
