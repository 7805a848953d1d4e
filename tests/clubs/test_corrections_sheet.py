"""The record of corrections printed on a club game's PDF sheet (issue 33), read back with
pdfplumber: each correction and removal, what the hand was and what it became. A game with no
correction prints none."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pdfplumber
from test_corrections_record import club_game, hand


def sheet_text(client, game_id: str, folder: Path) -> str:
    response = client.get(f"/games/{game_id}/sheet.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    (folder / "sheet.pdf").write_bytes(response.data)  # to look at (pdftoppm)
    with pdfplumber.open(io.BytesIO(response.data)) as pdf:
        return re.sub(r"\s+", " ", " ".join(page.extract_text() or "" for page in pdf.pages))


def test_the_sheet_prints_the_record_of_corrections(client, tmp_path):
    game_id = club_game(client)
    for first, second in ((300, 100), (150, 200), (50, 50)):
        assert (
            client.post(f"/api/games/{game_id}/hands", json=hand(first, second)).status_code == 201
        )
    assert "Record of corrections" not in sheet_text(client, game_id, tmp_path)
    etag = client.get(f"/api/games/{game_id}").headers["ETag"]
    fixed = client.put(
        f"/api/games/{game_id}/hands/1", json=hand(350, 100), headers={"If-Match": etag}
    )
    assert fixed.status_code == 200, fixed.json
    etag = client.get(f"/api/games/{game_id}").headers["ETag"]
    assert client.delete(
        f"/api/games/{game_id}/hands/2", headers={"If-Match": etag}
    ).status_code in (
        200,
        204,
    )
    text = sheet_text(client, game_id, tmp_path)
    assert "Record of corrections" in text
    assert "Hand 1 corrected" in text and "from the API" in text
    assert "was Ann 300 · Bob 100; became Ann 350 · Bob 100" in text
    assert "Hand 2 removed" in text and "was Ann 150 · Bob 200" in text
