"""Screenshots of every page at phone size, light and dark, for a human to look at."""

from __future__ import annotations

import pytest
from phone import BOARD_URL, no_sideways_scroll, shoot, start_game


def record(page, base_url, out, a, b, a_out_bonus=True):
    page.goto(f"{base_url}/hands/new?out={out}")
    page.fill("#sides-0-meld_points", str(a[0]))
    page.fill("#sides-0-natural_canastas", str(a[1]))
    page.fill("#sides-1-meld_points", str(b[0]))
    page.fill("#sides-1-hand_points", str(b[1]))
    page.get_by_role("button", name="Save hand").tap()
    page.wait_for_url(BOARD_URL)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_at_phone_size(make_page, live_server, scheme, tmp_path):
    page = make_page(color_scheme=scheme)
    page.goto(live_server + "/")
    shoot(page, tmp_path, f"home-empty-{scheme}")
    page.goto(live_server + "/games/new")
    page.click("summary:has-text('House rules')")
    shoot(page, tmp_path, f"new-game-{scheme}")
    board = start_game(page, live_server, ("Ann", "Bob", "Cy", "Dee"))
    shoot(page, tmp_path, f"board-empty-{scheme}")
    page.goto(board + "/hands/new?out=0")
    shoot(page, tmp_path, f"hand-new-{scheme}")
    assert no_sideways_scroll(page)
    record(page, board, 0, (900, 2), (50, 85))
    record(page, board, "none", (90, 0), (300, 40))  # A at 2 000: minimum 90
    record(page, board, 0, (600, 1), (100, 40))
    shoot(page, tmp_path, f"board-hands-{scheme}")
    assert no_sideways_scroll(page)
    page.goto(board + "/hands/new?out=0")
    page.fill("#sides-0-meld_points", "130")
    # Five red threes in all (the deck has four): red threes are a box of the sheet now, not chips.
    page.tap("#sides-0-red_threes")
    page.keyboard.type("4")
    page.tap("#sides-1-red_threes")
    page.keyboard.type("1")
    with page.expect_navigation():
        page.get_by_role("button", name="Save hand").tap()
    shoot(page, tmp_path, f"hand-refused-{scheme}")
    page.goto(board + "/hands/2/edit")
    shoot(page, tmp_path, f"hand-edit-{scheme}")
    page.goto(board + "/undo")
    shoot(page, tmp_path, f"confirm-undo-{scheme}")
    page.goto(live_server + "/")
    shoot(page, tmp_path, f"home-{scheme}")
    page.goto(live_server + "/rules")
    shoot(page, tmp_path, f"rules-{scheme}")
    page.goto(live_server + "/games/nope")
    shoot(page, tmp_path, f"not-found-{scheme}")
    narrow = make_page(width=360, color_scheme=scheme)
    narrow.goto(board)
    shoot(narrow, tmp_path, f"board-360-{scheme}")
    assert no_sideways_scroll(narrow)
    narrow.goto(board + "/hands/new?out=1")
    shoot(narrow, tmp_path, f"hand-new-360-{scheme}")
    assert no_sideways_scroll(narrow)
