"""Pig's one decision, its option features, its record columns and its events.

Features of the ``hold`` decision (option 0 banks the turn total, the decline option rolls again):
  roll            1 on the roll-again option
  turn            hold: the turn total the hold banks
  reaches         hold: 1 if the hold brings the seat to the target
  behind          hold: the leading rival's banked points minus the seat's
  rival_progress  hold: the leading rival's banked points, in percent of the target
"""

from __future__ import annotations

from sim.core.policy import DecisionSchema
from sim.core.records import Column, columns_namespace, game_record, player_record
from sim.core.replay import event_texts

SCHEMA = DecisionSchema.from_groups([("hold", ("roll", "turn", "reaches", "behind", "rival_progress"))])
D, F = SCHEMA.D, SCHEMA.F

END_TARGET, END_TIMEOUT = 0, 1
GAME_COLUMNS = game_record(("target", "timeout"), {"winner_seat": "seat that reached the target first, -1 if none "
                                                                  "or shared"}, ())
PLAYER_COLUMNS = player_record({"score": "points banked"}, (
    Column("turns", "turns played"),
    Column("rolls", "dice rolled"),
    Column("busts", "turns ended by a 1 (PIG-TURN-3)"),
    Column("best_turn", "most points banked in one turn"),
))
PC = columns_namespace("PC", PLAYER_COLUMNS)

EV, EVENT_TEXTS = event_texts(
    roll="{seat} rolls {a0}: turn total {a1}",  # a0 face, a1 turn total
    bust="{seat} rolls 1: bust, the turn total of {a0} is lost",  # a0 turn total lost
    hold="{seat} holds: banks {a0}, score {a1}",  # a0 banked, a1 score
)
