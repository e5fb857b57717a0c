"""Machinery shared by every game: RNG, rules handling, option choice, records and the registry."""
