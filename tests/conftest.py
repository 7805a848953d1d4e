"""Shared fixtures: a real app on a real SQLite file in a temporary folder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorer import create_app
from scorer.network import ENV_LAN_ADDRESS

# The tests never look for this machine's network address: a page opened on 127.0.0.1 puts
# this one in its QR codes. Discovery itself is tested as a unit, on made-up addresses.
os.environ.setdefault(ENV_LAN_ADDRESS, "127.0.0.1")


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "scorer.sqlite3"),
            "SECRET_KEY": "test-secret",
            "WTF_CSRF_ENABLED": False,
        }
    )
    yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()
