"""Circus Train (Victory Point Games, 2nd edition): rules, data, state and mechanics (no engine wiring yet)."""
