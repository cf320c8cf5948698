"""The client's check of a worker's result before it is stored (issue #26 item 2).

Why: on the Dask backend a batch is played on another machine and comes back through the
scheduler. The store stamps every batch it writes with this run's digest (sim.runner.store), so
a result must not be taken on trust: a worker with other cards or another bwlab, a stale worker
process, or one that misbehaves must not slip foreign rows into a run. Before a batch is stored
the client checks that

- it was played from the same inputs: the worker's own run digest (package version, every card
  file, the experiment and its teams, seed, sizes, policies, as the worker loaded them) equals
  this run's;
- it is a batch this run asked for and has not received yet;
- its columns are exactly the lab's batch schema (names, order, Arrow types) with one row per
  game of the batch;
- everything the experiment alone decides (game numbers, root seed, board, team draw, seats,
  cards and players in each seat) equals the schedule the client computes itself, and outcomes
  and winners are values a game can end with.

A refused result ends the run with one line naming the batch, the worker (as it names itself)
and the reason, exit 2; nothing of it is written, and the batches already stored are this run's,
so ``--resume`` finishes once the worker is fixed. What the check cannot know is whether the
played-out numbers (health, deaths, winners) are the ones the engine would give: that needs
replaying, so the machines of a cluster are trusted to run the lab's code (docs/security.md).
"""

from __future__ import annotations

import math

import numpy as np

from sim.catalogue.diagnostics import InputError, Problem

from .experiment import Experiment
from .schedule import schedule

# the columns the schedule fixes: (column, Schedule attribute, seat or None)
_SCHEDULED = [("game", "games", None), ("board", "board", None), ("draw", "draw", None),
              ("seat_offset", "offset", None)] + \
             [(f"team_in_seat{s + 1}", "team_of_seat", s) for s in range(4)]


def check_result(result, exp: Experiment, digest: str, wanted: set[int],
                 worker: str | None = None):
    """``(b, columns, seconds)`` of a sound result for batch ``b`` in ``wanted`` (which it
    leaves to the caller to update); an InputError (one line) for anything else. ``worker``:
    the worker's address as the scheduler knows it, named beside the host the result gives."""
    if not (isinstance(result, tuple) and len(result) == 5):
        raise _refused("a result", worker or "?", "is not a batch result (b, columns, seconds, "
                       "digest, host): the worker runs another bwlab")
    b, columns, seconds, their_digest, host = result
    label, host = f"batch {b!r}", str(host)[:80]
    host = f"{worker} ({host})" if worker else host
    if their_digest != digest:
        raise _refused(label, host, f"was played from other inputs (run digest "
                       f"{str(their_digest)[:12]}, this run's {digest[:12]}): the worker's cards/,"
                       " experiment or bwlab version differ from this machine's")
    if not isinstance(b, int) or b not in wanted:
        raise _refused(label, host, "was not asked for by this run (or arrived twice)")
    if not (isinstance(seconds, float) and math.isfinite(seconds) and seconds >= 0):
        raise _refused(label, host, f"carries an impossible duration {seconds!r}")
    why = _schema_problem(columns, exp, b) or _content_problem(columns, exp, b)
    if why:
        raise _refused(label, host, why)
    return b, columns, seconds


def _refused(label: str, host: str, why: str) -> InputError:
    return InputError([Problem(f"{label} from worker {host}", None, "result",
                               f"{why}; refused, nothing of it stored (--resume finishes the "
                               "run once every worker has this checkout and cards/)")])


def _schema_problem(columns, exp: Experiment, b: int) -> str | None:
    """Why ``columns`` is not a batch of the lab's schema with ``b``'s number of rows."""
    import pyarrow as pa

    from .tasks import batch_schema

    expected = batch_schema()
    if not isinstance(columns, dict):
        return f"holds a {type(columns).__name__}, not columns"
    names = list(columns)
    missing = [n for n in expected.names if n not in columns]
    extra = [n for n in names if n not in expected.names]
    if missing or extra:
        return (f"has the wrong columns (missing: {', '.join(missing[:3]) or 'none'}; "
                f"unexpected: {', '.join(map(str, extra[:3])) or 'none'})")
    if names != expected.names:
        return "has its columns in another order than the lab's schema"
    for field in expected:
        try:
            array = pa.array(columns[field.name])
        except (pa.ArrowException, TypeError, ValueError):
            return f"column {field.name} is not an array"
        if array.type != field.type:
            return f"column {field.name} is {array.type}, the schema says {field.type}"
    start, stop = exp.batch_range(b)
    rows = {len(columns[n]) for n in names}
    if rows != {stop - start}:
        return f"has {sorted(rows)} rows, batch {b} has {stop - start} games"
    return None


def _content_problem(columns, exp: Experiment, b: int) -> str | None:
    """Why the rows are not batch ``b``'s games: the columns the experiment fixes differ from
    the client's own schedule, or a result no game can have."""
    from sim.engine.state.fields import REASON_NAMES

    sch = schedule(exp, *exp.batch_range(b))
    for column, attr, seat in _SCHEDULED:
        want = getattr(sch, attr) if seat is None else getattr(sch, attr)[:, seat]
        if not np.array_equal(np.asarray(columns[column]), want):
            return f"column {column} is not this batch's schedule (foreign rows)"
    if not np.all(np.asarray(columns["root_seed"]) == exp.root_seed):
        return "column root_seed is not this run's seed (foreign rows)"
    for s in range(4):
        players = np.array([exp.policies[k] for k in sch.team_of_seat[:, s]])
        if not np.array_equal(np.asarray(columns[f"policy_seat{s + 1}"]), players):
            return f"column policy_seat{s + 1} is not this run's players"
        for k in range(5):
            if not np.array_equal(np.asarray(columns[f"seat{s + 1}_card{k + 1}"]),
                                  sch.team_cards[:, s, k]):
                return f"column seat{s + 1}_card{k + 1} is not this batch's teams (foreign rows)"
    if not set(np.asarray(columns["outcome"]).tolist()) <= set(REASON_NAMES.values()):
        return "column outcome holds a value no game ends with"
    seat = np.asarray(columns["winner_seat"])
    if np.any((seat < -1) | (seat > 3)):
        return "column winner_seat holds a seat that does not exist"
    team = np.where(seat >= 0, sch.team_of_seat[np.arange(seat.size), np.maximum(seat, 0)], -1)
    if not np.array_equal(np.asarray(columns["winner_team"]), team):
        return "column winner_team does not match winner_seat and the seating"
    return None
