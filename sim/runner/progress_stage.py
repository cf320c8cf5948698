"""One stage of a command's progress line (:mod:`sim.runner.progress`): its name, its count
and the rate it is drawn with.

Why its own module: the rate's rules (a window of the latest advances, a floor on the span they
are timed over) are the part of the line with the most history behind them, and they need
nothing of the drawing, the threads or the session around them.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

__all__ = ["MIN_SPAN", "Stage", "WINDOW"]

WINDOW = 30.0     # the rate is measured over this many seconds of the latest advances
MIN_SPAN = 1.0    # ... timed over at least this long (lumps of games a moment apart)


@dataclass(eq=False)  # stages are told apart by identity: two may hold equal fields
class Stage:
    name: str
    total: int | None
    unit: str
    at_most: bool       # the total is a cap (an early stop may end the stage before it)
    started: float
    done: int = 0
    skipped: int = 0    # units found done (in the journal): counted, never timed
    resumed: int = 0    # of them, left by an interrupted run (the rest: this command's own)
    timed: bool = True  # False: no rate and no time left (parts of very unequal length)
    shown: bool = field(default=False, repr=False)
    # seconds spent in stages of another unit inside this one (building the boards inside a
    # stage of games), by their names: not this stage's own work (:meth:`Progress.summary`)
    aside: dict = field(default_factory=dict, repr=False)
    # (time, done) at each advance, the oldest at or just before the window's start
    history: deque = field(default_factory=deque, repr=False)

    def note(self, now: float) -> None:
        self.history.append((now, self.done))
        while len(self.history) > 2 and self.history[1][0] <= now - WINDOW:
            self.history.popleft()

    def rate(self, now: float) -> float:
        """Units per second over the last :data:`WINDOW` seconds of advances, timed from the
        first advance in the window and never over less than :data:`MIN_SPAN`. Before a
        second advance: NaN ("estimating the time left"), unless the stage has run
        :data:`WINDOW` seconds (then the average since it began).

        Why not since the stage began: the engine's load before the first games counts there.
        ``fairness`` on the example teams drew "28 of at most 20,000 games, 29.4 games/s, at
        most 11 min 19 s left" one second in, from one chunk of games that ended as the engine
        finished loading; it played about 1,500 games/s (the audit of stop 59). And a stage
        whose steps differ in speed (greedy's games, then the look-ahead's) would be estimated
        at the average of both. Why the floor: games arrive in lumps (a batch of 16 from each of
        two workers), and two lumps a few milliseconds apart read "3,324 games/s" for a run that
        played 37 games/s (``bwlab run experiments/smoke.toml --jobs 2``, the audit of
        2026-12-05)."""
        if len(self.history) >= 2:
            then, done = self.history[0]
            return (self.done - done) / max(now - then, MIN_SPAN)
        spent = now - self.started
        played = self.done - self.skipped
        if spent < WINDOW or not played:
            return float("nan")
        return played / spent
