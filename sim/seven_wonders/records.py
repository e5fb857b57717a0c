"""7 Wonders + Babel log schema: the game's own columns (the core puts the standard ones first).

Games: the Babel tiles (builder, turn placed, turn covered: a tile is active from the end of the turn it is placed
to the end of the turn it is covered, BABEL-ACTIVE-1) and each Age's Great Project (project, outcome,
participation, penalties). Players: the score by source in SW-END-1 / BABEL-SCORE-1 / BABEL-GP-15 order, the board
and side, stages, cards by colour, coins traded, military and project tokens, tiles built, penalties.
"""

from __future__ import annotations

from sim.core.records import Column, columns_namespace, game_record, player_record
from sim.seven_wonders.data import COLORS, N_TILES
from sim.seven_wonders.scoring import SC
from sim.seven_wonders.state import ST

END_LABELS = ("age_three",)
"""The game always ends after the Age III military resolution (SW-END-1)."""
END_AGE_THREE = END_LABELS.index("age_three")

_GAME = [
    ("rounds", "game turns played (18: 3 Ages of 6 turns, SW-TURN-1)"),
    ("end_reason", "always 'age_three': the game ends after the Age III military (SW-END-1)"),
    ("winner_seat", "seat of the sole winner after the coin tie-break (SW-END-2), -1 when shared"),
    ("tiles_built", "Babel tiles built in the game (BABEL-ACT-1)"),
    ("cards_removed", "cards removed from the game by project penalties (SW-DEC-5)"),
]
for _t in range(1, N_TILES + 1):
    _GAME += [(f"tile{_t}_builder", f"seat that built tile {_t}, -1 if nobody did"),
              (f"tile{_t}_placed", f"game turn (1..18) at whose end tile {_t} was placed, 0 never"),
              (f"tile{_t}_covered", f"game turn at whose end tile {_t} was covered, 0 if never (active to the end)")]
for _a in (1, 2, 3):
    _GAME += [(f"gp{_a}_project", f"Age {_a} Great Project (index in great_projects.json), -1 module off"),
              (f"gp{_a}_success", f"1 if the Age {_a} project succeeded (BABEL-GP-9)"),
              (f"gp{_a}_participants", f"players holding a participation token at the end of Age {_a}"),
              (f"gp{_a}_tokens", f"participation tokens taken in Age {_a} (BABEL-GP-2, reserve included)"),
              (f"gp{_a}_penalised", f"players who bore the Age {_a} penalty (BABEL-GP-10)"),
              (f"gp{_a}_defeats", f"players who could not bear it and took a Defeat token (BABEL-GP-11)")]
_GAME += [  # two players: the Free City, a third seat that never wins (SW-2P-1 / SW-2P-3)
    ("fc_board", "the Free City's Wonder board (index in wonders.json), -1 without one (3-7 players)"),
    ("fc_side", "the Free City's board side: 0 = A, 1 = B"),
    ("fc_score", "the Free City's total VP, computed as a player's but outside the ranking (SW-2P-3)"),
    ("fc_military", "the Free City's VP from Victory and Defeat tokens"),
    ("fc_coins", "the Free City's coins at the end"),
    ("fc_stages", "Wonder stages the Free City built"),
    ("fc_built", "structures the Free City built"),
    ("fc_sold", "cards the Free City discarded for coins (only when it could not build, SW-2P-4)"),
    ("fc_shields", "the Free City's military strength at the end"),
]

_SOURCES = {
    "military": "VP from Victory and Defeat tokens, Great Project tokens included (SW-MIL-2, BABEL-GP-15)",
    "treasury": "VP from coins: floor(coins / 3) (SW-END-1)",
    "wonder": "VP printed on built Wonder stages (SW-WONDER-2)",
    "civilian": "VP of blue structures",
    "science": "science VP, wilds placed optimally, project set tokens included (SW-SCI-1/2, BABEL-GP-13)",
    "commercial": "VP of Age III yellow structures (SW-COM-2)",
    "guilds": "VP of guilds, Olympia B's copied guild included (SW-GUILD-1, SW-WONDER-6)",
    "babel": "VP for Babel tiles built: 2 / 5 / 10 (BABEL-SCORE-1)",
    "projects": "VP of project guild and wonder tokens (BABEL-GP-13 / BABEL-GP-15)",
}
assert tuple(_SOURCES) == SC._fields[:-1], "records: one vp_ column per score category, in SW-END-1 order"

_STAT = {
    "traded_out": "coins paid to neighbours for resources (SW-TRADE-1)",
    "traded_in": "coins received from neighbours",
    "sold": "cards discarded for 3 coins (SW-ACT-3)",
    "chain_builds": "structures built free through a chain (SW-CHAIN-1, BABEL-TILE-7)",
    "free_builds": "structures built free by Olympia A or a free-build token (SW-WONDER-3, BABEL-GP-13)",
    "hali_builds": "structures built from the discard pile (SW-WONDER-4)",
    "seventh_played": "7th cards used with Babylon B (SW-WONDER-5)",
    "gp_tokens": "Great Project participation tokens taken (BABEL-GP-2)",
    "gp_success_tokens": "participation tokens held in projects that succeeded (rewards, BABEL-GP-9)",
    "gp_penalties": "project penalties borne (BABEL-GP-10)",
    "gp_defeats": "Defeat tokens taken for an unbearable penalty (BABEL-GP-11)",
    "tile_discards": "cards discarded to build a Babel tile (BABEL-ACT-1)",
    "built": "structures built (any way)",
}
assert tuple(_STAT) == ST._fields, "records: one column per state.ST counter, in order"

_PLAYER = [
    ("score", "total VP (SW-END-1)"),
    ("rank", "1 = best after the coin tie-break (SW-END-2); exact ties share"),
    ("won", "1 for each winner (a shared victory counts for every sharer)"),
    *[(f"vp_{k}", v) for k, v in _SOURCES.items()],
    ("coins", "coins at the end (the tie-break, SW-END-2)"),
    ("board", "Wonder board (index in wonders.json)"),
    ("side", "board side: 0 = A, 1 = B"),
    ("stages", "Wonder stages built"),
    *[(c, f"{c} structures in the city at the end") for c in COLORS],
    ("shields", "military strength at the end (SW-MIL-1)"),
    ("victory_tokens", "Victory tokens held at the end"),
    ("defeat_tokens", "Defeat tokens held at the end"),
    ("tiles_built", "Babel tiles built (BABEL-SCORE-1)"),
    ("tile_a", "first tile kept in the draft (1..24), 0 without the Tower"),
    ("tile_b", "second tile kept"),
    ("tile_c", "third tile (the one passed in)"),
    *[(k, v) for k, v in _STAT.items()],
]
GAME_COLUMNS = game_record(END_LABELS, dict(_GAME[:3]), [Column(n, d) for n, d in _GAME[3:]])
PLAYER_COLUMNS = player_record(dict(_PLAYER[:3]), [Column(n, d) for n, d in _PLAYER[3:]])
GC = columns_namespace("GC", GAME_COLUMNS)
"""Game column -> index; tile t's three columns start at ``GC.tile1_builder + 3 * (t - 1)``, the Age a project's six
at ``GC.gp1_project + 6 * (a - 1)``."""
PC = columns_namespace("PC", PLAYER_COLUMNS)
"""Player column -> index; the vp_ columns follow SC order from ``PC.vp_military``, colours from ``PC.brown``, the
ST counters from ``PC.traded_out``."""
