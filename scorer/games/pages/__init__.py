"""The pages of a game: the list and the new-game form, the scoreboard, hand entry,
corrections, after the end, play again.

Each module adds its routes to the shared `pages` blueprint (scorer.web.pages.bp), so
importing this package registers them; create_app registers the blueprint.
"""

from scorer.games.pages import after_end, board, games, hand_grid, hands, play_again

__all__ = ["after_end", "board", "games", "hand_grid", "hands", "play_again"]
