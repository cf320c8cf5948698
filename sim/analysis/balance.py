"""The balance metrics designers already know, computed from per-game results, with intervals.

Why these: a designer coming from general game playing or engine testing reads balance through a
handful of standard measures, so the lab reports them under their usual names instead of asking
for new ones to be learned. From Ludii's metrics (Browne, Stephenson et al., "Ludii: the ludemic
general game system", ECAI 2020; the metrics of the Ludii Portfolio):

- **Balance**: 1 - the largest gap between two teams' win rates (1 = every team wins as often);
- **AdvantageP1** / seat advantage: the win rate of the team that moves first, and the spread of
  the seats' win rates (turn order's own effect);
- **Drawishness** / **Decisiveness**: the share of games with no winner, and how games are
  decided: last team standing, same-step elimination decided by health (the book's tie-break),
  stalemate, the rotation cap;
- **Duration**: game length in rotations (median and spread);
- **LeadChange**: how often the leader (the team with the most health of living characters at
  a rotation's end; a tie leads no one) changes during a game: the engine counts it per game
  (``lead_changes``; runs stored before it existed report it as not measured);

and Fishtest's W/L/D counts (each team's wins, losses and games with no winner), plus the order in
which teams are eliminated.

Every share is a proportion of games; games that share a board are correlated (the runners reuse
boards, ``docs/intervals.md``), so given each game's board the intervals are Korn & Graubard's
(1998): Clopper-Pearson on the effective number of games, on the boards' degrees of freedom
(:func:`cluster.clustered_share_interval`); Wilson for independent games. Pure
NumPy; the kinds of ending are the engine's outcome labels (``sim.engine.state.fields.REASON_NAMES``),
repeated here so that the statistics layer imports nothing above it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .cluster import (MIN_CLUSTERS, SE_ROUNDING, cluster_ids, clustered_share_interval,
                      design_effect, korn_graubard_interval)
from .variance import average_design_se, duplicate_difference, duplicate_win_rates

# the engine's outcome labels (sim.engine.state.fields.REASON_NAMES), in the order they are reported
LAST_STANDING = "last team standing"
SIMULTANEOUS = "simultaneous elimination"
STALEMATE = "stalemate"
CAP = "rotation cap"
KINDS = (LAST_STANDING, SIMULTANEOUS, STALEMATE, CAP)
KIND_WORDS = {LAST_STANDING: "last team standing",
              SIMULTANEOUS: "same-step elimination decided by health",
              STALEMATE: "stalemate (most health wins)", CAP: "rotation cap (most health wins)"}
LEAD_CHANGES_NEEDS = ("per game, the number of times the leading team (most total health of living "
                      "characters, ties: no leader) changes between the ends of two rotations")


@dataclass(frozen=True)
class Share:
    """A share of games with its interval (Korn & Graubard's when clustered, else Wilson)."""

    k: int
    n: int
    rate: float
    low: float
    high: float

    def as_dict(self) -> dict:
        return {"games": self.k, "of": self.n, "share": self.rate, "low": self.low,
                "high": self.high}

    def text(self) -> str:
        return f"{100 * self.rate:.1f} % ({100 * self.low:.1f}–{100 * self.high:.1f})"


def share(indicator, clusters=None, confidence: float = 0.95) -> Share:
    """The share of games where ``indicator`` holds, with an interval that accounts for the
    games' boards (``cluster.clustered_share_interval``: Korn & Graubard)."""
    y = np.asarray(indicator, dtype=float).ravel()
    n = y.size
    if n == 0:
        return Share(0, 0, float("nan"), float("nan"), float("nan"))
    lo, hi = clustered_share_interval(y, clusters, confidence)
    return Share(int(y.sum()), n, float(y.mean()), float(lo), float(hi))


def seat_shares(winner_seat, clusters=None, n_seats: int = 4, confidence: float = 0.95
                ) -> list[Share]:
    """Each seat's share of games won, with Korn & Graubard's interval on the seats' average
    design effect or the seat's own, whichever is larger (at least 1), and (seats - 1)(G - 1)
    degrees of freedom, as :meth:`variance.SeatTeamEffects.seat_interval` takes the seat rates:
    the seats share the boards, and one seat's own design effect from few boards is low exactly
    when its share is, so its own interval missed low (docs/intervals.md, "The seats' average
    design effect"); but a seat the boards swing more than the others has the larger design
    effect, and the average alone covered it 83-88 % (the calibration audit of stop 80)."""
    w = np.asarray(winner_seat).ravel()
    indicators = [(w == s).astype(float) for s in range(n_seats)]
    _, g = cluster_ids(clusters, w.size)
    deffs = np.array([design_effect(y, clusters) for y in indicators]) if (
        clusters is not None and g >= MIN_CLUSTERS) else np.array([np.nan])
    if not np.isfinite(deffs).any():  # independent games, one board, or no seat won and lost
        return [share(y, clusters, confidence) for y in indicators]
    n = w.size
    rate = np.array([y.mean() for y in indicators])
    binomial = rate * (1 - rate) / n
    own = np.sqrt(np.where(np.isfinite(deffs), deffs, 0.0) * binomial)
    # the average as the seat rates take it, at least 1 as every balance share's design effect
    se = np.fmax(np.fmax(average_design_se(rate, own, n), own), np.sqrt(binomial))
    lo, hi = korn_graubard_interval(rate, se, n, (n_seats - 1) * (g - 1), confidence)
    return [Share(int(y.sum()), n, float(p), float(a), float(b))
            for y, p, a, b in zip(indicators, rate, lo, hi)]


# -- pairwise differences of duplicate play ---------------------------------------------------------

@dataclass(frozen=True)
class PairDifference:
    """Team ``a``'s win rate minus team ``b``'s, with a simultaneous interval (all pairs)."""

    a: int
    b: int
    difference: float
    low: float
    high: float

    @property
    def apart(self) -> bool:
        """Told apart: the simultaneous interval excludes no difference."""
        return self.low > 0 or self.high < 0


def pairwise_differences(outcomes, *, clusters=None, alpha: float = 0.05, looks: int = 1
                         ) -> tuple[list[PairDifference], float]:
    """Every pair of teams' difference in duplicate play, each interval at ``1 - alpha / (pairs
    * looks)`` so that all hold together with ``1 - alpha`` confidence (Bonferroni over the pairs
    and over the sequential looks the verdict took). ``clusters``: each block's board, as every
    fairness interval (the paired difference is summed within board, ``duplicate_difference``).
    Returns the pairs and the per-interval level."""
    y = np.asarray(outcomes, dtype=float)
    n_teams = y.shape[2]
    pairs = [(a, b) for a in range(n_teams) for b in range(a + 1, n_teams)]
    level = 1.0 - alpha / (len(pairs) * max(1, looks))
    out = []
    for a, b in pairs:
        d, se, lo, hi, _ = duplicate_difference(y, a, b, confidence=level, clusters=clusters)
        if not se > SE_ROUNDING:
            lo, hi = _difference_of_team_intervals(y, a, b, level, clusters)
        # a difference of two win rates lies in [-1, 1]: t on 1 df once printed -2877 points
        out.append(PairDifference(a, b, d, max(lo, -1.0), min(hi, 1.0)))
    return out, level


def _difference_of_team_intervals(y, a: int, b: int, level: float, clusters):
    """A pair whose blocks all differed alike (common in a few games) has standard error 0, and
    its t interval no width: a difference of +0.25 in every block was "told apart" at once (in
    118 of 1,000 planted studies of equal teams on 2-8 boards, against alpha = 5 %). There the
    interval is the two teams' own Korn-Graubard intervals at 1 - (1 - level) / 2 each, combined
    (lower a - upper b, upper a - lower b): it holds with ``level`` by Bonferroni."""
    half = 1.0 - (1.0 - level) / 2
    lo, hi = team_rate_intervals(y, half, clusters)
    return float(lo[a] - hi[b]), float(hi[a] - lo[b])


def team_rate_intervals(outcomes, level: float, clusters=None):
    """Each team's Korn-Graubard interval on its duplicate games (lower, upper arrays): the
    interval that still has width when every block came out the same (se 0)."""
    est = duplicate_win_rates(outcomes, confidence=level, clusters=clusters)
    return est.lower, est.upper


def change_of_rates_interval(before, after, level: float, clusters=None):
    """Each team's change of win rate between two sets of duplicate games (``after`` -
    ``before``), as an interval that holds with ``level`` without using their pairing: the
    teams' own Korn-Graubard intervals at 1 - (1 - level) / 2 each, combined (lower after -
    upper before, upper after - lower before; Bonferroni), clipped to [-1, 1].

    Why: the paired, board-clustered change is the sharp estimate, but when every board's
    change came out alike (a few boards) its standard error is 0 and its t interval has no
    width, so a change seen on 4 boards read as certain. This is the fallback for such a team.
    """
    half = 1.0 - (1.0 - level) / 2
    lo0, hi0 = team_rate_intervals(before, half, clusters)
    lo1, hi1 = team_rate_intervals(after, half, clusters)
    return np.maximum(lo1 - hi0, -1.0), np.minimum(hi1 - lo0, 1.0)


def ranking_text(rates, pairs: list[PairDifference], names) -> str:
    """The teams ranked only where the simultaneous intervals tell them apart: "Team 2 is ahead
    of Team 1 and Team 4; no other pair is told apart". Why: ordering four point estimates
    invites reading noise as a ranking."""
    ahead: dict[int, list[int]] = {}
    for p in pairs:
        if p.apart:
            hi, lo = (p.a, p.b) if p.difference > 0 else (p.b, p.a)
            ahead.setdefault(hi, []).append(lo)
    if not ahead:
        return "No two teams are told apart."
    parts = []
    for t in sorted(ahead, key=lambda t: -rates[t]):
        behind = sorted(ahead[t], key=lambda u: -rates[u])
        parts.append(f"{names[t]} is ahead of " + _and([names[u] for u in behind]))
    told = sum(p.apart for p in pairs)
    rest = "" if told == len(pairs) else "; no other pair is told apart"
    return "; ".join(parts) + rest + "."


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def balance_from_pairs(pairs: list[PairDifference]) -> tuple[float, float, float]:
    """Ludii's Balance, 1 - the largest gap between two teams' win rates, with an interval that
    holds with the pairs' simultaneous confidence: every |difference| lies in its interval's
    absolute range, so the largest gap lies between the largest lower and largest upper ends."""
    gap = max(abs(p.difference) for p in pairs)
    low_abs = [0.0 if p.low <= 0 <= p.high else min(abs(p.low), abs(p.high)) for p in pairs]
    high_abs = [max(abs(p.low), abs(p.high)) for p in pairs]
    return 1.0 - gap, max(0.0, 1.0 - max(high_abs)), 1.0 - max(low_abs)


# -- per-game metrics -------------------------------------------------------------------------------

def elimination_places(eliminated, winner) -> np.ndarray:
    """``[n, teams]`` place of each team (1 = winner; the later a team falls, the better; teams
    falling after the same decision share a place; teams never eliminated share the best place
    after the winner). ``eliminated[i, t]``: the decision after which team t fell (-1: never)."""
    e = np.asarray(eliminated, dtype=float)
    never = (np.nanmax(e) if e.size else 0.0) + 1.0
    key = np.where(e < 0, never, e)
    w = np.asarray(winner)
    rows = np.flatnonzero(w >= 0)
    key[rows, w[rows]] = never + 1.0                              # the winner outlasts everyone
    places = 1.0 + (key[:, None, :] > key[:, :, None]).sum(axis=2)  # 1 + teams that outlasted t
    return places


@dataclass(frozen=True)
class GameBalance:
    """How a set of games went: the metrics of the module doc."""

    games: int
    outcomes: dict                  # kind -> Share
    decisive: Share                 # a team won
    drawn: Share                    # no winner (Drawishness)
    length: dict                    # rotations: median, quartiles, 10th/90th, mean, max
    wld: list                       # per team: wins, losses, no-winner games (Fishtest W/L/D)
    team_share: list                # per team: Share of games won
    seat_share: list | None = None  # per seat: Share of games won (AdvantageP1 = seat 1)
    first_out: list | None = None   # per team: Share of games it fell first
    mean_place: list | None = None  # per team: mean place (1 = winner .. 4)
    lead: dict | None = None        # lead changes per game: mean, median, Share with any
    extra: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        d = {"games": self.games,
             "outcomes": {k: s.as_dict() for k, s in self.outcomes.items()},
             "decisiveness": self.decisive.as_dict(), "drawishness": self.drawn.as_dict(),
             "duration_rotations": self.length, "wld": self.wld,
             "balance_by_share": 1.0 - _gap([s.rate for s in self.team_share]),
             "lead_changes": self.lead}
        if self.lead is None:
            d["lead_changes_needs"] = LEAD_CHANGES_NEEDS
        if self.seat_share is not None:
            rates = [s.rate for s in self.seat_share]
            d["seats"] = [s.as_dict() for s in self.seat_share]
            d["advantage_p1"] = rates[0]
            d["seat_spread"] = _gap(rates)
        if self.first_out is not None:
            d["elimination"] = [{"first_out": f.as_dict(), "mean_place": m}
                                for f, m in zip(self.first_out, self.mean_place)]
        return {**d, **self.extra}


def _gap(rates) -> float:
    return float(np.max(rates) - np.min(rates)) if len(rates) else float("nan")


def length_summary(rotations) -> dict:
    """Game length in rotations: median, quartiles, 10th and 90th percentiles, mean, max."""
    r = np.asarray(rotations, dtype=float)
    if r.size == 0:
        return {}
    q = np.percentile(r, [10, 25, 50, 75, 90])
    return {"median": float(q[2]), "q1": float(q[1]), "q3": float(q[3]), "p10": float(q[0]),
            "p90": float(q[4]), "mean": float(r.mean()), "max": float(r.max())}


def game_balance(winner_team, outcome, rotations, *, clusters=None, winner_seat=None,
                 eliminated=None, lead_changes=None, n_teams: int = 4,
                 confidence: float = 0.95) -> GameBalance:
    """The metrics of ``n`` games: ``winner_team`` (-1: nobody), ``outcome`` (engine labels),
    ``rotations``; optional each game's board (``clusters``), winning seat, and per team the
    decision after which it fell (``eliminated [n, teams]``, -1 never)."""
    w = np.asarray(winner_team)
    kinds = np.asarray(outcome).astype(str)
    n = w.size

    def sh(ind):
        return share(ind, clusters, confidence)

    outcomes = {k: sh(kinds == k) for k in KINDS}
    for k in sorted(set(kinds.tolist()) - set(KINDS)):   # a kind the engine adds later
        outcomes[k] = sh(kinds == k)
    none = w < 0
    wld = [{"team": t + 1, "wins": int((w == t).sum()), "losses": int(((w >= 0) & (w != t)).sum()),
            "no_winner": int(none.sum())} for t in range(n_teams)]
    seats = None if winner_seat is None else \
        seat_shares(winner_seat, clusters, n_teams, confidence)
    first = places = None
    if eliminated is not None:
        e = np.asarray(eliminated, dtype=float)
        fell = np.where(e >= 0, e, np.inf)
        lowest = fell.min(axis=1, keepdims=True)
        first = [sh(np.isfinite(lowest[:, 0]) & (fell[:, t] == lowest[:, 0]))
                 for t in range(n_teams)]
        places = elimination_places(e, w).mean(axis=0).tolist() if n else [float("nan")] * n_teams
    lead = None
    if lead_changes is not None and n:
        x = np.asarray(lead_changes)
        lead = {"mean": float(x.mean()), "median": float(np.median(x)),
                "any": sh(x > 0).as_dict()}
    return GameBalance(n, outcomes, sh(~none), sh(none), length_summary(rotations), wld,
                       [sh(w == t) for t in range(n_teams)], seats, first, places, lead)


def balance_lines(gb: GameBalance, names=None, seat_rates=None) -> list[str]:
    """The metrics in words, one line each (fairness, run, rarity print them)."""
    lines = ["how games are decided: " + "; ".join(
        f"{KIND_WORDS.get(k, k)} {s.text()}" for k, s in gb.outcomes.items())
        + f" ({gb.games:,} games)"]
    ln = gb.length
    if ln:
        lines.append(f"game length: median {ln['median']:g} rotations (middle half "
                     f"{ln['q1']:g}–{ln['q3']:g}, 90 % under {ln['p90']:g}, longest "
                     f"{ln['max']:g}); no winner (drawishness) {gb.drawn.text()}")
    if gb.seat_share is not None and seat_rates is None:
        lines.append("seat advantage (share of games won from each seat, unadjusted): "
                     + ", ".join(f"seat {s + 1} {x.text()}" for s, x in enumerate(gb.seat_share)))
    if gb.first_out is not None:
        names = names or [f"team {t + 1}" for t in range(len(gb.first_out))]
        lines.append("order of elimination (share of games out first; mean place, 1 = winner): "
                     + "; ".join(f"{names[t]} {100 * f.rate:.0f} %, {m:.2f}"
                                 for t, (f, m) in enumerate(zip(gb.first_out, gb.mean_place))))
    if gb.lead is None:
        lines.append("lead changes: not measured (results stored before the engine counted them)")
    else:
        a = gb.lead["any"]
        # the interval as every other share's, "(lo–hi)": it read "in 82 % [77, 87] of games"
        lines.append(f"lead changes (the team with most health, at rotation ends): mean "
                     f"{gb.lead['mean']:.2f} per game, median {gb.lead['median']:g}; the lead "
                     f"changed at least once in {100 * a['share']:.1f} % ({100 * a['low']:.1f}–"
                     f"{100 * a['high']:.1f}) of games")
    return lines


__all__ = ["CAP", "GameBalance", "KINDS", "LAST_STANDING", "LEAD_CHANGES_NEEDS", "PairDifference",
           "SIMULTANEOUS", "STALEMATE", "Share", "balance_from_pairs", "balance_lines",
           "change_of_rates_interval", "elimination_places", "game_balance", "length_summary",
           "pairwise_differences", "ranking_text", "share", "team_rate_intervals"]
