"""Card swaps that make a game fairer: searched with a fast surrogate, confirmed by simulation.

Surrogate: card ratings in play (team-composition Plackett-Luce, :mod:`sim.runner.rarity`) fitted
on games whose teams are drawn from every card; a team's chance to win is then the model's
top-1 probability, softmax of the summed ratings. Greedy search: at each step the single swap of
two cards between two teams that most reduces the squared distances from 25 %, up to K swaps. The
suggestion is only a hypothesis until :func:`check_fairness` has played it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .rarity import play_pool, study


def card_ratings(catalogue, experiment, games: int) -> np.ndarray:
    exp = replace(experiment, games=games, batch_size=min(experiment.batch_size, games))
    seat_cards, winner = play_pool(catalogue, exp, label="card ratings for the search")
    rar = np.asarray(catalogue.cards.rarity, np.int64)
    return study(seat_cards, winner, rar, len(catalogue.rules.rarities)).rating


def predicted(teams: np.ndarray, rating: np.ndarray) -> np.ndarray:
    u = rating[teams].sum(axis=1)
    e = np.exp(u - u.max())
    return e / e.sum()


def gap(teams: np.ndarray, rating: np.ndarray) -> float:
    """The largest predicted distance of a team's chance to win from 25 %."""
    return float(np.max(np.abs(predicted(teams, rating) - 0.25)))


def _imbalance(teams: np.ndarray, rating: np.ndarray) -> float:
    """Sum of squared distances from 25 %: the search objective (smooth, unlike the largest gap,
    so every team's distance counts and single swaps keep making progress)."""
    return float(np.sum((predicted(teams, rating) - 0.25) ** 2))


@dataclass(frozen=True)
class Swap:
    team_a: int
    card_a: int
    team_b: int
    card_b: int
    gap_after: float


def suggest_swaps(teams: np.ndarray, rating: np.ndarray, k: int) -> tuple[np.ndarray, list[Swap]]:
    """Up to ``k`` greedy swaps, each the best single swap; stops when none helps."""
    teams = teams.copy()
    swaps: list[Swap] = []
    for _ in range(k):
        best, best_obj = None, _imbalance(teams, rating)
        for a in range(4):
            for b in range(a + 1, 4):
                for i in range(teams.shape[1]):
                    for j in range(teams.shape[1]):
                        teams[a, i], teams[b, j] = teams[b, j], teams[a, i]
                        obj = _imbalance(teams, rating)
                        teams[a, i], teams[b, j] = teams[b, j], teams[a, i]
                        if obj < best_obj - 1e-12:
                            best, best_obj = (a, i, b, j), obj
        if best is None:
            break
        a, i, b, j = best
        card_a, card_b = int(teams[a, i]), int(teams[b, j])
        teams[a, i], teams[b, j] = teams[b, j], teams[a, i]
        swaps.append(Swap(a, card_a, b, card_b, gap(teams, rating)))
    return teams, swaps


def _key(teams: np.ndarray) -> tuple:
    """A team set as a hashable value (each team's cards as a set: order within a team is
    irrelevant, which team holds them is not)."""
    return tuple(tuple(sorted(row)) for row in teams.tolist())


def _single_swaps(teams: np.ndarray):
    """Every swap of one card between two teams: (a, i, b, j)."""
    n = teams.shape[1]
    for a in range(teams.shape[0]):
        for b in range(a + 1, teams.shape[0]):
            for i in range(n):
                for j in range(n):
                    yield a, i, b, j


def swap_proposals(teams: np.ndarray, rating: np.ndarray, k: int, beam: int = 6
                   ) -> list[tuple[list[Swap], np.ndarray]]:
    """Team sets within ``k`` swaps of ``teams``, best predicted first: a beam search keeping the
    ``beam`` best sets after each number of swaps (by the surrogate's squared distances from
    25 %), so that when the surrogate's favourite fails in play the next-best ones are ready.
    Each comes with its swaps (``gap_after`` the predicted largest gap from 25 %); the teams as given and
    repeats are left out; among equally good sets the one with fewer swaps comes first."""
    start = np.asarray(teams).copy()
    seen = {_key(start)}
    frontier = [([], start)]
    found: list[tuple[float, int, list[Swap], np.ndarray]] = []
    for _ in range(k):
        grown = []
        for swaps, cur in frontier:
            for a, i, b, j in _single_swaps(cur):
                new = cur.copy()
                new[a, i], new[b, j] = cur[b, j], cur[a, i]
                key = _key(new)
                if key in seen:
                    continue
                seen.add(key)
                sw = swaps + [Swap(a, int(cur[a, i]), b, int(cur[b, j]), gap(new, rating))]
                grown.append((_imbalance(new, rating), len(sw), sw, new))
        grown.sort(key=lambda t: t[:2])
        frontier = [(sw, new) for _, _, sw, new in grown[:beam]]
        found.extend(grown[:beam])
    # the swaps a GM makes: the net moves from the teams as given, not the search's path (a
    # path may send a card out and back: 5 swaps printed for a set 4 reach, the last naming a
    # team the card was not in; the GM audit of stop 81)
    net = [(imbalance, net_swaps(start, new, rating), new) for imbalance, _, _, new in found]
    net.sort(key=lambda t: (round(t[0], 6), len(t[1])))
    return [(sw, new) for _, sw, new in net]


def net_swaps(start: np.ndarray, final: np.ndarray, rating: np.ndarray) -> list[Swap]:
    """Swaps taking the teams ``start`` to ``final`` (each team as a set), in order: each puts
    at least one card in its final team and moves no card that is already there, so no card
    goes out and back. Two cards bound for each other's teams are exchanged first; a cycle over
    three or four teams takes a step more, each swap naming the team a card is in at that step.
    ``gap_after`` is the surrogate's largest gap from 25 % after each swap."""
    cur = np.asarray(start).copy()
    goal = [set(map(int, row)) for row in np.asarray(final)]
    swaps: list[Swap] = []
    while True:
        where = {int(c): t for t in range(cur.shape[0]) for c in cur[t]}
        step = None
        for a in range(cur.shape[0]):
            leaving = [int(y) for y in cur[a] if int(y) not in goal[a]]
            for x in sorted(c for c in goal[a] if where[c] != a):
                b = where[x]
                direct = [y for y in leaving if y in goal[b]]
                if direct:
                    step = (a, direct[0], b, x)
                    break
                step = step or (a, leaving[0], b, x)
            if step is not None and step[1] in goal[step[2]]:
                break
        if step is None:
            return swaps
        a, y, b, x = step
        i, j = list(cur[a]).index(y), list(cur[b]).index(x)
        cur[a, i], cur[b, j] = x, y
        swaps.append(Swap(a, y, b, x, gap(cur, rating)))
