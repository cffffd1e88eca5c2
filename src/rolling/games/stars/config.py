"""The setup choices of a Rolling Stock Stars game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rolling.core.errors import RecordError

EDITIONS = ("stars", "v2.2")
#: TITLES[edition]: the game's name in that edition's rule book (shown on screens and in errors)
TITLES = {"stars": "Rolling Stock Stars", "v2.2": "Rolling Stock (rules v2.2)"}
#: PLAYERS[edition] = (fewest, most) players. 000 (v2.2): "A card game for three to six players".
PLAYERS = {"stars": (3, 6), "v2.2": (3, 6)}
_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight")
VARIANTS = ("open-companies", "two-handed", "secret-money")
#: named compatibility options, each switching on one documented difference of another implementation
#: (see docs/18xx-compatibility.md)
COMPAT = ("18xx", "18xx-receivership-buy")
#: compat option: buying the President's Share of a corporation in receivership costs the share
#: price *before* the corporation moves up (18xx.games), not the new share price (Buy One Share)
RECEIVERSHIP_BUY = "18xx-receivership-buy"


@dataclass(frozen=True, slots=True)
class Config:
    """Setup of a game.

    Attributes:
        players: number of seats, within the edition's range (:data:`PLAYERS`; 4 with the two-handed
            variant; 2 also with compat ``18xx``).
        edition: ``"stars"`` (Rolling Stock Stars names) or ``"v2.2"`` (Jupiter, Saturn, ...).
        variants: any of ``"open-companies"`` (deck order visible to all), ``"two-handed"`` (two people,
            four seats: person A holds positions 1 and 4, person B 2 and 3), ``"secret-money"``
            (other players' cash hidden in views).
        compat: named compatibility options; ``"18xx"`` builds the deck with the 18xx.games random
            numbers, keeps the seats' order as the initial player order and allows 2 players;
            ``"18xx-receivership-buy"``: a player who buys the President's Share of a corporation
            in receivership (``BuyShare(presidents_share=True)``) pays the share price before the
            corporation takes its next higher card, as 18xx.games does (canonical rules: the new
            share price).
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
        lo, hi = self.player_range()
        if not lo <= self.players <= hi:
            extra = " with compat option 18xx" if "18xx" in self.compat else ""
            raise RecordError(
                f"{TITLES[self.edition]} is for {_WORDS[lo]} to {_WORDS[hi]} players{extra}, not {self.players}"
            )
        if "two-handed" in self.variants and self.players != 4:
            raise RecordError("the two-handed variant is played with four seats (two people)")
        if self.names and len(self.names) != self.players:
            raise RecordError(f"{len(self.names)} names given for {self.players} players")
        return self

    def player_range(self) -> tuple[int, int]:
        """(fewest, most) players this setup allows: the edition's range (:data:`PLAYERS`), from 2
        with compat option ``18xx`` (the site's two-player games)."""
        lo, hi = PLAYERS[self.edition]
        return (min(lo, 2) if "18xx" in self.compat else lo), hi

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
        """Read and validate a config from its JSON object (raises RecordError)."""
        if not isinstance(data, dict):
            raise RecordError("the config must be a JSON object")
        players = data.get("players", 4)
        if not isinstance(players, int) or isinstance(players, bool):
            raise RecordError("config 'players' must be an integer")
        for key in ("variants", "compat", "names"):
            if key in data and not isinstance(data[key], list):
                raise RecordError(f"config {key!r} must be a list")
        try:
            cfg = cls(
                players=players,
                edition=str(data.get("edition", "stars")),
                variants=tuple(str(v) for v in data.get("variants", ())),
                compat=tuple(str(v) for v in data.get("compat", ())),
                names=tuple(str(v) for v in data.get("names", ())),
            )
        except TypeError as e:
            raise RecordError(f"bad config: {e}") from None
        return cfg.validate()
