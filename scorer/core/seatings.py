"""Seatings: every way the variants seat a table (sides and players per side), each with the
variant whose numbers it plays. Pure data from scorer.core.rules: the new-game form and the blank
sheets both read it; the blank sheets offer every family a game may be created in."""

from __future__ import annotations

from dataclasses import dataclass, replace

from scorer.core.families import DEFAULT_FAMILY, RuleFamily
from scorer.core.rules import VARIANTS, RuleProfile, profiles_of

ALONE = "alone"
# The short name of the usual team seating for a number of sides (?seating=teams).
TEAMS = "teams"


@dataclass(frozen=True)
class Seating:
    profile_key: str
    team_sizes: tuple[int, ...]
    target: int

    @property
    def sides(self) -> int:
        return len(self.team_sizes)

    @property
    def players(self) -> int:
        return sum(self.team_sizes)

    @property
    def alone(self) -> bool:
        return all(size == 1 for size in self.team_sizes)

    @property
    def key(self) -> str:
        """ "alone", or the team sizes: "2-2", "3-2", "2-2-2", "3-3"."""
        return ALONE if self.alone else "-".join(map(str, self.team_sizes))

    def profile(self) -> RuleProfile:
        """The variant with this seating's target (3+3 at six players plays to 10 000)."""
        return replace(VARIANTS[self.profile_key], target=self.target)


def seatings_of(profile: RuleProfile) -> list[Seating]:
    """A variant's seatings, teams first, every player alone last."""
    layouts = sorted(profile.allowed_layouts(), key=lambda x: max(x.team_sizes) == 1)
    return [Seating(profile.key, x.team_sizes, x.target) for x in layouts]


def blank_seatings(family: RuleFamily = DEFAULT_FAMILY) -> list[Seating]:
    """One seating per (sides, key) of a family's variants for blank sheets, by number of
    sides (a family a game may be created in: scorer.core.families.FAMILIES)."""
    found: dict[tuple[int, str], Seating] = {}
    for profile in profiles_of(family).values():
        for seating in seatings_of(profile):
            found.setdefault((seating.sides, seating.key), seating)
    return sorted(found.values(), key=lambda s: (s.sides, s.alone, s.players))


def blank_seating(
    sides: int, key: str | None, family: RuleFamily = DEFAULT_FAMILY
) -> Seating | None:
    """The seating of a blank sheet; `teams` is the sides' first team seating, no key the
    first seating listed (teams of two for 2 sides, three players alone for 3)."""
    choices = [s for s in blank_seatings(family) if s.sides == sides]
    if not choices:
        return None
    if not key:
        return next((s for s in choices if s.alone), None) if sides > 2 else choices[0]
    if key == TEAMS:
        return next((s for s in choices if not s.alone), None)
    return next((s for s in choices if s.key == key), None)
