"""Command-line tasks: `flask --app scorer backup PATH`, `flask --app scorer prune` and
`flask --app scorer import-club PART...`; a host's, which need no app, in __main__:
`python -m scorer.cli restore /etc/scorer/shard-N.env`."""

from __future__ import annotations

import glob
import json
import os
import sqlite3
import tempfile
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import with_appcontext

from scorer import store
from scorer.core.errors import ScorerError
from scorer.store import housekeeping
from scorer.store.db import get_db
from scorer.web.api_contract import parse_export


def backup_database(source: str | Path, destination: str | Path) -> None:
    """A consistent copy of the whole database, safe while the app is writing to it.

    SQLite's online backup API copies a single snapshot, and the copy is written beside the
    destination and renamed into place, so PATH is always either the old file or a whole
    new one.
    """
    destination = Path(destination)
    remove_leftovers(destination)
    if not Path(source).is_file():
        raise click.ClickException(f"no database at {source}")
    # A private temporary name in the same folder (mode 0600, as mkstemp makes it), so the
    # copy is never readable by others, even for a moment, and the rename is atomic.
    fd, name = tempfile.mkstemp(dir=destination.parent, prefix=partial_prefix(destination))
    os.close(fd)
    partial = Path(name)
    src = sqlite3.connect(source, timeout=30)
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)
            (check,) = dst.execute("PRAGMA integrity_check").fetchone()
            if check != "ok":
                raise click.ClickException(f"the copy failed its integrity check: {check}")
            # A backup is one self-contained file: no -wal beside it to lose on the way.
            dst.execute("PRAGMA journal_mode = DELETE")
        finally:
            dst.close()
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        src.close()
    os.replace(partial, destination)


def partial_prefix(destination: Path) -> str:
    return f".{destination.name}.partial."


def remove_leftovers(destination: Path) -> None:
    """Partial copies an interrupted backup (kill, power cut) left beside `destination`."""
    for leftover in destination.parent.glob(glob.escape(partial_prefix(destination)) + "*"):
        leftover.unlink(missing_ok=True)


@click.command("backup")
@with_appcontext
@click.argument("path", type=click.Path(dir_okay=False, writable=True))
def backup_command(path: str) -> None:
    """Write a consistent copy of the database to PATH (safe while the app runs)."""
    source = current_app.config["DATABASE"]
    if Path(path).resolve() == Path(source).resolve():
        raise click.BadParameter(
            "the backup must not replace the database itself", param_hint="PATH"
        )
    backup_database(source, path)
    click.echo(f"backed up {source} to {path}")


@click.command("prune")
@with_appcontext
@click.option(
    "--days",
    type=click.IntRange(min=1),
    default=housekeeping.ABANDONED_AFTER_DAYS,
    show_default=True,
    help="Games with no hand, and clubs with no game, untouched for this many days.",
)
@click.option(
    "--played-days",
    type=click.IntRange(min=1),
    default=housekeeping.PLAYED_KEPT_DAYS,
    show_default=True,
    help="Games with hands untouched for this many days (in a club: the club's games too).",
)
@click.option("--yes", is_flag=True, help="Delete them (without it, only list them).")
def prune_command(days: int, played_days: int, yes: bool) -> None:
    """Remove abandoned games, empty clubs and expired retry keys (dry run by default).

    A game with hands goes too once untouched for --played-days: a table that wants to keep
    it exports it first (GET /api/games/<id>/export, or the club's export).
    """
    db = get_db()
    if not yes:
        found = housekeeping.planned(db, housekeeping.cutoffs(days, played_days))
        for game_id in found.games:
            click.echo(game_id)
        for club_id in found.clubs:
            click.echo(f"club {club_id}")
        click.echo(
            f"{len(found.games)} abandoned game(s), {len(found.clubs)} empty club(s) and "
            f"{found.keys} expired key(s) would be removed; --yes removes them"
        )
        return
    removed = housekeeping.prune_abandoned(db, days, played_days=played_days)
    click.echo(
        f"removed {len(removed.games)} abandoned game(s), {len(removed.clubs)} empty club(s) "
        f"and {removed.keys} expired key(s)"
    )


@click.command("import-club")
@with_appcontext
@click.argument("parts", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--into", "club_id", help="Add the parts to this club rather than make a new one.")
def import_club_command(parts: tuple[str, ...], club_id: str | None) -> None:
    """Import a club's export, its PARTS in order (each one's "next" gave the one after).

    The same checks as POST /api/clubs/import and /api/clubs/<id>/import, one part at a
    time, each all or nothing; without a client's import budget, which takes about one
    full part an hour: a host restoring a big club does it here at once."""
    db = get_db()
    for number, path in enumerate(parts, start=1):
        try:
            data = json.loads(Path(path).read_bytes())
            if club_id is None:
                club_id = store.import_club(db, data, parse_export)
            else:
                store.import_into_club(db, club_id, data, parse_export)
        except (ScorerError, ValueError, OSError) as error:  # a RuleError, bad JSON, no file
            raise click.ClickException(
                f"{path} (part {number}) refused: {error}{stored_before(number, club_id)}"
            ) from None
        click.echo(f"{path}: in club {club_id}")
    click.echo(f"club {club_id}: /clubs/{club_id}")


def stored_before(number: int, club_id: str | None) -> str:
    """What the parts before a refused one left, so `--into` can go on from there."""
    if number == 1:
        return ""
    done = "part 1 is" if number == 2 else f"parts 1 to {number - 1} are"
    return f"; {done} in club {club_id}"


def init_app(app: Flask) -> None:
    app.cli.add_command(backup_command)
    app.cli.add_command(prune_command)
    app.cli.add_command(import_club_command)
