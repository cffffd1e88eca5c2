"""The Procedures of the canonical rules (Adjust Share Price, Auction's draw, Buy One Share, Change
of Presidency, Collect Income, Form Corporation, Go Bankrupt, Issue One Share, Pay Dividends, Sell One
Share), plus closing a company.

"Procedures are atomic. If any part of a procedure cannot be executed, the whole procedure cannot
be executed." Each procedure therefore has a ``check_*`` function that raises
:class:`~rolling.core.errors.IllegalAction` without touching the state, and a function that changes
the state and assumes the check passed.
"""

from __future__ import annotations

from rolling.core.errors import IllegalAction

from . import data as D
from . import events as E
from .config import RECEIVERSHIP_BUY
from .state import CORP_BASE, FOREIGN_INVESTOR, GONE, IN_OFFERING, MAXP, StarsState

# ---------------------------------------------------------------------------------------------- row


def next_higher_card(s: StarsState, c: int) -> int:
    """The next higher available share price card for corporation ``c`` (-1: none left, i.e. $75
    without a card). Cards in use by other corporations are skipped (Buy One Share)."""
    k = s.corp_card[c]
    if k < 0:
        return -1
    for j in range(k + 1, D.N_CARDS):
        if s.card_owner[j] < 0:
            return j
    return -1


def next_lower_card(s: StarsState, c: int) -> int:
    """The next lower available share price card for corporation ``c`` (Sell One Share). The $0
    card is always available: a corporation taking it goes bankrupt at once and returns it."""
    k = s.corp_card[c]
    start = D.N_CARDS - 1 if k < 0 else k - 1
    for j in range(start, -1, -1):
        if s.card_owner[j] < 0:
            return j
    return 0


def move_to_card(s: StarsState, c: int, k: int) -> None:
    """Return ``c``'s share price card to the Row and take card ``k`` (-1: take none, $75)."""
    old = s.corp_card[c]
    if old >= 0:
        s.card_owner[old] = -1
    s.corp_card[c] = k
    if k >= 0:
        s.card_owner[k] = c


def card_price(k: int) -> int:
    """Price in $ of card ``k`` (-1, no card, counts as $75)."""
    return D.PRICES[k] if k >= 0 else D.PRICES[D.TOP_CARD]


# ---------------------------------------------------------------------------------------------- draw


def draw(s: StarsState) -> None:
    """Auction / Phase 2: if the Deck holds a company, reveal the top one into the offering, turned
    vertical (unavailable for the rest of the phase)."""
    if s.deck:
        i = s.deck.pop()
        if "open-companies" not in s.config.variants:  # a public deck order: nothing revealed
            s.reveals += 1
            s.last_reveal = ("card", D.CODES[i])
        s.company_owner[i] = IN_OFFERING
        s.offering.append(i)
        s.unavailable |= 1 << i
        if s.log is not None:
            s.log.append((E.DRAW, E.PUBLIC, i))


def cash_move(s: StarsState, seat: int) -> None:
    """A step the rules take for ``seat`` because of its cash (a forced leave from an auction, a
    forced pass, a company passed over at the IPO): with the secret-money variant (002, 3.2) only
    ``seat`` knows that cash, so the step tells the others something hidden, a move of ``seat``
    (:data:`rolling.core.reveal.MOVE`: no other seat's undo goes back past it). With open money
    anyone could foresee it: nothing revealed."""
    if "secret-money" in s.config.variants:
        s.reveals += 1
        s.last_reveal = ("move", str(seat))


# ------------------------------------------------------------------------------------------- shares


def check_buy_one_share(s: StarsState, seat: int, c: int, presidents_share: bool = False) -> tuple[int, int]:
    """Check Buy One Share; return (new card, price $ the player pays). Raises IllegalAction.

    ``presidents_share``: the buyer names the President's Share, which the bank owns only while
    ``c`` is in receivership. The player must afford the new share price; that is also the price
    paid, except with compat option ``18xx-receivership-buy``, where the President's Share bought
    out of receivership costs the share price before the move (18xx.games).
    """
    if not s.corp_active[c]:
        raise IllegalAction("Buy One Share", f"{s.corp_name(c)} is not an existing corporation")
    if s.bank_shares(c) < 1:
        raise IllegalAction("Buy One Share", f"the bank owns no share of {s.corp_name(c)}")
    if presidents_share and s.president[c] >= 0:
        raise IllegalAction(
            "Buy One Share", f"the bank does not own the President's Share of {s.corp_name(c)} (not in receivership)"
        )
    k = next_higher_card(s, c)
    price = card_price(k)
    if s.cash[seat] < price:
        raise IllegalAction(
            "Buy One Share", f"a share of {s.corp_name(c)} would cost ${price}; {s.names[seat]} has ${s.cash[seat]}"
        )
    if presidents_share and RECEIVERSHIP_BUY in s.config.compat:
        return k, s.share_price(c)  # buy_terms, with the card found above
    return k, price


def buy_terms(s: StarsState, c: int, presidents_share: bool = False) -> tuple[int, int]:
    """Buy One Share, unchecked: (the card ``c`` moves to, -1 for $75 without a card; the $ the
    buyer pays). The buyer pays the new share price, except with compat option
    ``18xx-receivership-buy`` for the President's Share out of receivership (the price before)."""
    k = next_higher_card(s, c)
    if presidents_share and RECEIVERSHIP_BUY in s.config.compat:
        return k, s.share_price(c)
    return k, card_price(k)


def buy_one_share(s: StarsState, seat: int, c: int, k: int, price: int) -> None:
    """Buy One Share, checked by :func:`check_buy_one_share`, which gave the new card ``k`` and the
    ``price`` $ paid: take a share from the bank (the President's Share if in receivership), move
    to card ``k``, pay, check Change of Presidency; at $75 the game ends after payment."""
    receivership = s.president[c] < 0
    s.held[c * MAXP + seat] += 1
    move_to_card(s, c, k)
    s.cash[seat] -= price
    s.bank_paid -= price
    if s.log is not None:
        s.log.append((E.BUY_SHARE, E.PUBLIC, seat, c, price))
    if receivership:
        s.president[c] = seat
        if s.log is not None:
            s.log.append((E.TAKE_PRESIDENCY, E.PUBLIC, seat, c))
    else:
        change_of_presidency(s, c, s.president[c])
    if card_price(k) >= D.PRICES[D.TOP_CARD]:
        end_game(s, "a share was bought at $75")


def check_sell_one_share(s: StarsState, seat: int, c: int) -> None:
    """Check Sell One Share (raises IllegalAction)."""
    if not s.corp_active[c]:
        raise IllegalAction("Sell One Share", f"{s.corp_name(c)} is not an existing corporation")
    if s.held[c * MAXP + seat] < 1:
        raise IllegalAction("Sell One Share", f"{s.names[seat]} owns no share of {s.corp_name(c)}")


def sell_one_share(s: StarsState, seat: int, c: int) -> None:
    """Sell One Share (checked). The President's Share is sold only as the player's last share.
    The bank pays the next lower available price; $0 means bankruptcy; the last share held by any
    player puts the corporation in receivership; otherwise Change of Presidency is checked with
    the seller as current president if the President's Share was sold."""
    base = c * MAXP
    s.held[base + seat] -= 1
    sold_presidents = s.president[c] == seat and s.held[base + seat] == 0
    k = next_lower_card(s, c)
    move_to_card(s, c, k)
    price = card_price(k)
    s.cash[seat] += price
    s.bank_paid += price
    if s.log is not None:
        s.log.append((E.SELL_SHARE, E.PUBLIC, seat, c, price))
    if k == 0:
        go_bankrupt(s, c)
        return
    if sum(s.held[base : base + s.n]) == 0:
        if s.president[c] >= 0:
            s.president[c] = -1
            if s.log is not None:
                s.log.append((E.RECEIVERSHIP, E.PUBLIC, c))
        return
    if sold_presidents:
        s.president[c] = -1  # the President's Share lies in the bank until someone takes it
        change_of_presidency(s, c, seat)
    else:
        change_of_presidency(s, c, s.president[c])


def change_of_presidency(s: StarsState, c: int, current: int) -> None:
    """Change of Presidency: if some player owns more shares of ``c`` than ``current`` (the
    president, or the seller of the President's Share), the next such player in player order after
    ``current`` becomes president (exchanging one of their shares for the President's Share).

    The check applies "at any time", so it is repeated until nobody owns more than the president;
    the result is the player with the most shares who comes first in player order after ``current``.
    """
    base = c * MAXP
    pos = s.order.index(current)
    best, best_count = current, s.held[base + current]
    for step in range(1, s.n):
        p = s.order[(pos + step) % s.n]
        if s.held[base + p] > best_count:
            best, best_count = p, s.held[base + p]
    if best != current or s.president[c] < 0:
        if s.president[c] != best:
            s.president[c] = best
            if s.log is not None:
                s.log.append((E.NEW_PRESIDENT, E.PUBLIC, best, c))


def check_issue_one_share(s: StarsState, c: int) -> None:
    """Check Issue One Share (raises IllegalAction): an unissued share must be left."""
    if s.corp_issued[c] >= D.CORP_SHARES[c]:
        raise IllegalAction("Issue One Share", f"{s.corp_name(c)} has no unissued share left")


def issue_one_share(s: StarsState, c: int) -> None:
    """Issue One Share (checked): like Sell One Share with the corporation as seller and the share
    taken from its unissued stack; Stock Masters keeps its share price and receives it."""
    k, price = issue_terms(s, c)
    s.corp_issued[c] += 1
    if k != s.corp_card[c]:
        move_to_card(s, c, k)
    s.corp_cash[c] += price
    s.bank_paid += price
    if s.log is not None:
        s.log.append((E.ISSUE, E.PUBLIC, c, price))
    if k == 0:
        go_bankrupt(s, c)


def issue_terms(s: StarsState, c: int) -> tuple[int, int]:
    """Issue One Share, unchecked: (the card ``c`` takes, the $ the bank pays it). Like Sell One
    Share, the next lower available card; Stock Masters keeps its card and receives its price."""
    if c == D.STOCK_MASTERS:
        return s.corp_card[c], s.share_price(c)
    k = next_lower_card(s, c)
    return k, card_price(k)


def go_bankrupt(s: StarsState, c: int) -> None:
    """Go Bankrupt: remove all its companies from the game, set all its shares aside with the
    charter (available again to Form a Corporation), return its money to the bank and its share
    price card to the Row."""
    co, own = s.company_owner, CORP_BASE + c
    for i in range(D.N_COMPANIES):
        if co[i] == own:
            co[i] = GONE
    base = c * MAXP
    for p in range(MAXP):
        s.held[base + p] = 0
    s.corp_issued[c] = 0
    s.president[c] = -1
    s.bank_paid -= s.corp_cash[c]
    s.corp_cash[c] = 0
    s.received[c] = 0
    move_to_card(s, c, -1)
    s.corp_active[c] = False
    if s.log is not None:
        s.log.append((E.BANKRUPT, E.PUBLIC, c))


# ------------------------------------------------------------------------------- share price, dividends


def target_card(s: StarsState, c: int, owned: int | None = None) -> int:
    """Adjust Share Price: the card ``c`` would take now, with no change made (-1: no card, $75).

    Owned stars = stars of its companies + one per full $10 + 2 for Stars, Inc. (``owned``, when
    given, replaces that count: what the stars would be); compared with the stars the card
    requires for its issued shares, the price moves -2, -1, 0, +1 or +2 cards, then on to the next
    available card in the direction of the move.
    """
    k = s.corp_card[c]
    base_card = D.TOP_CARD if k < 0 else k
    if owned is None:
        owned = corp_stars(s, c)
    required = D.REQUIRED_STARS[s.corp_issued[c]][base_card]
    diff = owned - required
    if diff == 0:
        return k
    step = -2 if diff < -2 else 2 if diff > 2 else diff  # max(-2, min(2, diff))
    t = base_card + step
    t = 0 if t < 0 else D.TOP_CARD if t > D.TOP_CARD else t
    if step < 0:
        while t > 0 and s.card_owner[t] >= 0 and s.card_owner[t] != c:
            t -= 1
        return t
    while t <= D.TOP_CARD and s.card_owner[t] >= 0 and s.card_owner[t] != c:
        t += 1
    return t if t <= D.TOP_CARD else -1


def corp_stars(s: StarsState, c: int) -> int:
    """Stars owned by corporation ``c``: its companies' stars, one per full $10, +2 for Stars, Inc."""
    owner = CORP_BASE + c
    co = s.company_owner
    stars = 0
    i = -1
    for _ in range(co.count(owner)):  # its few companies, found by scans in C
        i = co.index(owner, i + 1)
        stars += D.STARS[i]
    stars += s.corp_cash[c] // 10
    if c == D.STARS_INC:
        stars += 2
    return stars


def adjust_share_price(s: StarsState, c: int) -> None:
    """Adjust Share Price (see :func:`target_card`); taking the $0 card means Go Bankrupt."""
    t = target_card(s, c)
    if t != s.corp_card[c]:
        old = s.share_price(c)
        move_to_card(s, c, t)
        new = s.share_price(c)
        if new != old and s.log is not None:
            s.log.append((E.PRICE_MOVE, E.PUBLIC, c, old, new))
    if t == 0:
        go_bankrupt(s, c)


def max_dividend(s: StarsState, c: int) -> int:
    """Pay Dividends: the highest payout per share in $ (card maximum and money available)."""
    k = s.corp_card[c]
    card_max = D.MAX_DIVIDEND[k if k >= 0 else D.TOP_CARD]
    return min(card_max, s.corp_cash[c] // s.corp_issued[c])


def pay_dividends(s: StarsState, c: int, amount: int) -> None:
    """Pay Dividends: ``amount`` $ per issued share from ``c``'s money to each share's owner."""
    base = c * MAXP
    total = amount * s.corp_issued[c]
    s.corp_cash[c] -= total
    if amount:
        held, cash = s.held, s.cash
        n = s.n
        s.bank_paid -= amount * (s.corp_issued[c] - sum(held[base : base + n]))  # the bank's shares
        for p in range(n):
            cash[p] += amount * held[base + p]
    if s.log is not None:
        s.log.append((E.DIVIDEND, E.PUBLIC, c, amount, total))


# ------------------------------------------------------------------------------------------ income


def synergy_pairs(companies: list[int]) -> list[tuple[int, int, int]]:
    """Synergy (Glossary): the pairs (i, j, bonus $) among ``companies`` (ascending), each pair once."""
    pairs = []
    for a, i in enumerate(companies):
        row = D.SYNERGY_TABLE[i]
        for j in companies[a + 1 :]:
            if row[j]:
                pairs.append((i, j, row[j]))
    return pairs


def income_parts(owner: int, companies: list[int], coo: tuple[int, int]) -> tuple[int, int, int, int]:
    """Collect Income for one entity: (printed, cost, synergy, bonus) in $, from its
    ``companies`` (ascending) and the cost of ownership ``coo`` = (cost $, bitmask of the colours
    paying it) (see :meth:`StarsState.cost_of_ownership`). See :func:`income_breakdown`."""
    cost_each, paying = coo
    printed = cost = 0
    income, color = D.INCOME, D.COLOR
    for i in companies:
        printed += income[i]
        if paying >> color[i] & 1:
            cost += cost_each
    synergy = bonus = 0
    if owner == FOREIGN_INVESTOR:
        bonus = D.FI_BONUS
    elif owner >= CORP_BASE:
        c = owner - CORP_BASE
        pairs = 0
        if len(companies) > 1:  # a pair needs two companies
            table = D.SYNERGY_TABLE
            for a, i in enumerate(companies):
                row = table[i]
                for j in companies[a + 1 :]:
                    if row[j]:
                        synergy += row[j]
                        pairs += 1
        if c == D.PRUSSIAN:
            bonus += len(companies)
        elif c == D.DOPPLER and companies:
            bonus += D.INCOME[companies[-1]]  # companies ascend in face value
        elif c == D.SYNERGISTIC:
            bonus += pairs // 2
        elif c == D.VINTAGE:
            cost -= min(10, cost)
    return printed, cost, synergy, bonus


def income_breakdown(s: StarsState, owner: int) -> dict[str, int]:
    """Collect Income for one entity, itemised in $.

    Keys: ``printed`` (sum of printed incomes), ``cost`` (cost of ownership, after Vintage
    Machinery's reduction), ``synergy``, ``bonus`` (foreign investor's +5, Prussian Railway,
    Doppler AG, Synergistic), ``total``.
    """
    printed, cost, synergy, bonus = income_parts(owner, s.companies_of(owner), s.cost_of_ownership())
    total = printed - cost + synergy + bonus
    return {"printed": printed, "cost": cost, "synergy": synergy, "bonus": bonus, "total": total}


def income_of(s: StarsState, owner: int) -> int:
    """Total income in $ an entity would collect in phase 5 now (may be negative)."""
    printed, cost, synergy, bonus = income_parts(owner, s.companies_of(owner), s.cost_of_ownership())
    return printed - cost + synergy + bonus


# ----------------------------------------------------------------------------------------- closing


def close_company(s: StarsState, i: int) -> None:
    """Remove company ``i`` from the game; Junkyard Scrappers receives twice its printed income."""
    owner = s.company_owner[i]
    s.company_owner[i] = GONE
    if s.log is not None:
        s.log.append((E.CLOSE, E.PUBLIC, owner, i))
    if owner == CORP_BASE + D.JUNKYARD:
        bonus = 2 * D.INCOME[i]
        s.corp_cash[D.JUNKYARD] += bonus
        s.bank_paid += bonus
        if s.log is not None:
            s.log.append((E.SCRAP_BONUS, E.PUBLIC, D.JUNKYARD, bonus))


# --------------------------------------------------------------------------------------------- IPO


def ipo_shares(face: int, price: int) -> int:
    """Form Corporation: shares the player (and equally the bank) receives: 2 if the face value
    is greater than the share price, else 1."""
    return 2 if face > price else 1


def ipo_payment(face: int, price: int) -> int:
    """Form Corporation: $ the player pays the new corporation (their shares' price less face value)."""
    return ipo_shares(face, price) * price - face


def check_form_corporation(s: StarsState, seat: int, i: int, c: int, k: int) -> None:
    """Check Form Corporation (raises IllegalAction): a private company of ``seat``, an unused
    charter, an available share price card showing the company's colour in its IPO box, and
    money for the payment."""
    rule = "Form Corporation"
    if s.company_owner[i] != seat:
        raise IllegalAction(rule, f"{D.CODES[i]} is not a private company of {s.names[seat]}")
    if s.corp_active[c]:
        raise IllegalAction(rule, f"the charter of {s.corp_name(c)} is in use")
    if k < 0 or s.card_owner[k] >= 0:
        raise IllegalAction(rule, "that share price card is not available")
    if not D.IPO_COLORS[k] >> D.COLOR[i] & 1:
        raise IllegalAction(
            rule, f"the ${D.PRICES[k]} card has no {D.COLORS[D.COLOR[i]]} IPO box (company {D.CODES[i]})"
        )
    pay = ipo_payment(D.FACE[i], D.PRICES[k])
    if s.cash[seat] < pay:
        raise IllegalAction(rule, f"{s.names[seat]} would pay ${pay} but has ${s.cash[seat]}")


def form_corporation(s: StarsState, seat: int, i: int, c: int, k: int) -> None:
    """Form Corporation (checked)."""
    price = D.PRICES[k]
    n = ipo_shares(D.FACE[i], price)
    pay = n * price - D.FACE[i]
    s.corp_active[c] = True
    s.company_owner[i] = CORP_BASE + c
    move_to_card(s, c, k)
    s.corp_issued[c] = 2 * n
    s.held[c * MAXP + seat] = n
    s.president[c] = seat
    s.cash[seat] -= pay
    s.corp_cash[c] = pay + n * price
    s.bank_paid += n * price
    s.received[c] = 0
    if s.log is not None:
        s.log.append((E.FORM, E.PUBLIC, seat, c, i, price, n, pay, s.corp_cash[c]))


# -------------------------------------------------------------------------------------------- end


def end_game(s: StarsState, reason: str) -> None:
    """End the game now (Game End and Scoring)."""
    s.over = True
    s.end_reason = reason
    s.auction = None
    s.pending = ()
    s.announcement = None
    s.standing = ()
    if s.log is not None:
        s.log.append((E.GAME_END, E.PUBLIC, reason))
        # the final scores are public: everyone counts their book value (events module)
        for r in s.standings():
            s.log.append((E.RANK, E.PUBLIC, r["rank"], r["seat"], r["score"]))
