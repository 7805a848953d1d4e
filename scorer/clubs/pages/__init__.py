"""The pages of a club: its board, its games, the club night sheet, its special hands.

Each module adds its routes to the clubs' own blueprint (scorer.clubs.pages.blueprint.bp,
endpoints "clubs.*"); scorer.clubs.init_app registers it.
"""

from scorer.clubs.pages import blueprint, club_games, club_night, clubs, special_hands

bp = blueprint.bp
__all__ = ["bp", "club_games", "club_night", "clubs", "special_hands"]
