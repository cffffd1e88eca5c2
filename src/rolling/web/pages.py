"""The web pages: HTML shells, the static JavaScript and CSS, and each game's printed data.

Every page is a small HTML file from ``static/`` whose JavaScript module draws it from the JSON
API (:mod:`rolling.web.api`) and the game's WebSocket; nothing is built or fetched from elsewhere,
so the site works offline. Routes:

- ``/`` the lobby, ``/my`` this browser's games, ``/import`` watch an 18xx.games export;
- ``/g/{id}`` the table, ``/g/{id}/history`` step through a game;
- ``/static/{path}`` the assets (:func:`mount_static`: ``/static/v-HASH/{path}`` kept a year, the
  pages link there); ``/data/{game}.json`` the printed numbers of a game (cards,
  share price row, corporations) that views refer to by code; ``/data/freight/{map}.json`` a
  Rolling Freight map's board (:func:`rolling.web.freight.board_data`).
"""

from __future__ import annotations

import hashlib
import mimetypes
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

router = APIRouter(include_in_schema=False)

STATIC = resources.files(__package__).joinpath("static")


@cache
def _page_text(name: str) -> str:
    # the page's assets through their versioned URLs (mount_static)
    return STATIC.joinpath(name).read_text(encoding="utf-8").replace('"/static/', f'"/static/v-{assets_version()}/')


def _page(name: str) -> HTMLResponse:
    return HTMLResponse(_page_text(name), headers={"Cache-Control": "no-cache"})


@router.get("/")
def lobby() -> HTMLResponse:
    """The lobby: create a game, see the open ones."""
    return _page("lobby.html")


@router.get("/my")
def my_games() -> HTMLResponse:
    """The games whose seat links this browser holds (read from its localStorage by the page)."""
    return _page("my.html")


@router.get("/account")
def account_page() -> HTMLResponse:
    """The account: log in, register, reset a password; its games, records and notifications."""
    return _page("account.html")


@router.get("/g/{game_id}/join")
def join_page(game_id: str) -> HTMLResponse:
    """Take an open seat of a game (a private game's invite link: ``?invite=CODE``)."""
    return _page("join.html")


@router.get("/g/{game_id}/settings")
def settings_page(game_id: str) -> HTMLResponse:
    """A game's settings (time limits, bot pace, idle time) and its creator's seat changes."""
    return _page("gsettings.html")


@router.get("/sw.js")
def service_worker() -> Response:
    """The service worker of Web Push notifications, at the root so that it may serve every page."""
    return Response(STATIC.joinpath("js", "sw.js").read_text(encoding="utf-8"), media_type="text/javascript",
                    headers={"Cache-Control": "no-cache"})


@router.get("/import")
def import_page() -> HTMLResponse:
    """Upload an 18xx.games export to watch and step through it."""
    return _page("import.html")


@router.get("/g/{game_id}")
def table(game_id: str) -> HTMLResponse:
    """The table of one game, live."""
    return _page("table.html")


@router.get("/g/{game_id}/history")
def history(game_id: str) -> HTMLResponse:
    """One game step by step, with its charts and record download."""
    return _page("history.html")


class CachedStatic(StaticFiles):
    """``StaticFiles`` (ETag, Last-Modified, 304 answers, no directory listing) whose answers carry
    ``cache_control``."""

    def __init__(self, *args, cache_control: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.cache_control = cache_control

    def file_response(self, *args, **kwargs) -> Response:
        """The file's answer, with the ``Cache-Control`` header."""
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = self.cache_control
        return response


@cache
def assets_version() -> str:
    """A short hash of every file under ``static/``: the versioned asset URLs
    (``/static/v-HASH/js/table.js``) change whenever a file does, so a new release busts every cache
    while an unchanged one is never downloaded again."""
    digest = hashlib.sha256()
    root = Path(str(STATIC))
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def mount_static(app) -> None:
    """Serve ``static/`` on ``app``: under ``/static/v-HASH/`` (:func:`assets_version`) kept a year
    (``immutable``: the pages' links and the scripts' relative imports), and under ``/static/``
    revalidated on every use (``no-cache`` with ETag: old links and bookmarks)."""
    mimetypes.add_type("text/javascript", ".js")
    directory = str(STATIC)
    app.mount(f"/static/v-{assets_version()}", CachedStatic(directory=directory, cache_control="public, max-age=31536000, immutable"),
              name="static-versioned")
    app.mount("/static", CachedStatic(directory=directory, cache_control="no-cache"), name="static")


@cache
def stars_data() -> dict[str, Any]:
    """Rolling Stock Stars' printed numbers, for the pages: companies (colour, face value, income,
    price span, stars, synergy partners with their $), the share price row (price, maximum
    dividend, IPO colours, stars required by issued shares), corporations (symbol, code and name
    by edition, shares, ability) and the cost of ownership table."""
    from rolling.games.stars import data as D
    from rolling.games.stars.view import company_card

    companies = [company_card(i) for i in range(D.N_COMPANIES)]
    row = [
        {
            "price": D.PRICES[k],
            "max_dividend": D.MAX_DIVIDEND[k],
            "ipo": [D.COLORS[c] for c in range(len(D.COLORS)) if D.IPO_COLORS[k] >> c & 1],
            "required_stars": {str(n): D.REQUIRED_STARS[n][k] for n in sorted(D.REQUIRED_STARS)},
        }
        for k in range(D.N_CARDS)
    ]
    corps = [
        {
            "symbol": D.CORP_SYMBOLS[c],
            "codes": {e: D.CORP_CODES[e][c] for e in D.CORP_CODES},
            "names": {e: D.CORP_NAMES[e][c] for e in D.CORP_NAMES},
            "shares": D.CORP_SHARES[c],
            "ability": D.CORP_ABILITY[c],
        }
        for c in range(D.N_CORPS)
    ]

    def coo(e: tuple[int, int]) -> dict[str, Any]:
        return {"cost": e[0], "colors": [D.COLORS[k] for k in range(len(D.COLORS)) if e[1] >> k & 1]}

    return {
        "game": "stars",
        "colors": list(D.COLORS),
        "companies": companies,
        "share_price_row": row,
        "corporations": corps,
        "cost_of_ownership": {
            "by_top_color": {D.COLORS[k]: coo(e) for k, e in enumerate(D.COST_BY_TOP_COLOR)},
            "end_card_front": coo(D.END_CARD_FRONT),
            "end_card_back": coo(D.END_CARD_BACK),
        },
    }


GAME_DATA = {"stars": stars_data}


@router.get("/data/freight/{map_name}.json")
def freight_board(map_name: str) -> JSONResponse:
    """A Rolling Freight map's board and components (:func:`rolling.web.freight.board_data`);
    404 for an unknown map."""
    from rolling.games.freight.components import MAP_NAMES

    from .freight import board_data

    if map_name not in MAP_NAMES:
        return JSONResponse({"error": "NotFound", "message": f"no Rolling Freight map {map_name!r} (maps: {', '.join(MAP_NAMES)})"},
                            status_code=404)
    return JSONResponse(board_data(map_name), headers={"Cache-Control": "max-age=3600"})


@router.get("/data/{game}.json")
def game_data(game: str) -> JSONResponse:
    """The printed numbers of ``game`` (404 for a game without page data yet)."""
    make = GAME_DATA.get(game)
    if make is None:
        return JSONResponse({"error": "NotFound", "message": f"no page data for game {game!r}"}, status_code=404)
    return JSONResponse(make(), headers={"Cache-Control": "max-age=3600"})
