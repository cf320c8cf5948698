"""The remedy search's logic, apart from the games (:mod:`.remedy` plays them): candidates
checked in the order that finds the smallest landing change with the fewest checks, the landing
confirmed on games of its own, and the final verdict.

Why a module of its own: it is pure (a ``measure`` or ``check`` function stands in for the
replays), so it is tested against brute force and calibrated under planted truth
(tests/test_remedy.py, tests/test_remedy_calibration.py) without playing a game; the module
doc of :mod:`.remedy` describes the method.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

LANDS, OVERSHOOTS, SHORT, NONE = "lands", "overshoots", "short", "no candidate"
UNSETTLED = "unsettled"   # the rating is inside the band, its interval is not (yet)


@dataclass(frozen=True)
class Candidate:
    stat: str            # a characters.csv column
    old: int
    new: int
    power_before: float
    power_after: float

    @property
    def power_delta(self) -> float:
        return self.power_after - self.power_before

    @property
    def change(self) -> str:
        return f"{self.stat} {self.old} → {self.new}"


@dataclass(frozen=True)
class Check:
    """One candidate played: its simulated rating and interval."""

    index: int           # position in the ranked candidate list
    candidate: Candidate
    rating: float
    low: float
    high: float
    win_change: float    # paired change of its team's win rate over the replayed games
    games: int


def _chains(cands: list[Candidate]) -> list[list[int]]:
    """Candidate indices grouped by stat (in the order the stats first appear), each chain in
    ranked order — for one stat that is step order, as the power score is monotone in each stat."""
    chains: dict[str, list[int]] = {}
    for i, c in enumerate(cands):
        chains.setdefault(c.stat, []).append(i)
    return list(chains.values())


def max_checks(cands: list[Candidate]) -> int:
    """Checks :func:`search` needs at most: per stat with ``k`` candidates, one for the largest
    and ``ceil(log2 k)`` to bisect the rest."""
    return sum(1 + (len(chain) - 1).bit_length() for chain in _chains(cands))


def distance(rating: float, low: float, high: float) -> float:
    """How far a rating lies outside the band [low, high] (0 inside)."""
    return max(low - rating, rating - high, 0.0)


def search(cands: list[Candidate], measure: Callable[[int], Check], band_low: float,
           band_high: float, direction: int) -> tuple[str, Check | None, tuple[Check, ...]]:
    """The smallest-ranked candidate whose measured interval lies wholly inside [band_low,
    band_high].

    Premise: for one stat, a bigger change moves the card further (its strength is monotone in
    each stat, as its power score is). Across stats the simulation may disagree with the power
    curve (a point of attack may matter less in play than its power suggests), so each stat is
    searched on its own. A candidate *clears* the band's near edge when its whole interval is at
    or past it (at or below the top for a nerf, at or above the bottom for a buff). Per stat:
    check its largest candidate still ranked below the best landing found so far; if that does
    not clear the edge, no smaller change of that stat will, and one check rules the stat out;
    otherwise bisect for the smallest change that clears it, which lands when its interval also
    stays inside the far edge (else no change of that stat lands: a bigger one moves further
    past). The best landing bounds every later stat, so the result is the smallest landing. A
    stat whose largest change does not clear the edge but whose rating reaches the band (its
    interval too wide to clear it: a small study) is bisected for the smallest change whose
    rating reaches it, which is then shown, unsettled, if nothing lands.

    Why the whole interval and not the rating: a search that stopped at the smallest change
    whose *rating* entered the band found a change that lands only in 41.5 % of planted cards
    that had one (tests/test_remedy_calibration.py); the rest were "unsettled", their interval
    crossing the near edge. A landing found this way is a selection among noisy checks, so it is
    confirmed on games of its own before it is advice (:func:`_remedy`, :func:`verdict`).

    Returns (status, proposal, every check in ranked order); ``measure(i)`` is called at most
    :func:`max_checks` times and never twice for one candidate. Status: LANDS; OVERSHOOTS (some
    change clears the near edge but none stays inside the far one); SHORT (none clears it); NONE
    (no candidates). Without a landing, the proposal is the checked candidate nearest the band.
    """
    probe = _Probe(measure, band_low, band_high, direction)
    best = None
    any_cleared = False
    for chain in _chains(cands):
        chain = [i for i in chain if best is None or i < best]
        if not chain:
            continue
        if probe.clears(chain[-1]):
            any_cleared = True
            first = chain[_first(chain, probe.clears)]
            if _inside(probe.done[first], band_low, band_high):
                best = first
        elif probe.reaches(chain[-1]):
            # no change of this stat clears the edge (its interval is too wide), but its rating
            # reaches the band: find the smallest that does, shown as unsettled if none lands
            _first(chain, probe.reaches)
    return _outcome(cands, probe.done, best, any_cleared, band_low, band_high, direction)


class _Probe:
    """Each candidate measured at most once, and the two edge questions the search asks of it."""

    def __init__(self, measure: Callable[[int], Check], band_low: float, band_high: float,
                 direction: int):
        self.measure, self.direction = measure, direction
        self.band_low, self.band_high = band_low, band_high
        self.done: dict[int, Check] = {}

    def check(self, i: int) -> Check:
        """Candidate ``i`` measured, or its earlier measurement (never measured twice)."""
        if i not in self.done:
            self.done[i] = self.measure(i)
        return self.done[i]

    def clears(self, i: int) -> bool:
        """Whether ``i``'s whole interval is at or past the band's near edge."""
        c = self.check(i)
        return c.high <= self.band_high if self.direction < 0 else c.low >= self.band_low

    def reaches(self, i: int) -> bool:
        """Whether ``i``'s rating is at or past the band's near edge."""
        r = self.check(i).rating
        return r <= self.band_high if self.direction < 0 else r >= self.band_low


def _outcome(cands: list[Candidate], done: dict[int, Check], best: int | None,
             any_cleared: bool, band_low: float, band_high: float, direction: int = 0
             ) -> tuple[str, Check | None, tuple[Check, ...]]:
    """The search's (status, proposal, checks) from what it measured, apart from the walk.

    The nearest check: the least distance from the band, ties (within float noise: two checks
    that changed the same replayed games measure the same rating but for the last bits) to the
    smaller change by the documented ranking. It was the exact float, so "base 3 → 0" (-25 power)
    was shown over "green_tier 2 → 1" (-3.4) that measured the same (the remedy audit of stop 82).
    A change whose rating went past the far edge overshot, though no interval cleared the near
    one: it was called "short ... no allowed change's rating reached the band"."""
    checks = tuple(done[i] for i in sorted(done))
    if not cands:
        return NONE, None, checks
    if best is not None:
        return LANDS, done[best], checks
    least = min(distance(c.rating, band_low, band_high) for c in checks)
    nearest = min((c for c in checks if distance(c.rating, band_low, band_high)
                   <= least + _SAME_RATING), key=lambda c: c.index)
    past = any((c.rating < band_low) if direction < 0 else (c.rating > band_high)
               for c in checks) if direction else False
    return (OVERSHOOTS if any_cleared or past else SHORT), nearest, checks


# ratings this close are one measurement (the same games, summed in another order)
_SAME_RATING = 1e-9


def _first(chain: list[int], holds: Callable[[int], bool]) -> int:
    """Position of the first candidate of ``chain`` for which ``holds`` (true of its last, and
    monotone along it), by bisection."""
    lo, hi = 0, len(chain) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if holds(chain[mid]):
            hi = mid
        else:
            lo = mid + 1
    return lo


def _inside(c: Check, band_low: float, band_high: float) -> bool:
    return band_low <= c.low and c.high <= band_high


def settle(cands: list[Candidate], check: Callable[[int, bool], Check | None], band_low: float,
           band_high: float, direction: int, se0: float, z: float):
    """The search, then its landing confirmed: ``check(i, confirm)`` plays candidate ``i`` on
    the search's games (``confirm`` False) or on games of its own (True; None when the card has
    none left). Returns (status, proposal, search checks, confirmation, replays needed)."""
    status, proposal, checks = search(cands, lambda i: check(i, False), band_low, band_high,
                                      direction)
    confirmation = check(proposal.index, True) if status == LANDS else None
    status, needed = verdict(status, proposal, se0, z, band_low, band_high, confirmation)
    return status, proposal, checks, confirmation, needed


def verdict(status: str, proposal: Check | None, se0: float, z: float, band_low: float,
            band_high: float, confirmation: Check | None = None) -> tuple[str, int | None]:
    """The remedy's final status and, when UNSETTLED, the replayed games per check that would
    settle it (:func:`replays_to_settle`; -1: only a longer study can).

    The search's LANDS is a selection among noisy checks (the smallest change whose interval
    came out inside), so it is advice only once the same change, replayed on the card's next
    games (disjoint from the search's: its own dice), again has its whole interval inside the
    band; else, or without such games, it is UNSETTLED. A search without a landing whose nearest
    check has its rating inside the band (its interval crossing an edge) is UNSETTLED too.
    Calibrated under planted truth (tests/test_remedy_calibration.py): a change whose true
    rating lies outside the band is advised in at most about 5 % of remedies, even where every
    check is a chance to land by noise; where some change truly sits in the middle of the band,
    it is advised in most."""
    if status == LANDS:
        if confirmation is None:
            return UNSETTLED, -1
        if _inside(confirmation, band_low, band_high):
            return LANDS, None
        return UNSETTLED, replays_to_settle(confirmation, se0, z, band_low, band_high)
    if proposal is not None and distance(proposal.rating, band_low, band_high) == 0.0:
        return UNSETTLED, replays_to_settle(proposal, se0, z, band_low, band_high)
    return status, None


def replays_to_settle(check: Check, se0: float, z: float, band_low: float,
                      band_high: float) -> int:
    """Replayed games per check that would put ``check``'s interval inside the band, if its
    rating stayed where it is: the interval's half-width is z * sqrt(se0^2 + s^2), s the paired
    shift's standard error, which shrinks as 1/sqrt(games) while se0 (the study's own rating)
    does not. -1 when se0 alone is too wide for the room the rating has (more study games, not
    more replays, then)."""
    room = min(check.rating - band_low, band_high - check.rating) / z
    shift_se2 = ((check.high - check.low) / (2 * z)) ** 2 - se0 ** 2
    if room <= se0 or check.games <= 0:
        return -1
    if shift_se2 <= 0:
        return check.games
    return int(math.ceil(check.games * shift_se2 / (room ** 2 - se0 ** 2)))


__all__ = ["Candidate", "Check", "distance", "max_checks", "replays_to_settle", "search",
           "settle", "verdict", "LANDS", "NONE", "OVERSHOOTS", "SHORT", "UNSETTLED"]
