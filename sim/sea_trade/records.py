"""Sea Trade log schema: one row per game and one per (game, seat); the kernel writes these columns by index."""

from __future__ import annotations

from sim.core.spec import Column

END_WIN = 0
END_TIMEOUT = 1

GAME_COLUMNS = (
    Column("rounds", "rounds started (the round of the win, or round_cap on a timeout)"),
    Column("end_reason", "why the game ended", ("win", "timeout")),
    Column("winner_seat", "seat that reached the winning gold, -1 on a timeout"),
    Column("decisions", "choose() calls with at least two legal options"),
    Column("turns", "player turns played"),
    Column("plunders", "ships plundered by pirates (ST-PIRACY-2)"),
    Column("storms_played", "Storm cards played (ST-TURN-5)"),
    Column("reshuffles", "times the discard pile became the new deck (ST-TURN-1)"),
    Column("trades", "ship-to-ship exchanges made (ST-TRADE-1)"),
)

PLAYER_COLUMNS = (
    Column("score", "final gold"),
    Column("rank", "1 = best: the winner first, then by gold; equal gold shares a rank"),
    Column("won", "1 if this seat won"),
    Column("start_market", "starting market: 0 Rome, 1 Egypt, 2 Greece, 3 Persia, 4 Carthage, 5 Crete"),
    Column("start_desired_dist", "sea steps (land only) from the start market to the market most desiring "
                                 "its commodity"),
    Column("gold_r10", "gold after round 10 (final gold if the game ended earlier)"),
    Column("gold_r20", "gold after round 20 (final gold if the game ended earlier)"),
    Column("cards_bought", "commodity cards bought into the hold"),
    Column("cards_sold", "commodity cards sold from the hold"),
    Column("sales_gold", "gold received from sales"),
    Column("plunders_made", "opponent ships this seat plundered with a pirate"),
    Column("times_plundered", "times this seat's ship was plundered"),
    Column("cargo_lost", "hold cards lost to plunder"),
    Column("storms_played", "Storm cards played"),
    Column("row_played", "Row cards played (sailing)"),
    Column("wind_played", "Wind cards played to sail the own ship"),
    Column("pirate_moves", "Wind cards played to move pirate ships"),
    Column("trades", "ship-to-ship exchanges this seat took part in"),
    Column("max_hand", "largest hand size held (after the wind-phase draw)"),
    Column("turns", "turns this seat played"),
    Column("offers", "exchange offers this seat made"),
)

_G = [c.name for c in GAME_COLUMNS]
_P = [c.name for c in PLAYER_COLUMNS]
G_ROUNDS = _G.index("rounds")
G_END = _G.index("end_reason")
G_WINNER = _G.index("winner_seat")
G_DECISIONS = _G.index("decisions")
G_TURNS = _G.index("turns")
G_PLUNDERS = _G.index("plunders")
G_STORMS = _G.index("storms_played")
G_RESHUFFLES = _G.index("reshuffles")
G_TRADES = _G.index("trades")
N_GAME_COLUMNS = len(_G)

P_SCORE = _P.index("score")
P_RANK = _P.index("rank")
P_WON = _P.index("won")
P_START = _P.index("start_market")
P_START_DIST = _P.index("start_desired_dist")
P_GOLD_R10 = _P.index("gold_r10")
P_GOLD_R20 = _P.index("gold_r20")
P_BOUGHT = _P.index("cards_bought")
P_SOLD = _P.index("cards_sold")
P_SALES_GOLD = _P.index("sales_gold")
P_PLUNDERS_MADE = _P.index("plunders_made")
P_PLUNDERED = _P.index("times_plundered")
P_CARGO_LOST = _P.index("cargo_lost")
P_STORMS = _P.index("storms_played")
P_ROW = _P.index("row_played")
P_WIND = _P.index("wind_played")
P_PIRATE_MOVES = _P.index("pirate_moves")
P_TRADES = _P.index("trades")
P_MAX_HAND = _P.index("max_hand")
P_TURNS = _P.index("turns")
P_OFFERS = _P.index("offers")
N_PLAYER_COLUMNS = len(_P)
