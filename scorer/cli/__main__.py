"""A host's tasks on a shard that is not serving: `python -m scorer.cli restore SETTINGS`."""

from __future__ import annotations

import os
import time
import urllib.error
import urllib.request
from pathlib import Path

import click

from scorer.cli import restore


@click.group()
def host() -> None:
    """A host's tasks on a shard that is not serving (README "Hosting for many clubs")."""


@host.command("restore")
@click.argument("settings", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--config",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default="/etc/scorer/litestream.yml",
    show_default=True,
    help="The Litestream configuration the shard replicates with.",
)
def restore_command(settings: Path, config: Path) -> None:
    """Restore the shard whose settings file is SETTINGS from its replica, as the service
    user, with the shard stopped: the old database moved aside with its -wal and -shm,
    the copy checked (integrity, migrations), the fleet's key brought back."""
    try:
        restore.restore(settings, config, click.echo)
    except restore.RestoreError as error:
        raise click.ClickException(str(error)) from None
    click.echo("done: start scorer@N and litestream@N again")


@host.command("health")
@click.option("--timeout", type=float, default=5.0, show_default=True, help="Seconds a try.")
@click.option("--tries", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--pause", type=float, default=10.0, show_default=True, help="Seconds between.")
def health_command(timeout: float, tries: int, pause: float) -> None:
    """Ask the shard named by HOST and PORT (its settings file, in the environment) for
    /healthz; fail (exit 1) unless one of the tries answers 200. scorer-health@.timer runs it."""
    url = f"http://{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '5000')}/healthz"
    for attempt in range(1, tries + 1):
        try:
            with urllib.request.urlopen(url, timeout=timeout) as answer:
                click.echo(f"{url}: {answer.status} {answer.read().decode()}")
                return
        except urllib.error.HTTPError as error:
            failure = f"{url}: {error.code} {error.read().decode()}"
        except OSError as error:
            failure = f"{url}: not answering ({error})"
        click.echo(f"try {attempt} of {tries}: {failure}", err=True)
        if attempt < tries:
            time.sleep(pause)
    raise click.ClickException(failure)


if __name__ == "__main__":
    host()
