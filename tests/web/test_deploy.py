"""The production set-up of issue 30 ("Deployment"): compose.yaml's processes are the ones the issue
names (PostgreSQL, two web processes, two workers, a reverse proxy with WebSockets), their commands
are command lines ``rolling`` accepts, the proxy sends to every web process, the image installs
the PostgreSQL extra; and processes started together on an empty PostgreSQL database migrate it once.

(This machine has no Docker: the files are checked as text and against the CLI, not run.)
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import click
import pytest
import typer
import yaml

from .conftest import TEST_DB

ROOT = Path(__file__).resolve().parents[2]


def _compose() -> dict:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


def _rolling(services: dict, sub: str) -> dict[str, list[str]]:
    """The services whose command is ``rolling SUB ...``."""
    return {name: s["command"] for name, s in services.items()
            if isinstance(s.get("command"), list) and s["command"][:2] == ["rolling", sub]}


def _cli() -> click.Group:
    from rolling.cli.main import app

    return typer.main.get_command(app)


def test_compose_has_the_processes_of_issue_30():
    """issue 30 "Deployment": PostgreSQL, two web processes without bots, two workers, a proxy."""
    services = _compose()["services"]
    assert services["db"]["image"].startswith("postgres:")
    webs, workers = _rolling(services, "serve"), _rolling(services, "worker")
    assert len(webs) == 2 and len(workers) == 2, services.keys()
    for name, cmd in {**webs, **workers}.items():
        db = cmd[cmd.index("--db") + 1]
        assert db.startswith("postgresql+psycopg://") and "@db:5432/" in db, (name, db)
        assert services[name]["depends_on"]["db"]["condition"] == "service_healthy"
        assert services[name]["restart"] == "unless-stopped"  # kill -9 of anything: it comes back
    for name, cmd in webs.items():
        assert "--no-worker" in cmd and cmd[cmd.index("--host") + 1] == "0.0.0.0", (name, cmd)
    proxy = services["proxy"]
    assert any(v.startswith("./deploy/nginx.conf:") for v in proxy["volumes"])
    assert set(proxy["depends_on"]) == set(webs)


def test_the_proxy_sends_to_every_web_process_and_upgrades_websockets():
    """deploy/nginx.conf: its upstream is compose's web processes at their ports; /ws/ is upgraded."""
    services = _compose()["services"]
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    upstream = set(re.findall(r"^\s*server\s+([\w.-]+:\d+)", conf, re.M))
    webs = {f"{name}:{cmd[cmd.index('--port') + 1]}" for name, cmd in _rolling(services, "serve").items()}
    assert upstream == webs
    ws = conf[conf.index("location /ws/"):]
    ws = ws[:ws.index("}")]
    assert "proxy_set_header Upgrade $http_upgrade;" in ws
    assert "proxy_set_header Connection $connection_upgrade;" in ws
    assert "proxy_http_version 1.1;" in ws


def test_compose_commands_are_command_lines_rolling_accepts():
    """Each ``rolling ...`` command of compose.yaml parses with the CLI's own options (an option
    renamed or dropped in the CLI breaks this test, not the deployment)."""
    cli = _cli()
    if "worker" not in cli.commands:
        pytest.skip("this checkout has no `rolling worker` yet (issue 30, branch web-worker)")
    services = _compose()["services"]
    checked = 0
    for sub in ("serve", "worker"):
        for name, cmd in _rolling(services, sub).items():
            command = cli.commands[sub]
            try:
                command.make_context(f"rolling {sub}", list(cmd[2:]), resilient_parsing=False)
            except click.ClickException as e:
                pytest.fail(f"compose.yaml service {name}: `{' '.join(cmd)}`: {e.format_message()}")
            checked += 1
    assert checked == 4


def test_the_image_installs_the_postgres_extra():
    """Dockerfile: pip installs the package with the ``postgres`` extra, which holds psycopg, with a
    C compiler at hand for the compiled payment walk (setup.py; issue 34)."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert any(d.startswith("psycopg") for d in extras["postgres"])
    docker = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^RUN apt-get .*install .*gcc.*\n\s*&& pip install '\.\[postgres\]'", docker, re.M)
    kept = (ROOT / ".dockerignore").read_text().split()
    for path in ("!pyproject.toml", "!setup.py", "!README.md", "!src/"):  # what the build reads is in the context
        assert path in kept


@pytest.mark.skipif(not TEST_DB or not TEST_DB.startswith("postgresql"),
                    reason="the migration lock is PostgreSQL's (set ROLLING_TEST_DB)")
def test_processes_started_together_migrate_an_empty_database_once(db_url, tmp_path):
    """issue 30 "Deployment": compose starts web processes and workers at once on an empty database;
    each brings the schema to head (one migrates, the others wait), none fails."""
    code = "import sys; from rolling.web.db import open_database; open_database(sys.argv[1])"
    procs = [subprocess.Popen([sys.executable, "-c", code, db_url], stderr=subprocess.PIPE, text=True)
             for _ in range(4)]
    errors = [p.communicate(timeout=120)[1] for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, errors
    from sqlalchemy import create_engine, text

    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM alembic_version")).scalar() == 1
    finally:
        engine.dispose()


def _nginx_site(tmp_path: Path, ports: list[int]) -> Path:
    """deploy/nginx.conf with its upstream servers at local ``ports``, inside a minimal main
    configuration an unprivileged nginx can run (pid, logs and temporary files under ``tmp_path``)."""
    site = (ROOT / "deploy" / "nginx.conf").read_text()
    for name, port in zip(("web1:8000", "web2:8000"), ports, strict=True):
        site = site.replace(f"server {name}", f"server 127.0.0.1:{port}")
    (tmp_path / "site.conf").write_text(site)
    temp = tmp_path / "temp"
    temp.mkdir()
    temp.chmod(0o777)  # (run as root, nginx's workers are "nobody")
    main = f"""
pid {tmp_path}/nginx.pid;
error_log {tmp_path}/error.log;
events {{ worker_connections 64; }}
http {{
    access_log off;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    include {tmp_path}/site.conf;
}}
"""
    (tmp_path / "nginx.conf").write_text(main)
    return tmp_path / "nginx.conf"


@pytest.mark.skipif(shutil.which("nginx") is None, reason="needs nginx (Debian's package; .ci/run installs it)")
def test_the_proxy_limits_logins_once_for_the_whole_site(tmp_path):
    """deploy/nginx.conf: login attempts are limited by the proxy for all web processes together
    (each process counts only its own requests: docs/web.md, "Rate limits"). Two ``rolling serve``
    processes with their own limits on (20 attempts a minute per address) let 12 quick attempts at
    12 account names through, one process alone as well; through the proxy the 7th and later get 429
    from nginx, while other requests pass."""
    from .test_kill import free_port, start_server

    ports = [free_port(), free_port()]
    env_before = os.environ.get("ROLLING_RATE_LIMITS")
    os.environ["ROLLING_RATE_LIMITS"] = "on"  # (the suite turns them off; these servers keep them)
    procs = []
    try:
        for port in ports:
            # (a database each: an SQLite file serves one process; no account is needed to be refused)
            procs.append(start_server(f"sqlite:///{tmp_path / f'site-{port}.db'}", port, 0.0, tmp_path / f"serve-{port}.log"))
    finally:
        if env_before is None:
            os.environ.pop("ROLLING_RATE_LIMITS", None)
        else:
            os.environ["ROLLING_RATE_LIMITS"] = env_before
    conf = _nginx_site(tmp_path, ports)
    # listen on a free local port instead of 80
    proxy = free_port()
    site = (tmp_path / "site.conf").read_text().replace("listen 80;", f"listen 127.0.0.1:{proxy};")
    (tmp_path / "site.conf").write_text(site)
    check = subprocess.run(["nginx", "-t", "-c", str(conf), "-p", str(tmp_path)], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    nginx = subprocess.Popen(["nginx", "-c", str(conf), "-p", str(tmp_path), "-g", "daemon off;"],
                             stderr=subprocess.PIPE)
    try:
        import httpx

        base = f"http://127.0.0.1:{proxy}"
        deadline = time.time() + 10
        while True:
            try:
                httpx.get(base + "/healthz", timeout=1)
                break
            except httpx.HTTPError:
                if time.time() > deadline:
                    raise
                time.sleep(0.1)
        direct = [httpx.post(f"http://127.0.0.1:{ports[0]}/api/session",
                             json={"name": f"direct{k}", "password": "wrong-password"}).status_code for k in range(12)]
        assert direct == [401] * 12
        proxied = [httpx.post(base + "/api/session", json={"name": f"guess{k}", "password": "wrong-password"}).status_code
                   for k in range(12)]
        assert proxied[:6] == [401] * 6 and proxied[6:] == [429] * 6, proxied
        assert httpx.get(base + "/api/games/options").status_code == 200  # only the account routes' POSTs count
        assert httpx.get(base + "/api/me").status_code in (200, 401)
    finally:
        nginx.terminate()
        nginx.wait(10)
        for p in procs:
            p.kill()
            p.wait(10)
