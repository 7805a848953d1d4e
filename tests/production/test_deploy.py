"""`deploy/` is generated (issue 24): the committed files are the generator's output, and the
router sends every route that carries an id to the shard the id names."""

from __future__ import annotations

import getpass
import re
import shutil
import subprocess

import pytest

from scorer import ROOT, create_app, deploy
from scorer.store import ids

TOKEN = "Ab3_-" * 4 + "xy"  # 22 URL-safe characters


def test_the_committed_deploy_folder_is_the_generators_output():
    made = deploy.files(deploy.EXAMPLE)
    folder = ROOT / "deploy"
    assert sorted(path.name for path in folder.iterdir()) == sorted(made)
    for name, text in made.items():
        assert (folder / name).read_text() == text, f"deploy/{name}: run {deploy.EXAMPLE.options()}"


def id_routes(tmp_path) -> list[str]:
    app = create_app({"DATABASE": str(tmp_path / "db.sqlite3"), "INSTANCE_PATH": str(tmp_path)})
    found = []
    for rule in app.url_map.iter_rules():
        if deploy.ID_ARGUMENT.search(rule.rule):
            found.append(rule.rule)
    return found


@pytest.mark.parametrize("shard", [1, 2, 3])
def test_every_route_with_an_id_goes_to_its_shard(tmp_path, shard):
    table = deploy.routes(deploy.EXAMPLE, deploy.id_prefixes())
    routes = id_routes(tmp_path)
    assert len(routes) > 40  # games, clubs, nights, watch, their API
    assert {"/nights/<night_id>", "/nights/watch/<wall_id>"} <= set(routes)
    for rule in routes:
        path = re.sub(r"<(?:[a-z]+:)?(\w+)>", lambda m: "7" if m[1] == "number" else "x", rule)
        path = re.sub(r"/x(?=[/.]|$)", f"/s{shard}-{TOKEN}", path, count=1)  # .csv, .pdf
        path = path.replace("/x", "/Ann")  # a player's name after the club's id
        assert deploy.upstream_for(path, table) == f"scorer_shard_{shard}", path


def test_bare_ids_stay_on_the_shard_that_was_the_single_box(tmp_path):
    table = deploy.routes(deploy.EXAMPLE, deploy.id_prefixes())
    assert deploy.upstream_for(f"/games/{TOKEN}/sheet.pdf", table) == "scorer_shard_1"
    other = deploy.Plan(shards=3, bare_ids_shard=2)
    other_table = deploy.routes(other, deploy.id_prefixes())
    assert deploy.upstream_for(f"/watch/{TOKEN}", other_table) == "scorer_shard_2"
    # A bare id that begins like a sharded one is still bare (22 characters).
    assert deploy.upstream_for("/games/s3-" + "q" * 19, table) == "scorer_shard_1"


@pytest.mark.parametrize(
    "path",
    ["/", "/games/new", "/clubs/new", "/api/games", "/api/clubs", "/api/games/import",
     "/api/clubs/import", "/rules", "/sheets/blank.pdf", "/static/app.css",
     f"/games/s4-{TOKEN}"],
)  # fmt: skip
def test_what_has_no_id_goes_to_any_shard(path):
    table = deploy.routes(deploy.EXAMPLE, deploy.id_prefixes())
    assert deploy.upstream_for(path, table) == "scorer_any"


def test_the_generator_writes_the_folder(tmp_path):
    deploy.main([str(tmp_path), "--shards", "2", "--port-base", "9001"])
    assert (tmp_path / "shard-2.env").read_text().count("PORT=9002") == 1
    assert "server 127.0.0.1:9002;" in (tmp_path / "scorer-shards.conf").read_text()
    assert ids.ENV_SHARD + "=2" in (tmp_path / "shard-2.env").read_text()


def test_the_caddyfile_is_one_caddy_reads_and_formats_as_written():
    assert shutil.which("caddy"), "caddy is missing: run `make test` (it installs it)"
    caddyfile = ROOT / "deploy" / "Caddyfile"
    adapted = subprocess.run(
        ["caddy", "adapt", "--config", str(caddyfile), "--adapter", "caddyfile"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert adapted.returncode == 0, adapted.stderr
    assert "Strict-Transport-Security" in adapted.stdout
    assert "not formatted" not in adapted.stderr


def test_a_shards_unit_runs_the_launcher_that_opens_no_control_socket():
    """Each shard's gunicorn is `python -m scorer.serve` (no control socket: test_serve), so
    the shards of one host never share gunicorn's one-per-user control socket."""
    unit = deploy.files(deploy.EXAMPLE)["scorer@.service"]
    (start,) = [line for line in unit.splitlines() if line.startswith("ExecStart=")]
    assert start.split()[-2:] == ["-m", "scorer.serve"]


def test_the_fleet_key_is_made_once_private_and_every_shard_reads_it(tmp_path, capsys):
    key = tmp_path / "fleet" / "secret_key"
    user = getpass.getuser()
    deploy.main(["--key", str(key), "--user", user])
    first = key.read_text()
    assert len(first) >= 32 and key.stat().st_mode & 0o777 == 0o600
    deploy.main(["--key", str(key), "--user", user])  # run again: the key is kept
    assert key.read_text() == first
    assert "made" in capsys.readouterr().out.splitlines()[0]
    apps = [
        create_app({"DATABASE": str(tmp_path / f"{n}.sqlite3"), "SECRET_KEY_FILE": str(key)})
        for n in (1, 2)
    ]
    assert {app.config["SECRET_KEY"] for app in apps} == {first.strip()}
    key.chmod(0o644)  # a key others can read: the shard refuses it rather than serve
    with pytest.raises(RuntimeError, match="readable by others"):
        create_app({"DATABASE": str(tmp_path / "3.sqlite3"), "SECRET_KEY_FILE": str(key)})
    with pytest.raises(RuntimeError, match="scorer.deploy --key"):  # never one of its own
        create_app({"DATABASE": str(tmp_path / "4.sqlite3"), "SECRET_KEY_FILE": str(key) + "x"})


def test_settings_files_are_private_and_name_the_fleet_key(tmp_path):
    deploy.main([str(tmp_path), "--shards", "2", "--root", "/srv/scorer", "--user", "cards",
                 "--etc", "/srv/etc", "--checkout", "/srv/app"])  # fmt: skip
    for shard in (1, 2):
        env = tmp_path / f"shard-{shard}.env"
        assert env.stat().st_mode & 0o777 == 0o600
        assert "SCORER_SECRET_KEY_FILE=/srv/scorer/secret_key" in env.read_text()
    unit = (tmp_path / "scorer@.service").read_text()
    assert "User=cards" in unit and "EnvironmentFile=/srv/etc/shard-%i.env" in unit
    assert "ExecStart=/srv/app/.venv/bin/python" in unit
    assert "--root /srv/scorer" in unit.splitlines()[0]  # the header says how to run it again


def test_each_shard_port_is_held_by_systemd_for_restarts_without_errors(tmp_path):
    """What test_rolling_upgrade measures (the port held across a restart) is what the
    generated units do: a socket per shard on its port, required by the shard's service."""
    plan = deploy.Plan(shards=2, port_base=9001)
    made = deploy.files(plan)
    for shard in (1, 2):
        assert f"ListenStream=127.0.0.1:{9000 + shard}\n" in made[f"scorer@{shard}.socket"]
    unit = made["scorer@.service"]
    assert "Requires=scorer@%i.socket" in unit and "After=network.target scorer@%i.socket" in unit
    # The health timer's check and the backup timer's copy run per shard, as the service user.
    for name in ("scorer-health@.service", "scorer-backup@.service"):
        assert "User=scorer" in made[name]
        assert "EnvironmentFile=/etc/scorer/shard-%i.env" in made[name]
    # The replica is a bucket named by the settings, never a folder on this disk.
    config = made["litestream.yml"]
    assert "type: s3" in config and "${SCORER_REPLICA_BUCKET}" in config
    assert "type: file" not in config


def test_the_readmes_setup_installs_every_module_the_router_loads():
    """The generated router holds every screen's push through Nchan: the README's one install
    line must bring the module, or nginx refuses the file (nginx-light has none)."""
    router = (ROOT / "deploy" / "scorer-shards.conf").read_text()
    (install,) = re.findall(r"^apt-get install (.+)$", (ROOT / "README.md").read_text(), re.M)
    assert "nchan_subscriber" in router
    assert "libnginx-mod-nchan" in install.split()
