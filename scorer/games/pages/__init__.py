"""The pages of a game: the list and the new-game form, the scoreboard, hand entry,
corrections, after the end, play again.

Each module adds its routes to the games' own blueprint (scorer.games.pages.blueprint.bp,
endpoints "games.*"), so importing this package adds them all; scorer.games.init_app
registers it.
"""

from scorer.games.pages import after_end, blueprint, board, games, hand_grid, hands, play_again

bp = blueprint.bp
__all__ = ["after_end", "board", "bp", "games", "hand_grid", "hands", "play_again"]
