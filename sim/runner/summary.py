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


def summarise(store: RunStore, card_names=None) -> dict:
    """Games, each experiment team's win rate, outcome counts, mean rotations, and per-card totals
    — in one pass over the stored batches, keeping only running totals."""
    games = 0
    wins = np.zeros(4, np.int64)
    outcomes: Counter = Counter()
    rotations = 0
    cards = np.zeros((0, len(CARD_STATS)), np.int64)
    apocalypses: dict[int, dict] = {}
    per_game: dict[str, list] = {k: [] for k in BALANCE_COLUMNS}
    for _, table in store.batches():
        _keep_balance(per_game, table)
        _count_apocalypses(apocalypses, table)
        cards = _add(cards, card_totals(table))
        winner = table.column("winner_team").to_numpy()
        games += len(winner)
        wins += np.bincount(winner[winner >= 0], minlength=4)
        outcomes.update(table.column("outcome").to_pylist())
        rotations += int(table.column("rotations").to_numpy().sum())
    store.write_cards(cards, CARD_STATS, card_names)
    return {"games": games, "balance": _balance(per_game),
            "team_win_rate": [float(w) / games if games else 0.0 for w in wins],
            "outcomes": dict(sorted(outcomes.items())),
            "mean_rotations": rotations / games if games else 0.0,
            "apocalypses": {str(a): apocalypses[a] for a in sorted(apocalypses)}}


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
