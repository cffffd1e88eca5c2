"""The printed numbers of Rolling Stock Stars, read once from ``data/cards.toml``.

Companies are numbered 0..35 in ascending face value order; colours 0..4 are red, orange,
yellow, green, blue; corporations 0..7 in the order of the data file; share price cards 0..26
from $0 to $75. Everything here is read-only; game states hold only small integers that index
into these tables.
"""

from __future__ import annotations

import tomllib
from importlib import resources

_RAW = tomllib.loads(resources.files(__package__).joinpath("data/cards.toml").read_text(encoding="utf-8"))

COLORS: tuple[str, ...] = tuple(_RAW["deck"]["colors"])
RED, ORANGE, YELLOW, GREEN, BLUE = range(5)

START_CASH: int = _RAW["game"]["start_cash"]
START_CASH_SIX: int = _RAW["game"]["start_cash_six_players"]
FI_START_CASH: int = _RAW["game"]["foreign_investor_start_cash"]
FI_BONUS: int = _RAW["game"]["foreign_investor_income_bonus"]

# --- companies -------------------------------------------------------------------------------
_companies = sorted(_RAW["company"], key=lambda c: c["face_value"])
N_COMPANIES = len(_companies)
CODES: tuple[str, ...] = tuple(c["code"] for c in _companies)
NAMES: tuple[str, ...] = tuple(c["name"] for c in _companies)
INDEX: dict[str, int] = {code: i for i, code in enumerate(CODES)}
COLOR: tuple[int, ...] = tuple(COLORS.index(c["color"]) for c in _companies)
FACE: tuple[int, ...] = tuple(c["face_value"] for c in _companies)
INCOME: tuple[int, ...] = tuple(c["income"] for c in _companies)
SPAN_LO: tuple[int, ...] = tuple(c["price_span"][0] for c in _companies)
SPAN_HI: tuple[int, ...] = tuple(c["price_span"][1] for c in _companies)
STARS: tuple[int, ...] = tuple(_RAW["stars_by_color"][COLORS[COLOR[i]]] for i in range(N_COMPANIES))

_syn_value = {}
for key, value in _RAW["synergy_value"].items():
    a, b = key.split("-")
    _syn_value[frozenset((COLORS.index(a), COLORS.index(b)))] = value

#: SYNERGY[i] = tuple of (j, bonus $) for every synergy partner j of company i (symmetric)
SYNERGY: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(sorted((INDEX[p], _syn_value[frozenset((COLOR[i], COLOR[INDEX[p]]))]) for p in c["synergies"]))
    for i, c in enumerate(_companies)
)
for _i, _pairs in enumerate(SYNERGY):
    for _j, _v in _pairs:
        assert any(k == _i for k, _ in SYNERGY[_j]), f"synergy {CODES[_i]}-{CODES[_j]} is not symmetric"

#: SYNERGY_TABLE[i][j] = synergy bonus $ between companies i and j (0: none), for quick lookups
SYNERGY_TABLE: tuple[tuple[int, ...], ...] = tuple(
    tuple(dict(SYNERGY[i]).get(j, 0) for j in range(len(SYNERGY))) for i in range(len(SYNERGY))
)

HIGHEST: dict[int, int] = {COLORS.index(col): INDEX[code] for col, code in _RAW["deck"]["highest"].items()}
#: DECK_ORDER[colour] = the colour's companies in the order they are given random numbers at setup
DECK_ORDER: tuple[tuple[int, ...], ...] = tuple(tuple(INDEX[code] for code in _RAW["deck"]["order"][col]) for col in COLORS)
#: DECK_DRAWN[players][colour] = companies drawn besides the highest (-1 = all)
DECK_DRAWN: dict[int, tuple[int, ...]] = {
    int(n): tuple(counts[col] for col in COLORS) for n, counts in _RAW["deck"]["drawn"].items()
}

# --- share price row ------------------------------------------------------------------------
_row = _RAW["share_price_row"]
PRICES: tuple[int, ...] = tuple(_row["prices"])
N_CARDS = len(PRICES)
TOP_CARD = N_CARDS - 1  # the $75 card
MAX_DIVIDEND: tuple[int, ...] = tuple(_row["max_dividend"])
#: REQUIRED_STARS[issued shares][card]
REQUIRED_STARS: dict[int, tuple[int, ...]] = {int(n): tuple(v) for n, v in _row["required_stars"].items()}
#: IPO_COLORS[card] = bitmask of colours printed in the card's IPO box
IPO_COLORS: tuple[int, ...] = tuple(
    sum(1 << COLORS.index(col) for col, prices in _row["ipo"].items() if p in prices) for p in PRICES
)
CARD_OF_PRICE: dict[int, int] = {p: k for k, p in enumerate(PRICES)}

# --- cost of ownership ------------------------------------------------------------------------
_coo = _RAW["cost_of_ownership"]


def _coo_entry(key: str) -> tuple[int, int]:
    e = _coo[key]
    return e["cost"], sum(1 << COLORS.index(c) for c in e["colors"])


#: COST_BY_TOP_COLOR[colour of the deck's top card] = (cost $, bitmask of colours that pay it)
COST_BY_TOP_COLOR: tuple[tuple[int, int], ...] = tuple(_coo_entry(f"top_{c}") for c in COLORS)
END_CARD_FRONT: tuple[int, int] = _coo_entry("end_card_front")
END_CARD_BACK: tuple[int, int] = _coo_entry("end_card_back")

# --- corporations -----------------------------------------------------------------------------
_corps = _RAW["corporation"]
N_CORPS = len(_corps)
CORP_SYMBOLS: tuple[str, ...] = tuple(c["symbol"] for c in _corps)
CORP_INDEX: dict[str, int] = {s: i for i, s in enumerate(CORP_SYMBOLS)}
CORP_SHARES: tuple[int, ...] = tuple(c["shares"] for c in _corps)
CORP_ABILITY: tuple[str, ...] = tuple(c["ability"] for c in _corps)
#: CORP_NAMES[edition][corp]
CORP_NAMES: dict[str, tuple[str, ...]] = {
    "stars": tuple(c["stars_name"] for c in _corps),
    "v2.2": tuple(c["v22_name"] for c in _corps),
}
#: CORP_CODES[edition][corp]: the short name a person reads and types in that edition. The stars
#: codes are the canonical symbols; actions and records always hold the symbol (docs/stars-engine.md).
CORP_CODES: dict[str, tuple[str, ...]] = {
    "stars": CORP_SYMBOLS,
    "v2.2": tuple(c["v22_code"] for c in _corps),
}
PRUSSIAN, DOPPLER, SYNERGISTIC, VINTAGE, STARS_INC, STOCK_MASTERS, JUNKYARD, OVERSEAS = (
    CORP_INDEX[s] for s in ("PR", "DA", "S", "VM", "SI", "SM", "JS", "OS")
)


def company_index(code: str) -> int | None:
    """Index of a company by its code (``"MHE"``), case-insensitive; ``None`` if unknown."""
    i = INDEX.get(code)
    if i is None:
        i = INDEX.get(code.upper())
        if i is None:
            for k, c in enumerate(CODES):
                if c.upper() == code.upper():
                    return k
    return i


def corp_index(symbol: str) -> int | None:
    """Index of a corporation by its symbol (``"PR"``, ``"OS"``...), case-insensitive; ``None`` if unknown."""
    c = CORP_INDEX.get(symbol)
    return CORP_INDEX.get(symbol.upper()) if c is None else c


def corp_by_code(edition: str, text: str) -> int | None:
    """Index of a corporation by what a person of ``edition`` types: its code there (``"JUP"`` in
    v2.2, ``"PR"`` in stars) or its name there (``"Jupiter"``), case-insensitive; ``None`` if
    unknown. Another edition's codes and names are unknown, so that nobody reads or types a code
    that means something else in their edition."""
    t = text.upper()
    for c in range(N_CORPS):
        if CORP_CODES[edition][c] == t or CORP_NAMES[edition][c].upper() == t:
            return c
    return None
