"""The production set-up of issue 30 ("Deployment"): compose.yaml's processes are the ones the issue
names (PostgreSQL, two web processes, two workers, a reverse proxy with WebSockets), their commands
are command lines ``rolling`` accepts, the proxy sends to every web process, the image installs
the PostgreSQL extra; and processes started together on an empty PostgreSQL database migrate it once.

(This machine has no Docker: the files are checked as text and against the CLI, not run.)
"""

from __future__ import annotations

import re
import subprocess
import sys
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
    """Dockerfile: pip installs the package with the ``postgres`` extra, which holds psycopg."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert any(d.startswith("psycopg") for d in extras["postgres"])
    docker = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^RUN pip install '\.\[postgres\]'", docker, re.M)
    kept = (ROOT / ".dockerignore").read_text().split()
    for path in ("!pyproject.toml", "!README.md", "!src/"):  # what the build reads is in the context
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
