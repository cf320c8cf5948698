"""The words of the progress line (:mod:`.progress`): durations, rates, and a stage's closing
line; and counts in words (:func:`counted`, for every layer from here up: the runner's design
lines printed "1 deals" and "1 boards" where the command line's own helper could not be reached,
stop 77's audits). Apart so that the line's machinery (stages, clocks, drawing) stays one module
a reader can hold, and these words can be read, and tested, on their own."""

from __future__ import annotations

import math


def counted(n: int, word: str, plural: str | None = None) -> str:
    """``n`` and the noun it counts, in the singular for exactly one: "1 round", "2,048 games"."""
    return f"{n:,} {word if n == 1 else (plural or word + 's')}"


def duration(seconds: float) -> str:
    """Seconds as people say them: "42 s", "3 min 05 s", "1 h 12 min"."""
    if not math.isfinite(seconds) or seconds < 0:
        return "?"
    s = int(round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {(s % 3600) // 60:02d} min"


def rate_text(per_second: float, unit: str) -> str:
    """A rate with sensible digits: "412 games/s", "3.4 games/s", "0.21 games/s"."""
    if not math.isfinite(per_second) or per_second <= 0:
        return f"– {unit}/s"
    digits = 0 if per_second >= 99.5 else 1 if per_second >= 0.995 else 2  # as rounded
    return f"{per_second:,.{digits}f} {unit}/s"


def closing(head: str, st, spent: float) -> str:
    """The closing line of stage ``st`` (a :class:`sim.runner.progress.Stage`) that took
    ``spent`` seconds: "run: playing smoke: 64 games in 10 s (2 s of it building the boards),
    8.0 games/s (16 of them resumed from the journal)".

    Why the rate leaves the stages of another unit out: the boards built inside a stage of
    games (counted in boards, with a closing line of their own) took 2 s of "64 games in
    10 s", read as 6.4 games/s for games played at 8.0. The time stays the stage's whole
    time, and says what it includes. Games found in the journal are counted, never timed."""
    if st.total is None:
        return f"{head}: done in {duration(spent)}"
    played = st.done - st.skipped
    own = spent - sum(st.aside.values())
    rate = played / own if own > 0 and played else float("nan")
    within = "; ".join(f"{duration(t)} of it {name}" for name, t in st.aside.items()
                       if t >= 0.5 and st.timed)  # "0 s of it ..." would be noise; no rate,
    #                                                 no need to say what the time includes
    found = [f"{st.resumed:,} of them resumed from the journal"] if st.resumed else []
    if st.skipped > st.resumed:
        found.append(f"{st.skipped - st.resumed:,} of them the same {st.unit} as this "
                     f"command had already played, not played again")
    unit = st.unit[:-1] if st.done == 1 and st.unit.endswith("s") else st.unit  # "1 board"
    return (f"{head}: {st.done:,} {unit} in {duration(spent)}"
            + (f" ({within})" if within else "")
            + (f", {rate_text(rate, st.unit)}" if played and st.timed else "")
            + (f" ({'; '.join(found)})" if found else ""))


__all__ = ["closing", "duration", "rate_text"]
