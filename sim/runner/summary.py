"""Streaming summaries of a stored run: read one batch at a time, keep only running totals.

Why streaming: a million-game run must not need a million rows in memory to be summarised. The
balance metrics (:mod:`sim.analysis.balance`: how games are decided, their length, seat
advantage, order of elimination, clustered by board) need a few small numbers per game, kept in
compact types (about 12 bytes a game: 12 MB for a million games), never the whole rows.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from .store import RunStore
from .tasks import by_team


CARD_STATS = ("games", "wins", "dealt", "taken", "kills", "alive")


def _add(total: np.ndarray, part: np.ndarray) -> np.ndarray:
    if part.shape[0] > total.shape[0]:
        total = np.pad(total, ((0, part.shape[0] - total.shape[0]), (0, 0)))
    total[: part.shape[0]] += part
    return total


def card_totals(table) -> np.ndarray:
    """Per card id: games held, games won, health dealt, taken, kills, games survived."""
    winner = table.column("winner_seat").to_numpy()
    cols = []
    for s in range(4):
        for k in range(5):
            card = table.column(f"seat{s + 1}_card{k + 1}").to_numpy()
            pre = f"seat{s + 1}_card{k + 1}_"
            values = [np.ones_like(card), (winner == s).astype(np.int64)] + \
                [table.column(pre + c).to_numpy() for c in ("dealt", "taken", "kills")] + \
                [(table.column(pre + "alive").to_numpy() > 0).astype(np.int64)]
            cols.append((card, np.stack(values, 1)))
    n = max(int(c.max(initial=-1)) for c, _ in cols) + 1
    out = np.zeros((n, len(CARD_STATS)), np.int64)
    for card, values in cols:
        for j in range(values.shape[1]):
            out[:, j] += np.bincount(card, weights=values[:, j], minlength=n).astype(np.int64)
    return out


class RunTotals:
    """The running totals of a run's batches, added one batch at a time in any order.

    Why: ``bwlab run`` hands each batch it stores to :meth:`add` as it arrives, so the summary at
    the end reads back only the batches stored before (a resumed run's): reading a
    1,000,000-game run's 1,000 batches again took about 3 of the 6 seconds its summary took,
    with one core idle. Sums do not depend on the order batches arrive in; what does (the
    per-game columns of the balance metrics, the order an Apocalypse's endings are first met
    in) is kept per batch and put together in batch order, so the summary is the one a pass
    over the stored batches gives (tests/test_run_summary.py)."""

    def __init__(self) -> None:
        self.games = 0
        self.wins = np.zeros(4, np.int64)
        self.outcomes: Counter = Counter()
        self.rotations = 0
        self.cards = np.zeros((0, len(CARD_STATS)), np.int64)
        self.codes: dict[str, int] = {}  # outcome -> a small code, shared by every batch
        self.parts: dict[int, tuple[dict, dict]] = {}  # batch -> (balance columns, Apocalypses)

    def add(self, b: int, table) -> None:
        """Count batch ``b`` (an Arrow table of the lab's batch schema) once."""
        if b in self.parts:
            return
        per_game: dict = {k: [] for k in BALANCE_COLUMNS}
        per_game["_kinds"] = self.codes
        _keep_balance(per_game, table)
        apocalypses: dict = {}
        _count_apocalypses(apocalypses, table)
        self.parts[b] = (per_game, apocalypses)
        self.cards = _add(self.cards, card_totals(table))
        winner = table.column("winner_team").to_numpy()
        self.games += len(winner)
        self.wins += np.bincount(winner[winner >= 0], minlength=4)
        self.outcomes.update(table.column("outcome").to_pylist())
        self.rotations += int(table.column("rotations").to_numpy().sum())

    def summary(self) -> dict:
        """Games, each experiment team's win rate, outcome counts, mean rotations, the balance
        metrics and the Apocalypses, over every batch added."""
        per_game: dict = {k: [] for k in BALANCE_COLUMNS}
        per_game["_kinds"] = self.codes
        apocalypses: dict[int, dict] = {}
        for b in sorted(self.parts):
            columns, apocs = self.parts[b]
            for k, pieces in columns.items():
                if k != "_kinds":
                    per_game.setdefault(k, []).extend(pieces)
            _merge_apocalypses(apocalypses, apocs)
        games = self.games
        return {"games": games, "balance": _balance(per_game),
                "team_win_rate": [float(w) / games if games else 0.0 for w in self.wins],
                "outcomes": dict(sorted(self.outcomes.items())),
                "mean_rotations": self.rotations / games if games else 0.0,
                "apocalypses": {str(a): apocalypses[a] for a in sorted(apocalypses)}}


def summarise(store: RunStore, card_names=None, totals: RunTotals | None = None) -> dict:
    """Games, each experiment team's win rate, outcome counts, mean rotations, and per-card totals
    of every stored batch, keeping only running totals; ``totals``: the batches already counted
    (a run's own, as it stored them), so only the others are read."""
    totals = RunTotals() if totals is None else totals
    for b, table in store.batches(skip=set(totals.parts)):
        totals.add(b, table)
    store.write_cards(totals.cards, CARD_STATS, card_names)
    return totals.summary()


def _merge_apocalypses(into: dict, part: dict) -> None:
    """Add one batch's :func:`_count_apocalypses` to ``into``: keys in the order a pass over the
    batches in order meets them."""
    for a, entry in part.items():
        total = into.setdefault(a, {"games": 0, "resolved": 0, "outcomes": {}})
        total["games"] += entry["games"]
        total["resolved"] += entry["resolved"]
        for outcome, count in entry["outcomes"].items():
            total["outcomes"][outcome] = total["outcomes"].get(outcome, 0) + count


def _count_apocalypses(into: dict, table) -> None:
    """Per Apocalypse (index in the Index): games, games in which it was resolved, and how the
    games ended ("Reported per Apocalypse: how often it is resolved, and how games end")."""
    names = table.column_names
    apoc = table.column("apocalypse").to_numpy()
    resolved = (table.column("apocalypse_resolved").to_numpy() if "apocalypse_resolved" in names
                else np.zeros(len(apoc), bool))
    outcome = table.column("outcome").to_pylist()
    for a in np.unique(apoc):
        entry = into.setdefault(int(a), {"games": 0, "resolved": 0, "outcomes": {}})
        rows = np.flatnonzero(apoc == a)
        entry["games"] += int(rows.size)
        entry["resolved"] += int(resolved[rows].sum())
        for r in rows:
            entry["outcomes"][outcome[r]] = entry["outcomes"].get(outcome[r], 0) + 1


BALANCE_COLUMNS = ("winner_team", "winner_seat", "outcome", "rotations", "board", "eliminated")
_TYPES = {"winner_team": np.int8, "winner_seat": np.int8, "rotations": np.int16,
          "board": np.int32}


def _keep_balance(into: dict, table) -> None:
    """The per-game numbers of the balance metrics, compact (module doc)."""
    for k, dtype in _TYPES.items():
        into[k].append(table.column(k).to_numpy().astype(dtype))
    codes = into.setdefault("_kinds", {})
    into["outcome"].append(np.array([codes.setdefault(k, len(codes))
                                     for k in table.column("outcome").to_pylist()], np.int8))
    names = table.column_names
    into.setdefault("lead_changes", []).append(
        table.column("lead_changes").to_numpy().astype(np.int16) if "lead_changes" in names
        else None)
    if "seat1_eliminated" not in names:       # a run stored before the column existed
        into["eliminated"].append(None)
        return
    cols = {c: table.column(c).to_numpy() for c in names
            if c.startswith("team_in_seat") or c.endswith("_eliminated")}
    into["eliminated"].append(by_team(cols, "eliminated").astype(np.int32))


def _balance(per_game: dict) -> dict:
    """The balance metrics of the stored games as plain data (the manifest's summary)."""
    from sim.analysis.balance import game_balance

    if not per_game["winner_team"]:
        return {}
    cols = {k: np.concatenate(per_game[k]) for k in _TYPES}
    kinds = np.array(sorted(per_game["_kinds"], key=per_game["_kinds"].get))
    cols["outcome"] = kinds[np.concatenate(per_game["outcome"])]
    elim = None if any(e is None for e in per_game["eliminated"]) else \
        np.concatenate(per_game["eliminated"])
    leads = per_game.get("lead_changes") or [None]
    leads = None if any(x is None for x in leads) else np.concatenate(leads)
    gb = game_balance(cols["winner_team"], cols["outcome"], cols["rotations"],
                      clusters=cols["board"], winner_seat=cols["winner_seat"], eliminated=elim,
                      lead_changes=leads)
    return gb.as_dict()
