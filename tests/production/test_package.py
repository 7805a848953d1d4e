"""The package works wherever it is installed: a wheel, a fresh venv, another folder.

Builds the wheel from this checkout with pip (as `pip install .` does), installs it with its
dependencies in a new virtual environment, then serves it with that environment's gunicorn
from an empty folder, on loopback.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import urllib.request
import zipfile
from pathlib import Path

import pdfplumber
from serving import ROOT, running

from bench.launcher import call, free_port, gunicorn

INSTALL_TIMEOUT = 600  # a cold pip cache downloads every dependency


def run(*command: str | Path, cwd: Path) -> None:
    subprocess.run(command, cwd=cwd, check=True, capture_output=True, timeout=INSTALL_TIMEOUT)


def clean_copy(folder: Path) -> Path:
    """The files a clone would hold (with uncommitted changes), without build leftovers."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout.split("\0")  # fmt: skip
    for name in filter(None, listed):
        if (ROOT / name).is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, folder / name)
    return folder


def build_wheel(folder: Path) -> Path:
    source = clean_copy(folder / "clone")
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", folder, source, cwd=folder)
    (wheel,) = folder.glob("scorer-*.whl")
    return wheel


def install(wheel: Path, venv: Path) -> Path:
    """The bin folder of a new venv holding the wheel and its dependencies."""
    run(sys.executable, "-m", "venv", venv, cwd=venv.parent)
    run(venv / "bin" / "python", "-m", "pip", "install", "-q", wheel, cwd=venv.parent)
    return venv / "bin"


def fetch_bytes(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read()


def test_the_installed_wheel_serves_its_pages_from_another_folder(tmp_path):
    wheel = build_wheel(tmp_path)
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"scorer/templates/base.html", "scorer/static/app.css"} <= names
    assert "scorer/translations/fr/LC_MESSAGES/messages.mo" in names  # compiled by the build

    venv = tmp_path / "venv"
    bin_folder = install(wheel, venv)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    port = free_port()
    command = gunicorn(
        [], f"127.0.0.1:{port}", "scorer:create_app()", [str(bin_folder / "gunicorn")]
    )
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}  # nothing of this checkout's
    with running(command, env, port, tmp_path / "server.log", cwd=elsewhere) as server:
        status, home, _ = call("GET", f"{server.base}/")
        assert status == 200 and "<html" in home.lower()
        status, css, headers = call("GET", f"{server.base}/static/app.css")
        assert status == 200 and headers["Content-Type"].startswith("text/css") and css
        status, rules, _ = call("GET", f"{server.base}/rules", headers={"Accept-Language": "fr"})
        assert status == 200 and "Règles" in rules
        sheet = fetch_bytes(f"{server.base}/sheets/blank.pdf")
        with pdfplumber.open(io.BytesIO(sheet)) as pdf:
            assert pdf.pages and pdf.pages[0].extract_text()

    # The data sit in the instance folder Flask gives an installed package.
    instance = venv / "var" / "scorer-instance"
    assert (instance / "secret_key").is_file() and (instance / "scorer.sqlite3").is_file()
    assert not list(venv.glob("lib/python*/site-packages/instance"))
    assert not list(elsewhere.iterdir())  # nothing written where it was started
