"""For every test: the user data folder (``platformdirs.user_data_dir``; ``XDG_DATA_HOME`` on Linux)
is a temporary folder, also in the commands the tests start, so that the tests never touch the
prompt history (``history``) or the web app's default database of the person running them."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def own_user_data_folder(tmp_path_factory):
    old = os.environ.get("XDG_DATA_HOME")
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("user-data"))
    yield
    if old is None:
        os.environ.pop("XDG_DATA_HOME", None)
    else:
        os.environ["XDG_DATA_HOME"] = old
