"""Binomial tests of the water-roll rates against the rules' dice, with fixed seeds: "A water-roll
is a D-6 roll where 1 to 3 is a fail and 4 to 6 is a success", advantage and disadvantage
honoured ("perform any random act twice, and choose the preferable outcome"), and a streak of
rolled successes goes on until it fails (no cap on rolled successes)."""

from __future__ import annotations

import pytest
from scipy import stats

from sim.engine.state import fields as L
from sim.engine.rules.water_rolls import _apply_water
from tests._water_kit import RULES, beside_water, put, rules_ip, water_action, water_game


def test_water_rolls_succeed_at_the_rules_rate():
    """"1 to 3 is a fail and 4 to 6 is a success": over 400 rolls from one game's stream (fixed
    seed), the success count fits Binomial(n, 1/2) (two-sided exact test, alpha 0.001).

    Power against the success range off by one (5-6 or 3-6: p = 1/3 or 2/3, the mutant of
    ``face >= water_success_min``): the test passes only for a count in [167, 233] (scipy's
    binomtest); P(Binom(400, 1/3) <= 166) = 0.99973, the same for 2/3 by symmetry."""
    p = (RULES.water_die - RULES.water_success_min + 1) / RULES.water_die
    wins = 0
    n = 400
    game, c = water_game()
    s, t = beside_water(game)
    for k in range(n):
        game.st.ent.space[c] = s
        game.st.ent.submerged[c] = 0
        game.st.ent.streak_over[c] = 0
        game.st.ent.acted[c] = 0
        game.st.game.cur = c
        game.legal_mask()
        game.apply(water_action(game, t))
        wins += int(game.st.ent.space[c] == t)
        game.st.game.over = 0
        game.st.game.cur = c
    assert stats.binomtest(wins, n, p).pvalue > 1e-3


@pytest.mark.parametrize("col, exact", [
    (L.BUFF, lambda p: 1 - (1 - p) ** 2),  # advantage: either of two rolls
    (L.DEBUFF, lambda p: p * p),           # disadvantage: both of two rolls
])
def test_water_rolls_honour_advantage_and_disadvantage(col, exact):
    """"Advantage allows an entity to perform any random act twice, and choose the preferable
    outcome"; "Disadvantage forces an entity to perform any random act twice, and the GM chooses
    the less preferable outcome". A water-roll ("a D-6 roll where 1 to 3 is a fail and 4 to 6 is
    a success") is a random act: 20,000 rolls of the engine (``water_rolls._apply_water``, one game's
    stream, fixed seed) succeed at the exact 1 - (1 - 1/2)^2 = 0.75 with advantage, 1/4 with
    disadvantage: two-sided exact binomial test, alpha 0.001 (the rate of a roll without
    advantage, 1/2, is rejected by far).

    Power against advantage ignored (1/2 instead of 3/4 or 1/4) or turned round (1/4 instead
    of 3/4): 20,000 rolls, the rates 0.25-0.5 apart are 80-160 standard errors (0.0031) away:
    power 1.0 (to double precision)."""  # noqa: E501
    p = exact((RULES.water_die - RULES.water_success_min + 1) / RULES.water_die)
    game, c = water_game(seed=20)
    s, t = beside_water(game)
    st, S, ent = game.st, game.S, game.st.ent
    ent.raw[c, col] = 99 * L.CLOCKS + 1  # a buff / de-buff of advantage (stat code 4) that lasts
    ent.raw[c, col + L.TIMED_STAT] = L.STAT_ADVANTAGE
    n, wins = 20_000, 0
    for _ in range(n):
        ent.space[c] = s
        ent.submerged[c] = ent.streak_over[c] = ent.acted[c] = 0
        _apply_water(st, S, c, t)
        wins += int(ent.space[c] == t)
    assert stats.binomtest(wins, n, p).pvalue > 1e-3
    assert abs(wins / n - p) < 0.02


def test_a_streak_of_rolled_successes_goes_on_until_it_fails():
    """"Each Entity may roll for water freely, as many times as they like, until they fail. The
    first failed roll ends that streak for the turn": the house cap (``water_streak_max``) ends
    only streaks of automatic successes (``water_streak_counts = "automatic"``), so rolled
    successes go on past it for free; under the alternative ``"all"`` they end at the cap."""
    assert RULES.water_streak_counts == "automatic"
    game, c = water_game()
    s, t = beside_water(game)
    put(game, c, s)
    ent = game.st.ent
    cap = RULES.water_streak_max
    here, there = s, t
    with rules_ip(game.S, P_WATER_MIN=1):  # every face a success, but rolled (not automatic)
        for _ in range(cap + 3):
            assert game.legal_mask()[water_action(game, there)]
            game.apply(water_action(game, there))
            assert ent.space[c] == there and ent.acted[c] == 0
            here, there = there, here
        assert ent.streak_over[c] == 0
    game, c = water_game()
    put(game, c, s)
    ent = game.st.ent
    here, there = s, t
    with rules_ip(game.S, P_WATER_MIN=1, P_STREAK_ALL=1):
        for _ in range(cap):
            game.apply(water_action(game, there))
            here, there = there, here
        assert ent.streak_over[c] == 1 and ent.acted[c] == 0
