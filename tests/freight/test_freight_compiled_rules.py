"""Issue 34 (a faster Freight engine): the rule modules ``setup.py`` compiles with Cython from
their own ``.py`` files (:mod:`rolling.games.freight.compiled`) are imported compiled only while
each source is the one it was compiled from and ``ROLLING_PURE_PYTHON`` is not set; an edited
module is imported from its ``.py`` file (no rebuild needed), and the compiled and plain-Python
rules play the same games, action for action and digest for digest.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rolling.games.freight import compiled

FREIGHT = Path(compiled.__file__).parent
built = pytest.mark.skipif(not compiled.built(), reason="built without a C compiler (setup.py)")

#: a random game's actions and digest, and where each rule module was imported from
PLAY = ("import json, sys; from rolling.games.freight import Config, new_game, compiled;"
        "from rolling.bots import make_bot; from rolling.sim import play_game;"
        "s = new_game(Config({map!r}, {players}), 11);"
        "acts = play_game(s, [make_bot('freight', 'random', 3 + i) for i in range({players})]);"
        "files = {{m: sys.modules['rolling.games.freight.' + m].__file__ for m in compiled.built()}};"
        "print(json.dumps([len(acts), s.digest(), compiled.in_use(), files]))")


def play(env: dict | None = None, pythonpath: str | None = None, map_name: str = "west-coast",
         players: int = 3) -> list:
    """``[actions, digest, in_use, {module: file}]`` of a random game in a fresh interpreter."""
    env = dict(os.environ, **(env or {}))
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    out = subprocess.run([sys.executable, "-c", PLAY.format(map=map_name, players=players)], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def is_compiled(path: str) -> bool:
    return path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


@built
def test_the_compiled_rules_are_in_use():
    """Every rule module built is imported compiled in this install (fresh, no ROLLING_PURE_PYTHON)."""
    if compiled.PURE:
        pytest.skip("ROLLING_PURE_PYTHON is set")
    assert compiled.in_use() == compiled.built()
    assert {"legal", "payways", "payment", "stockpile", "state"} <= set(compiled.built())
    _n, _digest, in_use, files = play()
    assert in_use == list(compiled.built())
    assert all(is_compiled(f) for f in files.values())


@built
@pytest.mark.parametrize("map_name, players", [("west-coast", 3), ("southern", 5)])
def test_compiled_and_plain_python_rules_play_the_same_game(map_name, players):
    """``ROLLING_PURE_PYTHON=1`` imports every rule module from its ``.py`` file; the random game
    is the same game, with the same number of actions and the same digest."""
    fast = play({"ROLLING_PURE_PYTHON": ""}, map_name=map_name, players=players)
    pure = play({"ROLLING_PURE_PYTHON": "1"}, map_name=map_name, players=players)
    assert pure[2] == []
    assert not any(is_compiled(f) for f in pure[3].values())
    assert fast[:2] == pure[:2]


@built
def test_an_edited_rule_module_is_imported_from_its_source(tmp_path):
    """A rule module whose ``.py`` file no longer matches the source it was compiled from (an
    edit after the build) is imported from the ``.py`` file, so the edit takes effect at once; the
    others stay compiled."""
    copy = tmp_path / "rolling"
    shutil.copytree(FREIGHT.parent.parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    legal = copy / "games" / "freight" / "legal.py"
    legal.write_text(legal.read_text() + "\nEDITED = True  # an edit after the build\n")
    _n, _digest, in_use, files = play({"ROLLING_PURE_PYTHON": ""}, pythonpath=str(tmp_path))
    assert files["legal"] == str(legal)
    assert "legal" not in in_use
    assert set(in_use) == set(compiled.built()) - {"legal"}
    assert all(is_compiled(f) for m, f in files.items() if m != "legal")


def test_a_compiled_module_not_vouched_for_is_not_used(tmp_path):
    """A compiled rule module without the ``.sha256`` of its source (built by hand, say) is not
    used: every rule module is then imported from its ``.py`` file."""
    copy = tmp_path / "rolling"
    shutil.copytree(FREIGHT.parent.parent, copy, ignore=shutil.ignore_patterns("__pycache__", "*.sha256"))
    _n, _digest, in_use, files = play({"ROLLING_PURE_PYTHON": ""}, pythonpath=str(tmp_path))
    assert in_use == []
    assert set(files) == set(compiled.built())
    assert all(f.startswith(str(tmp_path)) and f.endswith(".py") for f in files.values())
