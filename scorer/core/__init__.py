"""The pure core: the rule book, a hand's score, a game's replay, stats. No Flask, no SQL.

Imports nothing outside scorer.core (tests/test_layers.py holds it to that).
"""
