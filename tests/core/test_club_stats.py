"""Club statistics against numbers worked out by hand from the rule book, and a property.

The small club: Ann, Bob, Cy and Di, classic rules with a target of 1 000.

Game 1 (2024-03-01), Ann & Bob against Cy & Di.
  hand 1: A 200 melded + natural canasta 500 + 2 red threes 200 + out 100 = 1 000;
          B 100 melded - 50 in hand = 50.                          Totals 1 000 / 50: A wins.
Game 2 (2024-06-01), Ann & Cy against Bob & Di.
  hand 1: A 50 melded + 1 red three 100 - 30 in hand = 120;
          B 150 melded + mixed canasta 300 + out concealed 200 = 650.   Totals 120 / 650.
  hand 2: A 300 + natural 500 + mixed 300 + out 100 = 1 200;
          B 60 melded + 1 red three 100 - 40 = 120.              Totals 1 320 / 770: A wins,
          after being 530 behind.
Game 3 (2025-01-10), Ann & Bob against Cy & Di, not finished.
  hand 1: A melded nothing: 1 red three counts -100, 100 in hand: -200;
          B 120 + natural 500 + out 100 = 720.                       Totals -200 / 720.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.core.errors import RuleError
from scorer.core.game import GameState, Side, add_hand, make_table, new_game, play
from scorer.core.hands import Hand, SideHand
from scorer.core.rules import get_profile, with_target
from scorer.core.stats import ClubGame, club_stats, streak

PROFILE = with_target(get_profile("classic"), 1000)


def game(game_id: str, date: str, a: tuple, b: tuple, hands: list[Hand]) -> ClubGame:
    table = make_table(PROFILE, (Side("A", a), Side("B", b)))
    return ClubGame(game_id, date, play(table, hands))


def call(meld=0, natural=0, mixed=0, reds=0, left=0) -> SideHand:
    return SideHand(
        meld_points=meld,
        natural_canastas=natural,
        mixed_canastas=mixed,
        red_threes=reds,
        hand_points=left,
    )


CLUB = [
    game(
        "g1",
        "2024-03-01T20:00:00+00:00",
        ("Ann", "Bob"),
        ("Cy", "Di"),
        [Hand((call(200, 1, 0, 2), call(100, left=50)), went_out=0)],
    ),
    game(
        "g2",
        "2024-06-01T20:00:00+00:00",
        ("Ann", "Cy"),
        ("Bob", "Di"),
        [
            Hand((call(50, reds=1, left=30), call(150, 0, 1)), went_out=1, concealed=True),
            Hand((call(300, 1, 1), call(60, reds=1, left=40)), went_out=0),
        ],
    ),
    game(
        "g3",
        "2025-01-10T20:00:00+00:00",
        ("Ann", "Bob"),
        ("Cy", "Di"),
        [Hand((call(0, reds=1, left=100), call(120, 1)), went_out=1)],
    ),
]


@pytest.fixture(scope="module")
def stats():
    return club_stats(CLUB, "2024")


def by_name(standings):
    return {s.name: s for s in standings}


def test_the_games_replay_as_worked_out():
    assert [g.state.totals for g in CLUB] == [(1000, 50), (1320, 770), (-200, 720)]
    assert [g.state.winner for g in CLUB] == [0, 0, None]


def test_player_standings(stats):
    assert [s.name for s in stats.players] == ["Ann", "Cy", "Bob", "Di"]
    ann, bob, cy, di = (by_name(stats.players)[n] for n in ("Ann", "Bob", "Cy", "Di"))
    assert (ann.games, ann.finished, ann.wins, ann.hands, ann.points) == (3, 2, 2, 4, 2120)
    assert ann.win_rate == 1.0 and ann.average_hand == 530
    assert (ann.natural_per_hand, ann.mixed_per_hand, ann.red_threes_per_hand) == (0.5, 0.25, 1.0)
    assert (ann.going_out_rate, ann.concealed_rate) == (0.5, 0.0)
    assert (ann.best_hand.score, ann.best_hand.game_id, ann.best_hand.hand_number) == (
        1200,
        "g2",
        2,
    )
    assert ann.comeback.deficit == 530 and ann.comeback.game_id == "g2"
    assert ann.streak == 2

    assert (bob.games, bob.finished, bob.wins, bob.points) == (3, 2, 1, 1570)
    assert (bob.natural_canastas, bob.mixed_canastas, bob.red_threes) == (1, 1, 4)
    assert (bob.went_out, bob.concealed, bob.concealed_rate) == (2, 1, 0.25)
    assert bob.best_hand.score == 1000 and bob.comeback is None and bob.streak == -1

    assert (cy.wins, cy.points, cy.natural_canastas, cy.mixed_canastas, cy.red_threes) == (
        1,
        2090,
        2,
        1,
        1,
    )
    assert cy.streak == 1 and cy.comeback.deficit == 530

    assert (di.wins, di.finished, di.points, di.went_out, di.concealed) == (0, 2, 1540, 2, 1)
    assert di.best_hand.score == 720 and di.best_hand.side == 1 and di.streak == -2


def test_partnerships(stats):
    pairs = by_name(stats.partnerships)
    assert set(pairs) == {"Ann & Bob", "Cy & Di", "Ann & Cy", "Bob & Di"}
    ann_bob = pairs["Ann & Bob"]
    assert (ann_bob.games, ann_bob.finished, ann_bob.wins, ann_bob.hands) == (2, 1, 1, 2)
    assert ann_bob.points == 800
    assert pairs["Cy & Di"].points == 770 and pairs["Cy & Di"].wins == 0
    assert pairs["Ann & Cy"].comeback.deficit == 530


def test_head_to_head(stats):
    rows = {(h.player, h.opponent): (h.games, h.wins, h.losses) for h in stats.head_to_head}
    assert rows[("Ann", "Cy")] == (1, 1, 0)  # game 2 together, game 3 unfinished
    assert rows[("Ann", "Bob")] == (1, 1, 0)
    assert rows[("Bob", "Ann")] == (1, 0, 1)
    assert rows[("Di", "Ann")] == (2, 0, 2)
    assert ("Ann", "Ann") not in rows


def test_series(stats):
    ann = stats.series["Ann"]
    assert [p.game_id for p in ann] == ["g1", "g2", "g3"]
    assert [p.points for p in ann] == [1000, 1320, -200]
    assert [p.total_points for p in ann] == [1000, 2320, 2120]
    assert [p.total_wins for p in ann] == [1, 2, 2]
    assert [p.games for p in ann] == [1, 2, 3]


def test_records_of_a_year():
    of_2024 = club_stats(CLUB, "2024").records
    best = of_2024.best_hand
    assert (best.score, best.game_id, best.hand_number, best.side) == (1200, "g2", 2, 0)
    assert best.players == ("Ann", "Cy") and best.date.startswith("2024-06-01")
    assert (of_2024.best_game.score, of_2024.best_game.game_id) == (1320, "g2")
    assert of_2024.comeback.deficit == 530
    of_2025 = club_stats(CLUB, "2025").records
    assert (of_2025.best_hand.score, of_2025.best_hand.game_id) == (720, "g3")
    assert of_2025.comeback is None
    assert club_stats(CLUB, "2023").records.best_hand is None


def test_streak():
    assert streak([]) == 0
    assert streak([True, False, False]) == -2
    assert streak([False, True, True, True]) == 3


# --- property: a club's totals are the sum over its games' replays ---------------------------

NAMES = ("Ann", "Bob", "Cy", "Di", "Ed")


@st.composite
def side_calls(draw) -> SideHand:
    meld = draw(st.integers(0, 60)) * 5
    natural = draw(st.integers(0, 1)) if meld >= 35 else 0
    mixed = draw(st.integers(0, 1)) if meld >= 35 * natural + 50 else 0
    return call(meld, natural, mixed, draw(st.integers(0, 2)), draw(st.integers(0, 20)) * 5)


@st.composite
def club_games(draw) -> list[ClubGame]:
    games = []
    for number in range(draw(st.integers(1, 4))):
        four = draw(st.permutations(NAMES))[:4]
        table = make_table(PROFILE, (Side("A", tuple(four[:2])), Side("B", tuple(four[2:]))))
        state: GameState = new_game(table)
        for _ in range(draw(st.integers(0, 6))):
            hand = Hand(
                (draw(side_calls()), draw(side_calls())),
                went_out=draw(st.sampled_from([None, 0, 1])),
            )
            try:
                state = add_hand(state, hand)
            except RuleError:
                continue  # a call the rules refuse: the table would correct it
            if state.finished:
                break
        games.append(ClubGame(f"g{number}", f"2024-01-0{number + 1}", state))
    return games


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(club_games())
def test_a_players_totals_are_the_sum_over_the_games(games):
    stats = club_stats(games, "2024")
    for standing in stats.players:
        (name,) = standing.players
        sides = [
            (g.state, i)
            for g in games
            for i, s in enumerate(g.state.table.sides)
            if name in s.players
        ]
        assert standing.games == len(sides)
        assert standing.points == sum(state.totals[i] for state, i in sides)
        assert standing.hands == sum(len(state.results) for state, _ in sides)
        assert standing.wins == sum(state.winner == i for state, i in sides)
        assert standing.natural_canastas == sum(
            r.hand.sides[i].natural_canastas for state, i in sides for r in state.results
        )
        assert stats.series[name][-1].total_points == standing.points
    assert sum(s.games for s in stats.players) == 4 * len(games)
