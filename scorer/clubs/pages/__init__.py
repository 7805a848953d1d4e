"""The pages of a club: its board, its games, the club night sheet.

Each module adds its routes to the shared `pages` blueprint (scorer.web.pages.bp).
"""

from scorer.clubs.pages import club_games, club_night, clubs

__all__ = ["club_games", "club_night", "clubs"]
