"""Sea Trade decisions and option features: what the engine fills per option, what strategies weigh.

Features (facts the engine computes per option; all 0 when they do not apply to a decision):
  pass           1 for the stop / pass / decline option
  sale_gain      sail: steps closer to the best market for the current hold
  buy_gain       sail: steps closer to the best market to buy hand cards at
  arrive_sell    sail: gold the hold would fetch at the destination market
  arrive_buy     sail: cards that could be bought at the destination market
  row_card       1 if the option spends a Row card
  wind_card      1 if the option spends a Wind card
  steps          spaces moved
  danger         hold cards x (the option leaves the ship within 2 spaces of a pirate, outside a market)
  cards          buy: cards bought; sell: 1; start_market: cards of its commodity in hand
  gold           gold gained (negative when paying)
  regret         sell: how much more the card would likely fetch elsewhere (distance-discounted)
  win            sell: 1 if the sale reaches the winning gold
  my_gain        buy/offer/accept: estimated value gained by the deciding player
  partner_gain   offer/accept: estimated value gained by the other side of the exchange
  partner_leader offer/accept: 1 if the other side leads the opponents in gold
  plunder_cards  pirate: opponents' hold cards destroyed by the move
  plunder_leader pirate: 1 if the move plunders the gold leader
  threat_gain    pirate: change of opponents' cargo within 2 spaces of the pirate
  guard          pirate/storm: reduction of the pirate threat to the own hold
  blocks         pirate/storm: opponents whose shortest route to their target crosses the space
  blocks_leader  pirate/storm: 1 if the gold leader's route crosses the space
  self_block     pirate/storm: 1 if the own route crosses the space
  sale_dist      start_market: sea steps to the market most desiring this market's commodity
  unblock        pirate/storm: 1 if the move lifts a pirate or the storm off the own route while it is blocked
  hand_size      sail/pirate/storm: cards in hand on the options that spend one (a big hand makes cards cheap;
                 with no hand limit, strategies that never spend stall the game once every card is held)
"""

from __future__ import annotations

from sim.core.policy import DecisionSchema

FILLED = {
    "start_market": ("cards", "sale_dist"),
    "sail": ("pass", "sale_gain", "buy_gain", "arrive_sell", "arrive_buy", "row_card", "wind_card", "steps",
             "danger", "hand_size"),
    "buy": ("pass", "cards", "gold", "my_gain"),
    "sell": ("pass", "cards", "gold", "regret", "win"),
    "offer": ("pass", "my_gain", "partner_gain", "partner_leader"),
    "accept": ("pass", "my_gain", "partner_gain", "partner_leader"),
    "pirate": ("pass", "plunder_cards", "plunder_leader", "threat_gain", "guard", "blocks", "blocks_leader",
               "self_block", "unblock", "hand_size", "wind_card", "steps"),
    "storm": ("pass", "blocks", "blocks_leader", "self_block", "unblock", "guard", "hand_size"),
}
"""The features the engine fills per decision, for every option; the others are left stale and weigh 0 for it.
(A costly feature the deciding strategy weighs 0 may be left 0: it cannot change the pick.)"""

SCHEMA = DecisionSchema(
    decisions=("start_market", "sail", "buy", "sell", "offer", "accept", "pirate", "storm"),
    # Ordered so that the features each decision fills are one contiguous column span: the
    # engine scores only that span, which is exact since the other columns weigh 0 for it.
    features=(
        "sale_gain", "buy_gain", "arrive_sell", "arrive_buy", "row_card", "danger", "wind_card", "steps",
        "hand_size", "pass", "guard", "unblock", "blocks", "blocks_leader", "self_block", "plunder_cards",
        "plunder_leader", "threat_gain", "my_gain", "partner_gain", "partner_leader", "cards", "gold", "regret",
        "win", "sale_dist",
    ),
    filled=FILLED,
)

D = SCHEMA.D
"""Decision name -> index (``D.sail``)."""
F = SCHEMA.F
"""Feature name -> column (``F.sale_gain``)."""
