"""Issue 34 (a faster Freight engine): the SplitMix64 steps of :class:`rolling.core.rng.Rng` in C
(``rolling.core._splitmix``, built by ``setup.py`` where a C compiler is found) give the stream of
the Python steps (the reference kept in ``rng.py``) draw for draw: ``next64``, ``below`` for every
kind of bound (one, powers of two, odd, huge: rejection sampling), ``draws`` (several bounds at
once, as ``below`` for each in order), and every method built on them;
numbers that do not fit 64 bits are drawn in Python, and ``ROLLING_PURE_PYTHON`` turns the C steps
off. Every game's chance (dice, decks, the bots' draws) comes from this stream, so the pinned games
depend on it too."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from rolling.core import rng as rng_module
from rolling.core.rng import Rng

compiled = pytest.mark.skipif(rng_module._splitmix is None, reason="the C steps are off: not built (no C compiler) or ROLLING_PURE_PYTHON")

BOUNDS = [1, 2, 3, 5, 6, 7, 12, 36, 100, 1000, 2**31 - 1, 2**32, 2**32 + 1, 3 * 2**61, 2**63,
          2**63 + 1, 2**64 - 59, 2**64 - 1]


def python_draws(seed: int, bounds: list[int]) -> tuple[list[int], int]:
    """``below(n)`` for each bound, then ``next64()``, with the C steps off; and the state after."""
    saved = rng_module._splitmix
    rng_module._splitmix = None
    try:
        r = Rng(seed)
        out = [r.below(n) for n in bounds] + [r.next64()]
        return out, r.state
    finally:
        rng_module._splitmix = saved


@compiled
@pytest.mark.parametrize("seed", [0, 1, 42, 2**63, 2**64 - 1, -1, 3**50])
def test_compiled_stream_is_the_python_stream(seed):
    """Issue 34: the same draws and the same state after them, for each kind of bound."""
    bounds = BOUNDS * 20
    r = Rng(seed)
    got = [r.below(n) for n in bounds] + [r.next64()]
    assert (got, r.state) == python_draws(seed, bounds)


@compiled
@settings(max_examples=300, deadline=None, derandomize=True)
@given(seed=st_.integers(0, 2**64 - 1), bounds=st_.lists(st_.integers(1, 2**64 - 1), max_size=30))
def test_compiled_below_is_the_python_below_for_any_bounds(seed, bounds):
    """Issue 34: any seed, any bounds that fit 64 bits."""
    r = Rng(seed)
    got = [r.below(n) for n in bounds] + [r.next64()]
    assert (got, r.state) == python_draws(seed, bounds)


@compiled
@settings(max_examples=200, deadline=None, derandomize=True)
@given(seed=st_.integers(0, 2**64 - 1), bounds=st_.lists(st_.integers(1, 2**64 - 1), max_size=20))
def test_draws_are_below_for_each_bound(seed, bounds):
    """Issue 34: ``draws(bounds)`` (a roll of several dice, one C call) gives ``below(n)`` for each
    bound in order, and leaves the generator where those draws leave it."""
    r = Rng(seed)
    got = r.draws(list(bounds)) + [r.next64()]
    assert (got, r.state) == python_draws(seed, bounds)


def test_draws_of_a_subclass_go_through_its_below():
    """Issue 34: a generator whose draws come from elsewhere (``ScriptedRng``) answers ``draws``
    by its own ``below``, bound by bound; a bound that is not positive is refused either way."""
    from rolling.core.chance import ChanceNeeded, ScriptedRng

    r = ScriptedRng((2, 0, 5))
    assert r.draws([6, 6, 6]) == [2, 0, 5] and r.used == 3
    with pytest.raises(ChanceNeeded):
        r.draws([6])
    for gen in (Rng(1), ScriptedRng((1,))):
        with pytest.raises(ValueError, match="positive"):
            gen.draws([6, 0])
    one_by_one = Rng(4)
    assert Rng(4).draws([6, 36]) == [one_by_one.below(6), one_by_one.below(36)]


@compiled
def test_draws_that_do_not_fit_are_drawn_in_python():
    """Issue 34: a bound of 2**64 or more, or a state set by hand outside 64 bits: nothing is
    drawn in C (``None``) and the Python steps draw every bound from the same state."""
    split = rng_module._splitmix
    assert split.draws(5, [6, 2**64]) is None and split.draws(2**64, [6]) is None
    assert split.draws(5, (6,)) is None and split.draws(5, [6, -1]) is None
    assert split.draws(5, [])[1] == []
    r = Rng(8)
    got = r.draws([6, 2**64, 6]) + [r.next64()]
    assert (got, r.state) == python_draws(8, [6, 2**64, 6])


@compiled
def test_shuffle_randint_choice_and_copy_are_unchanged():
    """Issue 34: the methods built on ``below`` draw the same either way; a copy goes on alike."""
    def run():
        r = Rng(7)
        items = list(range(40))
        r.shuffle(items)
        c = r.copy()
        return items, [r.randint(1, 6) for _ in range(50)], r.choice("abcdef"), c.next64(), r.state
    got = run()
    saved = rng_module._splitmix
    rng_module._splitmix = None
    try:
        assert got == run()
    finally:
        rng_module._splitmix = saved


@compiled
def test_numbers_that_do_not_fit_are_drawn_in_python():
    """Issue 34: a state outside 0..2**64-1 (set by hand) or a bound of 2**64 or more is no C
    draw (``None``): the Python steps draw it, as before."""
    split = rng_module._splitmix
    assert split.below(2**64, 6) is None and split.below(-1, 6) is None
    assert split.below(5, 2**64) is None and split.below(5, 0) is None and split.next64(2**64) is None
    assert split.below(5, 6)[1] < 6
    r = Rng(3)
    r.state = 2**64 + 5
    expect = Rng(3)
    expect.state = 2**64 + 5
    saved = rng_module._splitmix
    rng_module._splitmix = None
    try:
        want = [expect.below(6), expect.below(2**64), expect.next64()]
    finally:
        rng_module._splitmix = saved
    assert [r.below(6), r.below(2**64), r.next64()] == want
    with pytest.raises(ValueError, match="positive"):
        r.below(0)


def test_pure_python_switch_turns_the_c_steps_off():
    """Issue 34: ``ROLLING_PURE_PYTHON`` set, every draw is Python's (``compiled()`` says so)."""
    code = "from rolling.core import rng; print(rng.compiled(), rng.Rng(9).below(6))"
    env = dict(os.environ, ROLLING_PURE_PYTHON="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", str(python_draws(9, [6])[0][0])]
