"""Command-line tasks: `flask --app scorer backup PATH`."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import with_appcontext


def backup_database(source: str | Path, destination: str | Path) -> None:
    """A consistent copy of the whole database, safe while the app is writing to it.

    SQLite's online backup API copies a single snapshot, and the copy is written beside the
    destination and renamed into place, so PATH is always either the old file or a whole
    new one.
    """
    destination = Path(destination)
    partial = destination.with_name(f".{destination.name}.partial")
    partial.unlink(missing_ok=True)
    if not Path(source).is_file():
        raise click.ClickException(f"no database at {source}")
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


def init_app(app: Flask) -> None:
    app.cli.add_command(backup_command)
