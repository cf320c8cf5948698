"""The balance metrics designers know (issue #21 item 3) and the pairwise comparison of teams
(item 1), on synthetic data with a planted truth: no games are played here."""

from __future__ import annotations

import re

import numpy as np
import pytest

from sim.analysis.balance import (KINDS, LAST_STANDING, SIMULTANEOUS, balance_from_pairs,
                                  balance_lines, elimination_places, game_balance,
                                  pairwise_differences, ranking_text, share)
from sim.analysis.fairness import EXIT_CODES, conclusion, fairness_verdict


def test_outcome_kinds_are_the_engines_labels():
    """The statistics layer repeats the engine's outcome labels (it may not import the engine):
    they must stay the engine's, or a kind would silently count as 0 %."""
    from sim.engine.state.fields import REASON_NAMES

    assert set(KINDS) == {v for k, v in REASON_NAMES.items() if k != 0}


def test_elimination_places_follow_the_order_of_falling():
    """Order of elimination: the winner is 1st, a later fall beats an earlier one, teams falling
    after the same decision share a place, and in a same-step elimination decided by health
    ("the tie will be broken by ... most total health") the winner is 1st and the rest share."""
    eliminated = np.array([[-1, 10, 20, 30],     # team 0 last standing
                           [5, 5, -1, 9],        # teams 0, 1 fall together
                           [40, 40, 40, 40]])    # same-step elimination, team 2 wins on health
    winner = np.array([0, 2, 2])
    places = elimination_places(eliminated, winner)
    assert places[0].tolist() == [1, 4, 3, 2]
    assert places[1].tolist() == [3, 3, 1, 2]
    assert places[2].tolist() == [2, 2, 1, 2]


def test_game_balance_shares_length_and_wld():
    """How games are decided as shares of games with intervals that hold the share; the length
    in rotations (median, quartiles); Fishtest's W/L/D per team; AdvantageP1 = seat 1's share."""
    rng = np.random.default_rng(1)
    n = 400
    winner = rng.choice([-1, 0, 1, 2, 3], size=n, p=[0.1, 0.3, 0.2, 0.2, 0.2])
    kinds = np.where(winner < 0, "stalemate",
                     np.where(rng.random(n) < 0.6, SIMULTANEOUS, LAST_STANDING))
    rot = rng.integers(5, 40, size=n)
    gb = game_balance(winner, kinds, rot, clusters=np.arange(n) % 20, winner_seat=winner,
                      eliminated=rng.integers(-1, 100, size=(n, 4)))
    assert sum(s.rate for s in gb.outcomes.values()) == pytest.approx(1.0)
    for s in gb.outcomes.values():
        assert s.low <= s.rate <= s.high
    assert gb.drawn.rate == pytest.approx(np.mean(winner < 0))
    assert gb.length["median"] == np.median(rot) and gb.length["q1"] <= gb.length["q3"]
    for t, row in enumerate(gb.wld):
        assert row["wins"] + row["losses"] + row["no_winner"] == n
        assert row["wins"] == int((winner == t).sum())
    d = gb.as_dict()
    assert d["advantage_p1"] == pytest.approx(np.mean(winner == 0))
    assert d["lead_changes"] is None and "rotation" in d["lead_changes_needs"]
    assert len(d["elimination"]) == 4


def test_the_lead_change_share_reads_as_every_other_share():
    """fairness, run and rarity print the balance lines; every share read "31.9 % (28.3–35.7)"
    but the lead changes' "in 82 % [77, 87] of games" (the audit of 2026-12-05). The same form
    now, as the drift and rulings lines print it."""
    rng = np.random.default_rng(2)
    n = 400
    winner = rng.integers(0, 4, size=n)
    lines = balance_lines(game_balance(winner, np.full(n, LAST_STANDING), np.full(n, 30),
                                       clusters=np.arange(n) % 20,
                                       lead_changes=rng.integers(0, 3, size=n)))
    lead = next(ln for ln in lines if ln.startswith("lead changes"))
    assert "[" not in lead, lead
    assert re.search(r"; the lead changed at least once in \d+\.\d % \(\d+\.\d–\d+\.\d\) of "
                     r"games$", lead), lead


def test_clustered_share_is_wider_when_boards_differ():
    """Shares of games on shared boards use the effective number of games (docs/intervals.md):
    when each board decides its games the same way, the interval widens."""
    board = np.repeat(np.arange(10), 40)
    y = (board % 2).astype(float)                 # half the boards always, half never
    plain, clustered = share(y), share(y, board)
    assert plain.rate == clustered.rate == 0.5
    assert clustered.high - clustered.low > 3 * (plain.high - plain.low)


def _planted_blocks(rates, blocks=300, seed=0):
    """Duplicate blocks whose winner is drawn with planted per-team chances (seats ignored)."""
    rng = np.random.default_rng(seed)
    winner = rng.choice(4, size=(blocks, 4), p=rates)
    return np.eye(4)[winner]                      # [block, rotation, team]


def test_pairs_tell_apart_only_planted_differences_and_rank_accordingly():
    """Issue #21: "fairness prints pairwise differences between teams with simultaneous intervals
    ... and ranks teams only where they are told apart". Planted: team 1 at 40 %, the others at
    20 %: every pair with team 1 is told apart, no pair among the others is."""
    y = _planted_blocks([0.4, 0.2, 0.2, 0.2], blocks=400)
    board = np.arange(400) % 100
    pairs, level = pairwise_differences(y, clusters=board, looks=2)
    assert level == pytest.approx(1 - 0.05 / 12)
    apart = {(p.a, p.b) for p in pairs if p.apart}
    assert apart == {(0, 1), (0, 2), (0, 3)}
    text = ranking_text(y.mean(axis=(0, 1)), pairs, ["A", "B", "C", "D"])
    assert text.startswith("A is ahead of") and "no other pair is told apart" in text
    bal, lo, hi = balance_from_pairs(pairs)
    assert lo <= bal <= hi and lo < 0.85 < hi


def test_balance_interval_covers_a_fair_game():
    """Balance, 1 - the largest gap: with four equal teams its simultaneous interval reaches 1
    (no gap) and nothing is ranked."""
    y = _planted_blocks([0.25] * 4, blocks=200, seed=3)
    pairs, _ = pairwise_differences(y)
    assert balance_from_pairs(pairs)[2] == 1.0
    assert ranking_text(y.mean(axis=(0, 1)), pairs, list("ABCD")) == "No two teams are told apart."


@pytest.mark.parametrize("rates,status,word", [
    ([0.25] * 4, "fair", "Fair: no team's chance is outside 20–30 %"),
    ([0.55, 0.15, 0.15, 0.15], "unfair", "Unfair: Team 1 wins"),
])
def test_conclusion_is_one_sentence_and_exit_codes(rates, status, word):
    """Issue #21 item 4: "Fair: no team's chance is outside 20–30 % (99 % simultaneous intervals,
    2,048 games)"; exit codes for scripts: 0 fair, 1 unfair, 3 inconclusive."""
    y = _planted_blocks(rates, blocks=3000, seed=5)
    v = fairness_verdict(y, tolerance=0.05, clusters=np.arange(3000) % 300)
    assert v.status == status
    text = conclusion(v, 0.05)
    assert text.startswith(word) and text.count(". ") == 0 and text.endswith(").")
    assert "95 % simultaneous intervals, 12,000 games on 300 boards" in text
    assert EXIT_CODES == {"fair": 0, "unfair": 1, "open": 3}


def test_inconclusive_conclusion_says_what_settles_it():
    y = _planted_blocks([0.29, 0.25, 0.23, 0.23], blocks=40, seed=2)
    v = fairness_verdict(y, tolerance=0.05)
    assert v.status == "open"
    assert conclusion(v, 0.05).startswith("Inconclusive:") and "more games" in conclusion(v, 0.05)
