"""Sea Trade log schema: one row per game and one per (game, seat); the kernel writes these columns by index."""

from __future__ import annotations

from sim.core.records import Column, columns_namespace, game_record, player_record

END_WIN = 0
END_TIMEOUT = 1
END_REASONS = ("win", "timeout")

GAME_COLUMNS = game_record(END_REASONS, {
    "rounds": "rounds started (the round of the win, or round_cap on a timeout)",
    "winner_seat": "seat that reached the winning gold, -1 on a timeout"}, (
    Column("turns", "player turns played"),
    Column("plunders", "ships plundered by pirates (ST-PIRACY-2)"),
    Column("storms_played", "Storm cards played (ST-TURN-5)"),
    Column("reshuffles", "times the discard pile became the new deck (ST-TURN-1)"),
    Column("trades", "ship-to-ship exchanges made (ST-TRADE-1)"),
))

PLAYER_COLUMNS = player_record({
    "score": "final gold",
    "rank": "1 = best: the winner first, then by gold; equal gold shares a rank",
    "won": "1 if this seat won"}, (
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
))

GC = columns_namespace("GC", GAME_COLUMNS)
"""Game column -> index (``st.games[GC.plunders]``)."""
PC = columns_namespace("PC", PLAYER_COLUMNS)
"""Player column -> index (``st.players[seat, PC.cargo_lost]``)."""
