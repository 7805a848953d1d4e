"""A six-player game in French on a phone: three teams of two, three packs, three hands.

The table switches the scorer to French with the visible switch, then plays. Every expected
number is worked out by hand from docs/rules.md (sections 1 and 3, six-player profile).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from phone import BOARD_URL, no_sideways_scroll, shoot

NNBSP = "\u202f"  # French thousands separator
TEAMS = (("Léa", "Marc"), ("Zoé", "Hugo"), ("Inès", "Yann"))
SIDES = tuple(" & ".join(team) for team in TEAMS)


def fr(number: int) -> str:
    """A number as French readers write it: 2 300, -60."""
    text = f"{abs(number):,}".replace(",", NNBSP)
    return f"-{text}" if number < 0 else text


def board(page: Any) -> tuple[list[str], list[str]]:
    totals = page.locator(".side-total .total").all_inner_texts()
    minimums = page.locator(".side-total .minimum strong").all_inner_texts()
    return totals, minimums


def column(page: Any, index: int) -> Any:
    return page.locator(f'[data-column="{index}"]')


def call(page: Any, index: int, meld: int = 0, natural: int = 0, mixed: int = 0,
         red: int = 0, hand: int = 0) -> None:  # fmt: skip
    """Type what one side calls out at the end of the hand."""
    for name, value in (
        ("meld_points", meld),
        ("natural_canastas", natural),
        ("mixed_canastas", mixed),
        ("hand_points", hand),
    ):
        if value:
            page.fill(f"#sides-{index}-{name}", str(value))
    red_three_chip(page, index, red)


def red_three_chip(page: Any, index: int, count: int) -> None:
    """The side's red threes: a box of the sheet (empty for none)."""
    page.fill(f"#sides-{index}-red_threes", str(count) if count else "")


def record(page: Any, who: str) -> None:
    page.locator(".record-buttons a", has_text=who).tap()
    page.wait_for_selector("form.hand-form")
    assert no_sideways_scroll(page)


def save(page: Any) -> None:
    page.get_by_role("button", name="Enregistrer la donne").tap()


def test_a_six_player_game_in_french(make_page: Any, live_server: str, tmp_path: Path) -> None:
    page = make_page(locale="en-GB")  # the browser asks for English...
    page.goto(live_server + "/")
    assert page.locator("html").get_attribute("lang") == "en"

    # ...and the table taps FR in the header: the whole scorer turns French, and stays so.
    page.get_by_role("link", name="Français").tap()
    page.wait_for_selector('html[lang="fr"]')
    assert page.get_by_role("link", name="Français").get_attribute("aria-current") == "true"
    page.get_by_role("link", name="Nouvelle partie").first.tap()
    page.wait_for_selector("form.new-game-form")
    assert page.locator("html").get_attribute("lang") == "fr"

    page.get_by_label("Variante").select_option(label="Six joueurs (3 jeux)")
    page.fill("#sides-0-players-0", TEAMS[0][0])
    page.fill("#sides-0-players-1", TEAMS[0][1])
    page.fill("#sides-1-players-0", TEAMS[1][0])
    page.fill("#sides-1-players-1", TEAMS[1][1])
    # The variant brings its seating: the third team's boxes are there already.
    page.fill("#sides-2-players-0", TEAMS[2][0])
    page.fill("#sides-2-players-1", TEAMS[2][1])
    page.get_by_role("button", name="Commencer la partie").tap()
    page.wait_for_url(BOARD_URL)
    board_url = page.url

    assert page.locator(".flash").inner_text() == "La partie commence. Bonne chance\u00a0!"
    # Three teams of two at six players play to 7 500 (docs/rules.md section 3).
    assert f"Six joueurs (3 jeux), en 7{NNBSP}500" in page.locator(".page-head .meta").inner_text()
    assert page.locator(".side-total .side-name").all_inner_texts() == list(SIDES)
    assert board(page) == (["0", "0", "0"], ["50", "50", "50"])
    assert (
        page.locator(".side-total .minimum span").all_inner_texts() == ["Minimum d'ouverture"] * 3
    )
    # Seats alternate teams: Léa, Zoé, Inès, Marc, Hugo, Yann; Léa deals first.
    assert page.locator(".dealer-next").inner_text() == "Léa"
    assert "Prochain donneur" in page.locator(".next-deal").inner_text()
    assert no_sideways_scroll(page)

    # Hand 1: Léa & Marc go out with a natural and a mixed canasta and five red threes,
    # which score 1 000 together with three packs: 400 + 500 + 300 + 1000 + 100 = 2 300.
    # Zoé & Hugo: 120 + 100 - 30 = 190. Inès & Yann melded nothing: -60.
    record(page, SIDES[0])
    assert page.locator("h1").inner_text() == "Donne 1"
    assert "distribuée par Léa" in page.locator(".page-head .meta").inner_text()
    call(page, 0, meld=400, natural=1, mixed=1, red=5)
    call(page, 1, meld=120, red=1, hand=30)
    call(page, 2, hand=60)
    shoot(page, tmp_path, "six_fr_hand_form")
    save(page)
    page.wait_for_url(board_url)
    assert page.locator(".flash").inner_text() == "Donne 1 enregistrée."
    # 2 300 -> 90; 190 -> 50; -60 is below 0 -> 15.
    assert board(page) == ([fr(2300), "190", "−60"], ["90", "50", "15"])
    assert page.locator(".dealer-next").inner_text() == "Zoé"

    # Hand 2, nobody goes out. First typed with 4 + 3 red threes: seven, one more than the
    # six of three packs. The refusal is in French, on the field, and nothing is saved.
    record(page, "Personne")
    call(page, 0, meld=150, red=4, hand=20)
    call(page, 1, meld=200, natural=1, red=3, hand=10)
    call(page, 2, meld=90, hand=25)
    save(page)
    error = page.locator(".field-error").first
    error.wait_for()
    assert "trois rouges" in error.inner_text()
    assert "6" in error.inner_text()
    assert page.input_value("#sides-1-meld_points") == "200"  # what was typed is kept
    red_three_chip(page, 1, 2)
    save(page)
    page.wait_for_url(board_url)
    # 150 + 400 - 20 = 530; 200 + 500 + 200 - 10 = 890; 90 - 25 = 65.
    assert board(page) == ([fr(2830), fr(1080), "5"], ["90", "50", "50"])
    assert page.locator(".dealer-next").inner_text() == "Inès"

    # Hand 3: Zoé & Hugo go out concealed with two natural canastas (six players need two):
    # 300 + 1000 + 200 = 1 500. Léa & Marc melded nothing, so their red three costs 100:
    # -100 - 45 = -145. Inès & Yann: 60.
    record(page, SIDES[1])
    call(page, 0, red=1, hand=45)
    call(page, 1, meld=300, natural=2)
    call(page, 2, meld=60)
    page.get_by_label("Sortie cachée").check()
    save(page)
    page.wait_for_url(board_url)
    assert page.locator(".flash").inner_text() == "Donne 3 enregistrée."
    # 2 830 - 145 = 2 685 -> 90; 1 080 + 1 500 = 2 580 -> 90; 5 + 60 = 65 -> 50.
    assert board(page) == ([fr(2685), fr(2580), "65"], ["90", "90", "50"])
    assert page.locator(".dealer-next").inner_text() == "Marc"
    latest = page.locator(".hand-row").first
    assert latest.locator(".hand-meta").inner_text() == (
        "Distribuée par Inès. Sortie cachée de Zoé & Hugo."
    )
    assert latest.locator(".breakdown tbody th").all_inner_texts() == [
        "Cartes", "Canastas", "Trois rouges", "Sortie", "En main", "Donne", "Total",
    ]  # fmt: skip
    body = page.locator("main").inner_text()
    for english in ("Next dealer", "Opening minimum", "Hands", "Record a hand", "went out"):
        assert english not in body
    assert no_sideways_scroll(page)
    shoot(page, tmp_path, "six_fr_board")

    # The rules page opened from the game: its minimum table, each team on its row.
    page.locator(".game-actions a", has_text="Règles").tap()
    page.wait_for_selector("h1:has-text('Règles de la canasta')")
    current = page.locator(".minimum-table tr.current")
    assert current.count() == 2
    assert current.nth(0).locator("th").inner_text().startswith("de 0 à 1")
    assert "Inès & Yann (65)" in current.nth(0).inner_text()
    assert f"Léa & Marc ({fr(2685)})" in current.nth(1).inner_text()
    assert f"Zoé & Hugo ({fr(2580)})" in current.nth(1).inner_text()
    assert no_sideways_scroll(page)
    shoot(page, tmp_path, "six_fr_rules")
