"""One progress line on stderr for every long command: its stage, games done of the total, the
rate and the time left (issue #23 item 1).

Why one helper: a designer waiting minutes for ``bwlab rarity`` should see the same line, with
the same words, as a GM waiting for ``bwlab draft``, and a script reading ``--format json`` on
stdout must never find progress there. The CLI opens one :func:`reporting` session per command
(``sim/cli/main.py``; ``--quiet`` makes it silent); the code that plays games opens
:func:`stage`\\ s and calls :func:`advance` without knowing whether anybody is watching (outside
a session both do nothing). Stages nest: the line names every open stage (``draft: confirming
splits > proposal 2``) and counts with the outermost one that has a total, so an orchestrating
step (four replicates, eight proposals) sets the total and the steps inside it only advance it.

Reporting never touches a result: it reads counts and a clock, nothing else. The rate (and so
the time left) is measured over the last 30 s of finished games: the engine's load before the
first games does not count, and a stage whose steps differ in speed is estimated at the pace of
the current one.

When it draws: nothing in a command's first :data:`DELAY` seconds (a quick command stays silent;
counted from the import of the command's module), and only while a stage is open or the command
is still loading before its first one (:meth:`Progress.load`); then on a terminal the line is
redrawn in place every :data:`TTY_EVERY` seconds, and into a log (stderr not a terminal) a new
line every 2 s for the first minute, then every elapsed/30 s (at most 30 s), so an hour's run
writes a few hundred lines, not thousands. A stage that was shown ends with one summary line
(games, seconds, rate), so stdout's results start on a line of their own: its rate is that of
its own work (the time of a stage of another unit inside it, the boards built inside a stage of
games, is named, not counted: :mod:`.progress_text`), and a stopped stage counts what it kept,
those games a resume will not play again (:func:`recount`). A background thread redraws while
the engine is busy, so the line moves at least every ~2 s even when no game has finished.

Opening a stage and advancing one (on the main thread) are also where a Ctrl-C that Python
dropped is raised again (:func:`sim.stops.raise_dropped`): a long command stops at its next step.
"""

from __future__ import annotations

import math
import sys
import threading
import time
from collections import deque
from contextlib import contextmanager

from sim.stops import raise_dropped

from .progress_stage import Stage
from .progress_text import closing, duration, rate_text

DELAY = 2.0       # seconds before anything is drawn
TTY_EVERY = 0.5   # redraw interval on a terminal
LOG_EVERY = 2.0   # shortest interval between two lines in a log
LOG_MAX = 30.0    # longest interval between two lines in a log


class Progress:
    """The line of one command. ``clock`` and ``stream`` are injectable (tests use a fake
    clock); ``tty`` (default: ``stream.isatty()``) picks redraw-in-place or log lines."""

    def __init__(self, command: str, *, quiet: bool = False, stream=None, clock=time.monotonic,
                 tty: bool | None = None, delay: float | None = None,
                 started: float | None = None):
        self.command, self.quiet, self.clock = command, quiet, clock
        self.delay = DELAY if delay is None else delay
        self._stream, self._tty = stream, tty
        self.stages: list[Stage] = []
        # when the command began (default: now): the first DELAY seconds count from there
        self.t0 = clock() if started is None else min(started, clock())
        self.loading: str | None = None   # what goes on before the first stage (:meth:`load`)
        self._loading_shown = False
        self.last_draw: float | None = None
        self.lock = threading.RLock()
        self._dirty_tty = False  # a line is drawn in place and not yet ended

    @property
    def stream(self):
        return self._stream if self._stream is not None else sys.stderr

    @property
    def tty(self) -> bool:
        if self._tty is not None:
            return self._tty
        try:
            return bool(self.stream.isatty())
        except (AttributeError, ValueError):
            return False

    # -- stages -----------------------------------------------------------------------------
    def load(self, name: str) -> None:
        """Name what the command does before its first stage opens (``name``: its libraries,
        its inputs, the engine's kernels), drawn as a stage without a count, and ended by that
        first stage; a command that opens none shows it to its end.

        Why: the heartbeat draws only while a stage is open, and those seconds had none:
        ``report`` imported matplotlib, scipy.stats and pandas for 3-5 s, ``play`` loaded the
        engine for up to 5 s, with nothing on stderr (the audit of 2026-12-07). Ended for good
        by the first stage, it is never drawn after a command's stages end."""
        with self.lock:
            if not self.stages:
                self.loading, self._loading_shown = name, False

    def _loaded(self) -> None:
        """End :meth:`load`'s stage: with a closing line if it was shown (so the next line, or
        stdout, starts on a line of its own), as a stage ends."""
        if self.loading is not None and self._loading_shown:
            self._write(f"{self.command}: {self.loading}: done in "
                        f"{duration(self.clock() - self.t0)}", end=True)
        self.loading = None

    def working(self) -> bool:
        """Whether a stage is open, or the loading before the first one: the heartbeat draws
        only then."""
        return bool(self.stages) or self.loading is not None

    def open(self, name: str, total: int | None = None, unit: str = "games",
             at_most: bool = False, timed: bool = True) -> Stage:
        with self.lock:
            self._loaded()
            now = self.clock()
            st = Stage(name, None if total is None else int(total), unit, at_most, now,
                       timed=timed)
            self._new_pace(st, now)
            self.stages.append(st)
            return st

    def _new_pace(self, step: Stage, now: float) -> None:
        """A step opening inside stages counting its unit: their rate starts again from here,
        so the time left follows this step's pace. Why: ``ladder``'s round robin counts every
        pairing's games, and for 30 s the fast pairings' games set the pace of the slow
        look-ahead's: "72/216 games, about 4 s left" with 171 s to go (progress audit, stop 82)."""
        for outer in self.stages:
            if outer.total is not None and outer.unit == step.unit and outer.history:
                outer.history.clear()
                outer.history.append((now, outer.done))

    def close(self, st: Stage) -> None:
        with self.lock:
            if any(s is st for s in self.stages):
                # a stage that was shown, or that ends when a line is due anyway, is summed up
                if self.counting() is st and (st.shown or self.due()):
                    self.last_draw = self.clock()
                    self._write(self.summary(st), end=True)
                self._set_aside(st)
                self.stages = [s for s in self.stages if s is not st]

    def _set_aside(self, st: Stage) -> None:
        """Note ``st``'s time in each enclosing stage of another unit that it is the outermost
        such stage of (a stage inside ``st`` has already been noted through ``st``)."""
        spent = self.clock() - st.started
        at = next(i for i, s in enumerate(self.stages) if s is st)
        for i in range(at - 1, -1, -1):
            outer = self.stages[i]
            if outer.unit == st.unit:
                break  # it holds st's work, counted in st's unit: not aside
            if all(s.unit == outer.unit for s in self.stages[i + 1:at]):
                outer.aside[st.name] = outer.aside.get(st.name, 0.0) + spent

    def advance(self, n: int = 1) -> None:
        """``n`` more units done in every open stage of the same unit."""
        with self.lock:
            if not self.stages:
                return
            unit, now = self.stages[-1].unit, self.clock()
            for st in self.stages:
                if st.unit == unit:
                    st.done += int(n)
                    st.note(now)
            self.maybe_draw()

    def skip(self, n: int, resumed: int | None = None) -> None:
        """``n`` more units done without their time (found, not played), so the rate and the
        time left stay those of the play. ``resumed``: how many of them an interrupted run left
        (default: all); the rest this command had already played in an identical call (the
        summary tells them apart: only the first are "resumed")."""
        with self.lock:
            if not self.stages or not n:
                return
            unit = self.stages[-1].unit
            for st in self.stages:
                if st.unit == unit:
                    st.done += int(n)
                    st.skipped += int(n)
                    st.resumed += int(n if resumed is None else resumed)
                    st.history = deque((t, d + int(n)) for t, d in st.history)

    def recount(self, done: int, st: Stage | None = None) -> None:
        """Set ``st``'s count (default: the innermost stage's) to ``done``, and move every open
        stage of its unit by as much, as :meth:`advance` moves them. Why: a stop lands between
        any two bytecodes, so a step's own tally of what it kept (games recorded in the journal,
        batches stored) can be ahead of the line's, or behind it; the step settles the line on
        its tally as it unwinds, and the closing line states what a resume will not replay."""
        with self.lock:
            st = st if st is not None else (self.stages[-1] if self.stages else None)
            if st is None or not any(s is st for s in self.stages):
                return
            delta = int(done) - st.done
            for s in self.stages:
                if s.unit == st.unit:
                    s.done += delta

    def say(self, text: str) -> None:
        """One line of its own on stderr (``rarity: <text>``), between two progress lines; also
        under ``--quiet``, which silences progress, not what a user must know (what an
        interrupted command kept, and that a run resumed)."""
        with self.lock:
            quiet, self.quiet = self.quiet, False
            try:
                self._write(f"{self.command}: {text}", end=True)
            finally:
                self.quiet = quiet

    def counting(self) -> Stage | None:
        """The stage whose counts the line shows: the outermost with a total, unless the
        innermost with a total counts another unit (else the innermost stage).

        Why the exception: a stage of another unit inside (the ratings' fit, in boards, inside
        ``rulings``' rule sets or ``rarity``'s replicates, in games) leaves the outer count
        standing still while it works, and its time left grew from the games' pace: "576/864
        games, about 4 s left" 18 s before the end (the progress audit of stop 74)."""
        with_total = [st for st in self.stages if st.total is not None]
        if not with_total:
            return self.stages[-1] if self.stages else None
        outer, inner = with_total[0], with_total[-1]
        return inner if inner.unit != outer.unit else outer

    # -- text -------------------------------------------------------------------------------
    def line(self) -> str:
        """``rarity: ablation: 1,200/7,200 games, 410 games/s, 7 s so far, about 15 s left``."""
        now = self.clock()
        names = " > ".join(st.name for st in self.stages) or self.loading
        st = self.counting()
        head = f"{self.command}: {names}" if names else self.command
        if st is None:
            return f"{head} ({duration(now - self.t0)} so far)"
        spent, rate = now - st.started, st.rate(now)
        if st.total is None:
            return f"{head} ({duration(spent)} so far)"
        cap = "of at most " if st.at_most else "/"
        count = (f"{st.done:,} {cap}{st.total:,} {st.unit}" if st.at_most else
                 f"{st.done:,}/{st.total:,} {st.unit}")
        if not st.timed:
            return f"{head}: {count}, {duration(spent)} so far"
        left = (st.total - st.done) / rate if math.isfinite(rate) else float("nan")
        eta = (f"{'at most' if st.at_most else 'about'} {duration(left)} left"
               if math.isfinite(left) else "estimating the time left")
        return f"{head}: {count}, {rate_text(rate, st.unit)}, {duration(spent)} so far, {eta}"

    def summary(self, st: Stage) -> str:
        names = " > ".join(s.name for s in self.stages[:self.stages.index(st) + 1])
        return closing(f"{self.command}: {names}", st, self.clock() - st.started)

    # -- drawing ----------------------------------------------------------------------------
    def interval(self, elapsed: float) -> float:
        if self.tty:
            return TTY_EVERY
        return LOG_EVERY if elapsed < 60 else min(LOG_MAX, max(LOG_EVERY, elapsed / 30))

    def due(self) -> bool:
        now = self.clock()
        if self.quiet or now - self.t0 < self.delay:
            return False
        return self.last_draw is None or now - self.last_draw >= self.interval(now - self.t0)

    def maybe_draw(self) -> None:
        with self.lock:
            if self.due():
                self.draw()

    def draw(self) -> None:
        with self.lock:
            if self.quiet:
                return
            self.last_draw = self.clock()
            for st in self.stages:
                st.shown = True
            self._loading_shown = self._loading_shown or self.loading is not None
            self._write(self.line(), end=not self.tty)

    def _write(self, text: str, end: bool) -> None:
        if self.quiet:
            return
        try:
            if self.tty:
                self.stream.write("\r\x1b[K" + text + ("\n" if end else ""))
                self._dirty_tty = not end
            else:
                self.stream.write(text + "\n")
            self.stream.flush()
        except (OSError, ValueError):
            pass  # a closed or broken stderr never stops the work

    def finish(self) -> None:
        """End an in-place line (a terminal) so that what follows starts on its own line."""
        with self.lock:
            if self._dirty_tty:
                self._write("", end=False)
                self._dirty_tty = False


_current: Progress | None = None


def current() -> Progress | None:
    return _current


@contextmanager
def reporting(command: str, *, quiet: bool = False, stream=None, heartbeat: bool = True,
              loading: str | None = None, started: float | None = None):
    """The command's progress session: every :func:`stage` inside it draws on stderr (unless
    ``quiet``). A daemon thread redraws while the engine is busy between two advances.
    ``loading``: what goes on before the first stage (:meth:`Progress.load`); ``started``:
    when the command began (``time.monotonic()``), if before the session."""
    global _current
    outer, p = _current, Progress(command, quiet=quiet, stream=stream, started=started)
    if loading is not None:
        p.load(loading)
    _current = p
    stop = threading.Event()
    beat = None
    if heartbeat and not quiet:
        def run():
            while not stop.wait(0.25):
                if p.working():
                    p.maybe_draw()
        beat = threading.Thread(target=run, name="bwlab-progress", daemon=True)
        beat.start()
    try:
        yield p
    finally:
        stop.set()
        if beat is not None:
            beat.join(1.0)
        p.finish()
        _current = outer


class NoStage:
    total = None
    done = 0


@contextmanager
def stage(name: str, total: int | None = None, *, unit: str = "games", at_most: bool = False,
          timed: bool = True):
    """A named step of the current command (nothing outside a :func:`reporting` session);
    ``timed=False`` shows the count without a rate or a time left, for parts whose lengths
    differ too much for either (the engine's compile: "0.00 parts/s, about 11 min left" eight
    seconds before it ended)."""
    raise_dropped()  # a Ctrl-C Python dropped in the step before (sim/stops.py)
    p = _current
    if p is None:
        yield NoStage()
        return
    st = p.open(name, total, unit, at_most, timed)
    try:
        yield st
    finally:
        p.close(st)


def advance(n: int = 1) -> None:
    """``n`` more games (or the innermost stage's unit) done; nothing outside a session."""
    raise_dropped()
    if _current is not None and n:
        _current.advance(n)


def count() -> int | None:
    """The innermost stage's count (None outside a session, or with no stage open): where a
    step that settles its own count (:func:`recount`) starts."""
    p = _current
    return p.stages[-1].done if p is not None and p.stages else None


def recount(done: int, st=None) -> None:
    """:meth:`Progress.recount` in the current session (nothing outside one, or for a
    :class:`NoStage`). Never raises a dropped stop: it is called while one unwinds."""
    if _current is not None and not isinstance(st, NoStage):
        _current.recount(done, st)


def skip(n: int, resumed: int | None = None) -> None:
    """``n`` units found done, not played (:meth:`Progress.skip`); nothing outside a session."""
    if _current is not None and n:
        _current.skip(n, resumed)


def aside() -> None:
    """End the line drawn in place on a terminal, if any, before a note of the command's own on
    stderr (``note: ...``, the compile's notice), so the note does not run on after it; the
    next draw starts below the note. Nothing in a log, or outside a session.

    Why: the line now stands from a command's third second, while it still loads
    (:meth:`Progress.load`), and the notes of a command's checks come then: "play: loading the
    libraries and the inputs (2 s so far)bwlab: compiling the game engine ..." on one line."""
    if _current is not None:
        _current.finish()


__all__ = ["NoStage", "Progress", "advance", "aside", "count", "current", "duration",
           "rate_text", "recount", "reporting", "skip", "stage"]
