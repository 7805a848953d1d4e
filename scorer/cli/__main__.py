"""A host's tasks on a shard that is not serving: `python -m scorer.cli restore SETTINGS`."""

from __future__ import annotations

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


if __name__ == "__main__":
    host()
