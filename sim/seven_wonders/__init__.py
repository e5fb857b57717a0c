"""7 Wonders (1st edition) + Babel: data, rules, state and rule mechanics (the GameSpec comes with the game
contract)."""
