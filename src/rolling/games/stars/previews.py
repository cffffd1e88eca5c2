"""What a decision would do, in numbers, before it is taken (Rolling Stock Stars): for every screen
(terminal, web) and for bots that explain their moves.

Each preview is computed by the rules' own procedures (:mod:`.procedures`) on the state as it is,
without changing it and without copying it: the numbers are those the engine would produce.
Amounts are in $ (the rule book's ●); income is per phase 5 (Collect Income); share prices are $
per share; a card is an index into the Row (``-1``: no card, which counts as $75).

- :func:`income`, :func:`income_change`: Collect Income of an entity, itemised, now or with
  companies added or taken away;
- :func:`purchase`: what buying a company (phase 3) adds to the buying corporation's income;
- :func:`closing`: what closing companies (phase 4) does to their owner's income, stars and cash;
- :func:`dividend`: what a dividend (phase 6) pays and where it takes the share price;
- :func:`buy_share`, :func:`sell_share`, :func:`issue_share`: what a share trade costs or brings
  and the price it leaves (Buy / Sell / Issue One Share);
- :func:`ipo`: the terms of Form Corporation (phase 9);
- :func:`phase5_shortfalls`, :func:`ipo_shortfalls`: who could not pay a negative income in
  phase 5, now or after an IPO.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from . import data as D
from . import procedures as P
from .state import CORP_BASE, FOREIGN_INVESTOR, MAXP, StarsState


@dataclass(frozen=True, slots=True)
class Income:
    """Collect Income of one entity, itemised, in $ per phase 5.

    Attributes:
        printed: the sum of its companies' printed incomes.
        cost: cost of ownership (after Vintage Machinery's reduction of up to $10).
        synergy: synergies between its companies (corporations only).
        bonus: the foreign investor's $5, Prussian Railway's $1 per company, Doppler AG's doubled
            best company, Synergistic's $1 per two synergy markers.
        total: ``printed - cost + synergy + bonus`` (negative: the entity pays).
    """

    printed: int
    cost: int
    synergy: int
    bonus: int
    total: int


@dataclass(frozen=True, slots=True)
class IncomeChange:
    """An entity's income before and after a change of its companies (Collect Income).

    Attributes:
        owner: the owner code (seat, ``CORP_BASE + c``, or the foreign investor).
        before, after: the itemised :class:`Income`.
        synergies: the synergy pairs made (bought company) or broken (closed company), as
            ``(company, partner, $)``; corporations only.
    """

    owner: int
    before: Income
    after: Income
    synergies: tuple[tuple[int, int, int], ...]

    @property
    def gain(self) -> int:
        """$ of income per phase 5 the change adds (negative: takes away)."""
        return self.after.total - self.before.total


def _income(owner: int, companies: list[int], coo: tuple[int, int]) -> Income:
    printed, cost, synergy, bonus = P.income_parts(owner, companies, coo)
    return Income(printed, cost, synergy, bonus, printed - cost + synergy + bonus)


def income(s: StarsState, owner: int) -> Income:
    """Collect Income of ``owner`` (seat, ``CORP_BASE + c`` or the foreign investor) now, itemised."""
    return _income(owner, s.companies_of(owner), s.cost_of_ownership())


def income_change(s: StarsState, owner: int, add: Iterable[int] = (), remove: Iterable[int] = ()) -> IncomeChange:
    """Collect Income of ``owner`` now and with companies ``add`` gained and ``remove`` lost, under
    the cost of ownership in force now. Synergies count for corporations only (Glossary, Synergy);
    the corporations' abilities (Prussian Railway, Doppler AG, Synergistic, Vintage Machinery)
    apply to the companies held after the change."""
    add, remove = tuple(add), set(remove)
    now = s.companies_of(owner)
    # companies ascend in face value, as Collect Income reads them (Doppler AG's best is the last)
    then = sorted([i for i in now if i not in remove] + [i for i in add if i not in now])
    coo = s.cost_of_ownership()
    pairs: list[tuple[int, int, int]] = []
    if CORP_BASE <= owner < FOREIGN_INVESTOR:
        # each pair once: a pair of two added (removed) companies is listed under the first
        for moved, held in ((add, then), (remove, now)):
            for i in moved:
                pairs += [(i, j, D.SYNERGY_TABLE[i][j]) for j in held
                          if j != i and D.SYNERGY_TABLE[i][j] and (j not in moved or j > i)]
    return IncomeChange(owner, _income(owner, now, coo), _income(owner, then, coo), tuple(pairs))


def purchase(s: StarsState, c: int, i: int) -> IncomeChange:
    """Phase 3, Acquisition: corporation ``c`` buying company ``i``: its income before and after
    (Collect Income, synergies with its other companies and its ability included). ``gain`` is the
    $ per phase 5 the purchase adds. The price paid is not part of it."""
    return income_change(s, CORP_BASE + c, add=(i,))


@dataclass(frozen=True, slots=True)
class Closing:
    """What closing companies does to their owner (phase 4, Closing).

    Attributes:
        owner: the owner code.
        income: the owner's income before and after (the closed companies' printed income and
            cost of ownership gone, their synergies broken, the ability recounted).
        scrap_bonus: $ Junkyard Scrappers receives at once: twice the closed companies' printed
            income (0 for any other owner).
        stars: stars the owner loses (a corporation's share price counts them in phase 6).
    """

    owner: int
    income: IncomeChange
    scrap_bonus: int
    stars: int


def closing(s: StarsState, *companies: int) -> Closing:
    """Phase 4, Closing: what closing ``companies`` (all of one owner) does to that owner.

    Raises:
        ValueError: no company named, or companies of different owners.
    """
    owners = {s.company_owner[i] for i in companies}
    if len(owners) != 1:
        raise ValueError("closing() previews companies of one owner")
    owner = owners.pop()
    scrap = 2 * sum(D.INCOME[i] for i in companies) if owner == CORP_BASE + D.JUNKYARD else 0
    return Closing(owner, income_change(s, owner, remove=companies), scrap, sum(D.STARS[i] for i in companies))


@dataclass(frozen=True, slots=True)
class Dividend:
    """What a dividend does (phase 6: Pay Dividends, then Adjust Share Price).

    Attributes:
        per_share: $ paid per issued share.
        total: $ leaving the treasury (``per_share`` times the issued shares).
        to_players: $ each seat receives, by seat (the bank's shares are paid too, to the bank).
        treasury: $ the corporation keeps.
        stars: the stars it owns afterwards (companies, one per full $10, +2 for Stars, Inc.).
        required: the stars its share price card requires for its issued shares.
        card: the card it moves to (-1: none, $75); the $0 card means it goes bankrupt.
        price: its share price afterwards, $.
    """

    per_share: int
    total: int
    to_players: tuple[int, ...]
    treasury: int
    stars: int
    required: int
    card: int
    price: int


def dividend(s: StarsState, c: int, per_share: int) -> Dividend:
    """Phase 6: corporation ``c`` paying ``per_share`` $ per issued share, and the share price it
    then adjusts to (no check that the amount is allowed: see :func:`procedures.max_dividend`)."""
    total = per_share * s.corp_issued[c]
    treasury = s.corp_cash[c] - total
    # only the cash stars change: one per full $10 kept
    stars = P.corp_stars(s, c) - s.corp_cash[c] // 10 + max(0, treasury) // 10
    k = s.corp_card[c]
    required = D.REQUIRED_STARS[s.corp_issued[c]][D.TOP_CARD if k < 0 else k]
    card = P.target_card(s, c, stars)
    paid = tuple(per_share * s.shares_of(c, p) for p in range(s.n))
    return Dividend(per_share, total, paid, treasury, stars, required, card, P.card_price(card))


@dataclass(frozen=True, slots=True)
class ShareTrade:
    """What one share trade does (Buy / Sell / Issue One Share).

    Attributes:
        amount: $ the buyer pays, or the seller (player or issuing corporation) receives.
        card: the card the corporation takes (-1: none, $75).
        price: its share price afterwards, $.
        ends_game: a bought share takes the price to $75: the game ends after payment.
        bankrupt: a sold or issued share takes the price to $0: the corporation goes bankrupt.
        receivership: a sold share is the last share of the corporation that any player holds: it
            goes into receivership, with no president (Sell One Share).
    """

    amount: int
    card: int
    price: int
    ends_game: bool = False
    bankrupt: bool = False
    receivership: bool = False


def buy_share(s: StarsState, c: int, presidents_share: bool = False) -> ShareTrade:
    """Buy One Share of corporation ``c`` from the bank (phase 1): the next higher available card,
    whose price the buyer pays ("Like in real share trading ... you have to pay more than that
    'last known share price'"). No check that the bank has a share or the buyer the money."""
    k, paid = P.buy_terms(s, c, presidents_share)
    price = P.card_price(k)
    return ShareTrade(paid, k, price, ends_game=price >= D.PRICES[D.TOP_CARD])


def sell_share(s: StarsState, c: int) -> ShareTrade:
    """Sell One Share of corporation ``c`` to the bank (phase 1): the next lower available card,
    whose price the seller receives; $0 means Go Bankrupt."""
    k = P.next_lower_card(s, c)
    base = c * MAXP
    last = s.president[c] >= 0 and sum(s.held[base : base + s.n]) == 1
    return ShareTrade(P.card_price(k), k, P.card_price(k), bankrupt=k == 0, receivership=last and k != 0)


def issue_share(s: StarsState, c: int) -> ShareTrade:
    """Issue One Share (phase 8): like Sell One Share with the corporation as seller; Stock Masters
    keeps its share price and receives it."""
    k, got = P.issue_terms(s, c)
    return ShareTrade(got, k, P.card_price(k), bankrupt=k == 0)


@dataclass(frozen=True, slots=True)
class Ipo:
    """The terms of Form Corporation with a company of face value ``face`` at share price ``price``.

    Attributes:
        shares: shares the player receives, and as many the bank (2 if the face value is greater
            than the share price, else 1).
        pay: $ the player pays the new corporation (their shares' price less the face value).
        treasury: $ the corporation starts with (the player's payment and the bank's shares' price).
        issued: shares issued.
    """

    shares: int
    pay: int
    treasury: int
    issued: int


def ipo(face: int, price: int) -> Ipo:
    """Phase 9, Form Corporation: the terms for a company of face value ``face`` $ going public at
    share price ``price`` $ (no check that the card or charter is free or the player can pay)."""
    n = P.ipo_shares(face, price)
    pay = P.ipo_payment(face, price)
    return Ipo(n, pay, pay + n * price, 2 * n)


@dataclass(frozen=True, slots=True)
class Shortfall:
    """An entity that could not pay its negative income in phase 5 (Collect Income) with the money
    it holds: a corporation then goes bankrupt; a player must close companies in phase 4 first.

    Attributes:
        owner: the owner code (seat or ``CORP_BASE + c``).
        cash: $ it holds (or would hold).
        income: its income, $ (negative).
    """

    owner: int
    cash: int
    income: int


def phase5_shortfalls(s: StarsState) -> list[Shortfall]:
    """The players (in player order) and corporations (in share price order) whose money now would
    not pay their negative income if phase 5 came now, with the cost of ownership in force."""
    out = []
    for seat in s.order:
        inc = P.income_of(s, seat)
        if s.cash[seat] + inc < 0:
            out.append(Shortfall(seat, s.cash[seat], inc))
    for c in s.active_corps():
        inc = P.income_of(s, CORP_BASE + c)
        if s.corp_cash[c] + inc < 0:
            out.append(Shortfall(CORP_BASE + c, s.corp_cash[c], inc))
    return out


def ipo_shortfalls(s: StarsState, seat: int, i: int, c: int, price: int) -> list[Shortfall]:
    """Phase 9: who could not pay a negative income in the next phase 5 (under the cost of ownership
    in force now) if ``seat`` formed corporation ``c`` with company ``i`` at ``price`` $: the player
    with their remaining companies, the new corporation with its treasury."""
    terms = ipo(D.FACE[i], price)
    coo = s.cost_of_ownership()
    out = []
    rest = [k for k in s.companies_of(seat) if k != i]
    printed, cost, synergy, bonus = P.income_parts(seat, rest, coo)
    inc = printed - cost + synergy + bonus
    left = s.cash[seat] - terms.pay
    if left + inc < 0:
        out.append(Shortfall(seat, left, inc))
    printed, cost, synergy, bonus = P.income_parts(CORP_BASE + c, [i], coo)
    inc = printed - cost + synergy + bonus
    if terms.treasury + inc < 0:
        out.append(Shortfall(CORP_BASE + c, terms.treasury, inc))
    return out
