"""The setup choices of a Rolling Stock Stars game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rolling.core.errors import RecordError
from rolling.core.record import check_keys

EDITIONS = ("stars", "v2.2")
#: edition -> (fewest, most) players its rule text allows: Rolling Stock Stars (001) is "a card game
#: for two to six players"; Rolling Stock v2.2 (000) is "for three to six players"
PLAYERS = {"stars": (2, 6), "v2.2": (3, 6)}
#: TITLES[edition]: the game's name in that edition's rule book (shown on screens and in errors)
TITLES = {"stars": "Rolling Stock Stars", "v2.2": "Rolling Stock (rules v2.2)"}
VARIANTS = ("open-companies", "two-handed", "secret-money", "deals")
#: named compatibility options, each switching on one documented difference of another implementation
#: (see docs/18xx-compatibility.md)
COMPAT = ("18xx", "18xx-receivership-buy", "18xx-fi-standing-offer")
#: compat option: buying the President's Share of a corporation in receivership costs the share
#: price *before* the corporation moves up (18xx.games), not the new share price (Buy One Share)
RECEIVERSHIP_BUY = "18xx-receivership-buy"
#: compat option: a president's announced purchase from the foreign investor does not pause phase 3;
#: the corporations that may pre-empt answer whenever they like while the marketplace goes on
#: (18xx.games), instead of "immediately" (canonical rules, phase 3)
FI_STANDING_OFFER = "18xx-fi-standing-offer"


def check_players(edition: str, players: int) -> None:
    """Raise RecordError unless ``players`` is within the known ``edition``'s range (:data:`PLAYERS`;
    Setup of 001 and 000). The message names the edition's own range."""
    lo, hi = PLAYERS[edition]
    if not lo <= players <= hi:
        raise RecordError(f"{TITLES[edition]} is for {lo} to {hi} players, not {players}")


@dataclass(frozen=True, slots=True)
class Config:
    """Setup of a game.

    Attributes:
        players: number of seats, within the edition's range (:data:`PLAYERS`: 2-6 for ``stars``,
            3-6 for ``v2.2``); 4 with the two-handed variant.
        edition: ``"stars"`` (Rolling Stock Stars names) or ``"v2.2"`` (Jupiter, Saturn, ...).
        variants: any of ``"open-companies"`` (deck order visible to all), ``"two-handed"`` (two people,
            four seats: person A holds positions 1 and 4, person B 2 and 3), ``"secret-money"``
            (other players' cash hidden in views), ``"deals"`` (002, 3.1: in phase 3 several
            transactions may be proposed together and execute as one step; see
            :mod:`rolling.games.stars.deals`).
        compat: named compatibility options; ``"18xx"`` builds the deck with the 18xx.games random
            numbers and keeps the seats' order as the initial player order;
            ``"18xx-receivership-buy"``: a player who buys the President's Share of a corporation
            in receivership (``BuyShare(presidents_share=True)``) pays the share price before the
            corporation takes its next higher card, as 18xx.games does (canonical rules: the new
            share price); ``"18xx-fi-standing-offer"``: an announced purchase from the foreign
            investor stays open while phase 3 goes on (see :mod:`.acquisition`), as on 18xx.games.
        names: optional display names, one per seat.

    Raises:
        RecordError: (from :meth:`validate`) an unknown edition, variant or option, or a player
            count the options do not allow.
    """

    players: int = 4
    edition: str = "stars"
    variants: tuple[str, ...] = ()
    compat: tuple[str, ...] = ()
    names: tuple[str, ...] = field(default=())

    def validate(self) -> Config:
        """Check the config and return it (raises RecordError with a one-line reason)."""
        if self.edition not in EDITIONS:
            raise RecordError(f"unknown edition {self.edition!r} (known: {', '.join(EDITIONS)})")
        for v in self.variants:
            if v not in VARIANTS:
                raise RecordError(f"unknown variant {v!r} (known: {', '.join(VARIANTS)})")
        for c in self.compat:
            if c not in COMPAT:
                raise RecordError(f"unknown compatibility option {c!r} (known: {', '.join(COMPAT)})")
        check_players(self.edition, self.players)
        if "two-handed" in self.variants and self.players != 4:
            raise RecordError("the two-handed variant is played with four seats (two people)")
        if self.names and len(self.names) != self.players:
            raise RecordError(f"{len(self.names)} names given for {self.players} players")
        return self

    def to_json(self) -> dict[str, Any]:
        """Return the config as a JSON object."""
        d: dict[str, Any] = {"players": self.players, "edition": self.edition}
        if self.variants:
            d["variants"] = list(self.variants)
        if self.compat:
            d["compat"] = list(self.compat)
        if self.names:
            d["names"] = list(self.names)
        return d

    @classmethod
    def from_json(cls, data: Any) -> Config:
        """Read and validate a config from its JSON object.

        Raises:
            RecordError: not an object, an unknown key (named), a value of the wrong kind, or a
                config :meth:`validate` refuses.
        """
        if not isinstance(data, dict):
            raise RecordError("the config must be a JSON object")
        check_keys(data, ("players", "edition", "variants", "compat", "names"))
        players = data.get("players", 4)
        if not isinstance(players, int) or isinstance(players, bool):
            raise RecordError("config 'players' must be an integer")
        edition = data.get("edition", "stars")
        if not isinstance(edition, str):
            raise RecordError(f"config 'edition' must be a string (known: {', '.join(EDITIONS)})")
        for key in ("variants", "compat", "names"):
            if key in data and not (isinstance(data[key], list) and all(isinstance(v, str) for v in data[key])):
                raise RecordError(f"config {key!r} must be a list of strings")
        cfg = cls(
            players=players,
            edition=edition,
            variants=tuple(data.get("variants", ())),
            compat=tuple(data.get("compat", ())),
            names=tuple(data.get("names", ())),
        )
        return cfg.validate()
