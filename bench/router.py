"""Shards behind the generated nginx router, on loopback: for the bench and the tests.

The router is `deploy/scorer-shards.conf` as `python -m scorer.deploy` writes it for the
shards' ports, included by a main nginx configuration of our own (every file in a temporary
folder, no root needed). Debian's nginx (`make test` installs nginx-light).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from bench import launcher
from scorer import deploy, front

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def nginx_config(folder: Path, site: Path) -> Path:
    """A main configuration for an nginx of our own: every file in `folder`. Its error log
    (the upstreams it could not reach, among others) is shown if a test fails."""
    launcher.show_on_failure(folder / "error.log")
    for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (folder / name).mkdir(exist_ok=True)
    # Started as root (a CI container), nginx would hand its workers to `nobody`, who cannot
    # enter pytest's private folders: keep them as the user who started it.
    user = "user root root;\n" if os.getuid() == 0 else ""
    # An event loop a core, as Debian's own nginx.conf runs the router in production.
    main = folder / "nginx.conf"
    main.write_text(
        f"daemon off;\nmaster_process on;\nworker_processes auto;\n{user}"
        # The router's push locations need Nchan (the system's nginx.conf loads it from
        # modules-enabled; this one reads nothing of the system's).
        f"load_module {front.NCHAN_MODULE};\n"
        f"pid {folder}/nginx.pid;\nerror_log {folder}/error.log warn;\n"
        "events { worker_connections 1024; }\n"
        f"http {{\n  access_log off;\n  client_body_temp_path {folder}/body;\n"
        f"  proxy_temp_path {folder}/proxy;\n  fastcgi_temp_path {folder}/fastcgi;\n"
        f"  uwsgi_temp_path {folder}/uwsgi;\n  scgi_temp_path {folder}/scgi;\n"
        f"  include {site};\n}}\n"
    )
    return main


def router(folder: Path, shard_ports: tuple[int, ...]) -> launcher.Server:
    """The generated router for shards listening on `shard_ports` (shard 1 first), started
    and answering on a port of its own (`.base`)."""
    port = launcher.free_port()
    plan = deploy.Plan(
        shards=len(shard_ports),
        ports=shard_ports,
        router=f"127.0.0.1:{port}",
        publisher=f"127.0.0.1:{launcher.free_port()}",
    )
    folder.mkdir(parents=True, exist_ok=True)
    site = folder / "scorer-shards.conf"
    site.write_text(deploy.files(plan)["scorer-shards.conf"])
    main = nginx_config(folder, site)
    server = launcher.Server(
        [NGINX, "-p", str(folder), "-c", str(main)],
        dict(os.environ),
        port,
        folder / "nginx.log",
        folder,
    )
    try:
        server.wait_until_up()
    except BaseException:
        server.stop()
        raise
    return server


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) used so far by process `pid` and its children (nginx's
    master and workers)."""
    ticks = os.sysconf("SC_CLK_TCK")
    return sum(
        (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
        for process, fields in launcher.process_stats()
        if process == pid or int(fields[1]) == pid
    )
