"""Issue 28 item 3: die numbers, slots, links and amounts are read with one ASCII-only parser.

``"²".isdigit()`` is true and ``int("²")`` fails (a Freight ``pay`` of "²" was a ValueError, a 500
in the web app), while ``int`` reads "٣" (an Arabic-Indic three), "+3", " 3", "-1" and "1_000".
A whole number is ASCII digits and nothing else, in the engines and at the terminal alike.
"""

from __future__ import annotations

import json

import pytest

from rolling.core.errors import IllegalAction, RecordError
from rolling.core.whole import MAX_DIGITS, is_whole, parse_whole
from rolling.games import freight as F
from rolling.games import market as M
from rolling.games import stars as S
from rolling.games.freight.actions import TakeContract
from rolling.games.freight.routes import parse_path
from rolling.interop import e18xx
from rolling.ui import freight_input, stars_input
from rolling.ui import market as market_ui
from rolling.ui.session import read_decisions

#: text that Python's ``isdigit`` or ``int`` take for a number and a person does not
NOT_WHOLE = ("²", "³", "٣", "३", "３", "+3", " 3", "3 ", "-1", "1_000", "1.0", "1e3", "", "x")


def test_parse_whole_reads_ascii_digits_only():
    assert [parse_whole(t) for t in ("0", "7", "07", "12", "9" * MAX_DIGITS)] == [0, 7, 7, 12, int("9" * MAX_DIGITS)]
    for text in (*NOT_WHOLE, "9" * (MAX_DIGITS + 1), "1" * 5000):
        assert parse_whole(text) is None and not is_whole(text), text


def freight_turn():
    """A 3-player West Coast game past its opening draft, the first seat to act in its turn."""
    st = F.new_game(F.Config("west-coast", 3), 1)
    while st.stage == "draft":
        st.apply(st.legal_actions(st.to_act[0])[0])
    return st


ENGINE_BAD = ("²", "³", "٣", "+3", "-1", "1_000", "0 ²", "0,٣")


@pytest.mark.parametrize("pay", ENGINE_BAD)
def test_freight_pay_with_a_non_ascii_or_signed_die_number_is_illegal(pay):
    """A Freight ``pay`` naming a die by anything but ASCII digits: IllegalAction, state unchanged
    (it was a ValueError for "²" and die 3 for "٣")."""
    st = freight_turn()
    seat = st.to_act[0]
    take = next(a for a in st.legal_actions(seat) if isinstance(a, TakeContract))
    before = st.digest()
    with pytest.raises(IllegalAction, match="cannot pay with"):
        st.apply(TakeContract(seat, take.slot, pay))
    assert st.digest() == before


@pytest.mark.parametrize("path", ("²", "٣", "+3", "1_000", "31,²", "31 ٣"))
def test_freight_route_path_with_a_non_ascii_link_number_is_illegal(path):
    """A route's ``path`` names printed link numbers in ASCII digits (commas, spaces or dashes
    between them)."""
    st = freight_turn()
    assert parse_path(st, "31,24") == [st.link_by_id(31).index, st.link_by_id(24).index]
    with pytest.raises(IllegalAction, match="is not a link number"):
        parse_path(st, path)


@pytest.mark.parametrize("line", ("²", "٣", "³", "+3", "1_000", "take ²", "take ٣", "buy ٣",
                                  "build 28 ²", "build L٣", "1 pay ²", "1 pay ٣", "1 pay +1"))
def test_freight_terminal_reads_ascii_numbers_only(line):
    """At the Freight prompt a menu number, slot, link, cube count or die typed with other digits
    is a one-line message (not "invalid literal for int()"), and no move."""
    st = freight_turn()
    before = st.digest()
    with pytest.raises(ValueError) as e:
        freight_input.parse(line, st, st.legal_actions(st.to_act[0]))
    assert "\n" not in str(e.value) and "int()" not in str(e.value)
    assert st.digest() == before


def stars_auction():
    """A 3-player Stars game in phase 1 with the first player able to start an auction."""
    s = S.new_game(S.Config(players=3), 0)
    seat = s.to_act[0]
    assert any(m.kind is S.StartAuction for m in s.legal_moves(seat))
    return s, seat


def arabic_indic(n: int) -> str:
    """``n`` written in Arabic-Indic digits (``int`` reads it as ``n``)."""
    return "".join(chr(0x660 + int(d)) for d in str(n))


@pytest.mark.parametrize("line", ("²", "٣", "³", "+1", "1_0", "bid {c} {ar}", "bid {c} ²", "bid {c} +{lo}",
                                  "bid {c} -1", "bid {c} ${ar}", "bid {c} {lo}_0", "{k} {ar}", "{k} +{lo}"))
def test_stars_terminal_reads_ascii_amounts_only(line):
    """At the Stars prompt a menu number or a $ amount written with other digits (or a sign) is a
    one-line InputError: "٣" was read as 3, and "²" as a menu number raised ValueError."""
    s, seat = stars_auction()
    items = stars_input.menu(s, seat)
    k = next(i for i, (_, _, m) in enumerate(items, 1) if m.kind is S.StartAuction)
    m = items[k - 1][2]
    assert int(arabic_indic(m.lo)) == m.lo
    text = line.format(c=m.args["company"], k=k, lo=m.lo, ar=arabic_indic(m.lo))
    with pytest.raises(stars_input.InputError) as e:
        stars_input.parse(s, seat, text, items)
    assert "\n" not in str(e.value)


def test_stars_terminal_asked_amount_reads_ascii_only():
    """The amount asked after a bare menu number (AskAmount) is read the same way."""
    s, seat = stars_auction()
    items = stars_input.menu(s, seat)
    m = next(m for _, _, m in items if m.kind is S.StartAuction)
    assert stars_input.amount(m, str(m.lo)) == S.StartAuction(seat, m.args["company"], m.lo)
    for text in (arabic_indic(m.lo), "²", f"+{m.lo}", f"{m.lo}.0"):
        with pytest.raises(stars_input.InputError, match="whole number"):
            stars_input.amount(m, text)


@pytest.mark.parametrize("amount", ("²", "٣", "+3", "1_0", "-1", "3.0"))
def test_market_terminal_reads_ascii_share_counts_only(amount):
    st = M.MarketState(1)
    with pytest.raises(ValueError, match="is not a number of shares"):
        market_ui.parse(f"buy A {amount}", st)


def test_18xx_import_reads_ascii_numbers_only():
    """An imported certificate ``PR_²`` has no certificate number (it raised ValueError), and a
    site amount of 8.5 or "٣" is malformed (``int`` made them $8 and $3)."""
    assert e18xx._share_index({"shares": ["PR_2"]}) == 2
    for name in ("PR_²", "PR_٣", "PR_+1"):
        assert e18xx._share_index({"shares": [name]}) == -1
    assert e18xx._whole(12) == e18xx._whole("12") == 12
    for bad in (8.5, True, "٣", "²", "+3", None):
        with pytest.raises(ValueError, match="whole number"):
            e18xx._whole(bad)


def test_saved_decisions_name_seats_in_ascii_digits():
    """A resumed game's ``meta["decisions"]`` (seat -> positions): a seat "²" or "٣" is a
    RecordError (one line at the terminal), not a ValueError or seat 3."""
    assert read_decisions({"0": [1, 4], "2": []}) == {0: [1, 4], 2: []}
    for bad in ({"²": [1]}, {"٣": [1]}, {"+1": [1]}, {"0": [1.5]}, {"0": "1"}, []):
        with pytest.raises(RecordError, match="decisions"):
            read_decisions(bad)



#: a whole-number option of each command that has one, after what the command needs before it
#: (review: typer's ``int`` read "1_0" as 10, " 3" as 3 and "٣" as 3)
INT_OPTIONS = (
    (("simulate", "market"), [], "--seed"), (("simulate", "freight"), [], "--games"),
    (("simulate", "stars"), [], "--workers"), (("play", "market"), [], "--seed"),
    (("play", "freight"), [], "--players"), (("bench", "freight"), [], "--players"),
    (("bench", "market"), [], "--games"), (("bench", "stars"), [], "--workers"),
    (("analyze",), ["r.json"], "--seed"), (("analyze",), ["r.json"], "--workers"),
    (("freight", "board"), ["r.json", "--out", "b.svg"], "--at"), (("serve",), [], "--port"),
    (("worker",), ["--db", "postgresql+psycopg://u@h/d"], "--concurrency"),
)


def parse_options(path: tuple[str, ...], args: list[str]) -> dict:
    """The parameters ``rolling PATH ARGS`` reads, parsed without running the command."""
    import typer

    from rolling.cli.main import app

    command = typer.main.get_command(app)
    for name in path:
        command = command.commands[name]
    return command.make_context("rolling", args).params


def not_whole(option: str, text: str) -> str:
    sign = "an optional - and " if option == "--seed" else ""
    return f"Invalid value for '{option}': {text!r} is not a whole number ({sign}the digits 0-9 only)"


@pytest.mark.parametrize("path,before,option", INT_OPTIONS, ids=[" ".join((*p, o)) for p, _, o in INT_OPTIONS])
def test_integer_command_line_options_read_ascii_digits_only(path, before, option):
    """Review: every integer option of ``rolling`` is ASCII digits, after a ``-`` for a seed only."""
    import typer

    name = option.removeprefix("--")
    assert parse_options(path, [*before, option, "12"])[name] == 12
    bad = ["1_0", "²", " 3", "٣", "+3", "3 ", "", "9" * (MAX_DIGITS + 1), "--1", "-"]
    if option == "--seed":  # a seed may be negative, a count or a port not
        assert parse_options(path, [*before, option, "-5"])[name] == -5
    else:
        bad.append("-1")
    for text in bad:
        with pytest.raises(typer.BadParameter) as e:
            parse_options(path, [*before, option, text])
        assert e.value.format_message() == not_whole(option, text)


@pytest.mark.parametrize("args", (["--seed", "1_0"], ["--games", "²"], ["--games", " 3"], ["--workers", "-1"]))
def test_a_bad_integer_option_is_one_line_and_exit_status_2(args, capsys):
    from rolling.cli.main import main

    with pytest.raises(SystemExit) as e:  # one short game where the option were taken
        main(["simulate", "market", "--games", "1", "--workers", "1", *args])
    assert e.value.code == 2
    assert capsys.readouterr().err == f"rolling: {not_whole(*args)}\n"


@pytest.mark.parametrize("seed", (10, -5))
def test_a_seed_is_ascii_digits_after_an_optional_minus(seed, capsys):
    from rolling.cli.main import main

    main(["simulate", "market", "--games", "1", "--workers", "1", "--seed", str(seed), "--json"])
    assert json.loads(capsys.readouterr().out)["seed"] == seed
