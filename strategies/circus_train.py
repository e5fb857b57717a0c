"""Named Circus Train strategies: random plus four styles a player recognises; weights are data over the
decisions and features of sim/circus_train/schema.py."""

from __future__ import annotations

from sim.core.policy import Strategy, style_weights

# Shared habits: sensible play where a style has no special view.
_BASE = {
    "start_talent": {"st_asked": 0.5, "st_animal": 0.6, "st_wage": -0.1},
    "start_city": {"sc_requests": 1.0, "sc_talent": 0.3, "sc_rivals": -0.2},
    "turn_option": {"to_perform": 0.25, "to_new_best": 2.0, "to_hire": 0.4, "to_steal": 0.1, "to_buy": 0.02,
                    "to_wages": -0.1, "to_wage_short": -2.0, "to_move": 0.1, "to_rest": 0.2, "to_replay": -1.5,
                    "to_pocket": 0.02, "to_hand_left": 0.05, "to_show_due": 4.0},
    "destination": {"ds_perform": 0.3, "ds_new_best": 2.0, "ds_talent": 0.5, "ds_points": 1.0, "ds_rivals": 0.05,
                    "ds_stay": -0.2, "ds_character": 0.5, "ds_show_lost": -5.0},
    "action": {"ac_perform": 1.0, "ac_level": 0.2, "ac_new_best": 2.0, "ac_hire": 1.0, "ac_hire_talent": 0.3,
               "ac_nothing": -1.0, "ac_move": 0.0, "ac_parade": 0.3},
    "recruit": {"rc_yes": 1.0},
    "ronald": {"ro_level": 1.0},
    "rest_reward": {"rr_talent": 1.0, "rr_rep": 0.8},
    "parade_reward": {"pa_rep": 1.0, "pa_vp": 1.0},
    "hire_step": {"hs_add": 1.0, "hs_go": 0.0, "hs_roll": 1.0, "hs_buy": 0.5, "hs_pass": 0.0, "hs_sam": 1.5,
                  "hs_odds": 0.1, "hs_wage": -0.1, "hs_asked": 0.3, "hs_famous": 1.0, "hs_majority": 0.8,
                  "hs_animal_new": 1.0, "hs_money_left": 0.05},
    "special_hire": {"sp_hire": 1.0, "sp_steal": 1.0, "sp_buy": 0.6, "sp_price": -0.05, "sp_victim_vp": 0.05,
                     "sp_victim_counters": 0.1, "sp_asked": 0.3, "sp_decline": 0.0, "sp_wage": -0.1,
                     "sp_wage_short": -2.0, "sp_famous": 1.0, "sp_majority": 0.8, "sp_animal_new": 1.0,
                     "sp_character": 1.0},
    "steal_target": {"sl_count": 1.0, "sl_asked": 0.3, "sl_famous": 0.5, "sl_character": 0.5, "sl_wage": 0.05},
    "wage_keep": {"wk_done": -2.0, "wk_wage": -0.1, "wk_asked": 0.3, "wk_famous": 1.0, "wk_last_animal": 1.5,
                  "wk_clown": 1.5},
    "fired_city": {"fc_near_me": 1.0, "fc_near_firer": -0.3},
    "catch_up": {"cu_take": 2.0, "cu_victim_vp": 0.05, "cu_wage": -0.05, "cu_asked": 0.3},
    "event_choice": {"ev_owned": 0.5, "ev_wage": 0.1, "ev_character": 1.5},
    "sam_reputation": {"sr_yes": -0.5, "sr_gain": 0.3, "sr_last_week": 2.0},
}


def _weights(**over: dict) -> dict:
    """The shared habits with a style's changes per decision."""
    return style_weights(_BASE, **over)


STRATEGIES = (
    Strategy("random", "uniform over the legal options at every decision", kind="random"),
    Strategy("showman", "chases performance requests and the best performance: big shows, new bests, no detours",
             weights=_weights(
                 turn_option={"to_perform": 0.6, "to_new_best": 4.0, "to_hire": 0.2, "to_steal": 0.0},
                 destination={"ds_perform": 0.8, "ds_new_best": 4.0, "ds_talent": 0.2},
                 action={"ac_perform": 3.0, "ac_level": 0.3, "ac_new_best": 3.0, "ac_hire": 0.3},
                 hire_step={"hs_asked": 1.0, "hs_famous": 2.0, "hs_majority": 0.2},
                 special_hire={"sp_asked": 1.0, "sp_famous": 2.0})),
    Strategy("collector", "talent majorities and fame: hires and buys every counter that makes it the most",
             weights=_weights(
                 turn_option={"to_hire": 1.0, "to_perform": 0.1, "to_new_best": 1.0, "to_buy": 0.05},
                 destination={"ds_talent": 1.2, "ds_perform": 0.1},
                 action={"ac_hire": 2.5, "ac_hire_talent": 0.5, "ac_perform": 0.8},
                 hire_step={"hs_add": 2.0, "hs_buy": 1.5, "hs_majority": 2.0, "hs_famous": 2.0, "hs_wage": -0.05},
                 special_hire={"sp_buy": 1.5, "sp_hire": 1.5, "sp_majority": 2.0, "sp_famous": 2.0,
                               "sp_wage_short": -1.0},
                 wage_keep={"wk_famous": 3.0, "wk_wage": -0.02})),
    Strategy("miser", "money and wage discipline: cheap talent, no $10 buys, no reserve buy that outruns its wages, "
             "fires the dear counters first",
             weights=_weights(
                 turn_option={"to_wages": -0.4, "to_wage_short": -4.0, "to_buy": -0.1, "to_replay": -3.0,
                              "to_pocket": 0.1},
                 action={"ac_hire": 0.2, "ac_perform": 2.0, "ac_parade": -1.0},
                 hire_step={"hs_add": -0.5, "hs_buy": -3.0, "hs_wage": -0.8, "hs_money_left": 0.3},
                 special_hire={"sp_buy": 0.3, "sp_steal": 1.5, "sp_wage": -0.2, "sp_wage_short": -4.0},
                 start_talent={"st_wage": -1.0},
                 wage_keep={"wk_wage": -0.6, "wk_done": -1.0},
                 rest_reward={"rr_talent": 1.0, "rr_rep": 0.2})),
    Strategy("raider", "Overnight Hire steals: rides to rival circuses and takes their talent",
             weights=_weights(
                 turn_option={"to_steal": 1.5, "to_hire": 0.2, "to_perform": 0.15},
                 destination={"ds_rivals": 1.5, "ds_talent": 0.2},
                 special_hire={"sp_steal": 4.0, "sp_victim_counters": 0.3, "sp_victim_vp": 0.2},
                 steal_target={"sl_count": 2.0},
                 catch_up={"cu_take": 3.0, "cu_victim_vp": 0.2})),
)

DEFAULT_LINEUP = ("showman", "collector", "miser", "raider")
