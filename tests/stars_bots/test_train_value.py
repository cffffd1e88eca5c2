"""Issue 34, "A learned evaluation": the model is reproducible, ``scripts/train_value.py`` with its
seed gives the same data and the same trees. Two runs of the same tiny command (a few games, a few
rounds), with different hash seeds so that no set or dict order can hide in the data, must write
byte-identical ``data.npz`` and model files, for Rolling Stock Stars and Rolling Freight."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("lightgbm")
SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "train_value.py"


def train(tmp: Path, game: str, games: int, hash_seed: str) -> Path:
    """Run the script into ``tmp`` (model and data there, never the package's); return ``tmp``."""
    cmd = [sys.executable, str(SCRIPT), "--game", game, "--games", str(games), "--seed", "3",
           "--workers", "2", "--rounds", "8", "--out", str(tmp), "--model", str(tmp / "model.npz")]
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    subprocess.run(cmd, check=True, env=env, capture_output=True, timeout=300)
    return tmp


@pytest.mark.parametrize(("game", "games"), [("stars", 10), ("freight", 6)])
def test_same_command_same_data_and_trees(tmp_path, game, games):
    a = train(tmp_path / "a", game, games, "1")
    b = train(tmp_path / "b", game, games, "2")
    summary = json.loads((a / "summary.json").read_text())
    # the trees split somewhere: a model of leaves alone would compare equal whatever the data
    assert summary["nodes"] > summary["rounds"] and summary["games"] == games
    assert (a / "data.npz").read_bytes() == (b / "data.npz").read_bytes()
    assert (a / "model.npz").read_bytes() == (b / "model.npz").read_bytes()
    with np.load(a / "data.npz") as z:
        assert len(np.unique(z["game"])) == games and z["x"].shape[0] == z["y"].shape[0] > 0
