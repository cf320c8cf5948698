"""The shared progress line (sim/runner/progress.py), on a fake clock: the stage, games done of
the total, the rate and the time left (issue #23 item 1: "One shared progress line on stderr
(stage, games done of total, rate, time left) ... --quiet silences it"), and that the chunked
engine wrapper counts every game without changing any (results identical whatever the
chunking: README "Randomness")."""

from __future__ import annotations

import io

import pytest

from sim.runner import progress
from sim.runner.playing import chunk_size
from sim.runner.progress import Progress, duration, rate_text
from tests._cli_kit import Clock


def make(tty=False, quiet=False):
    clock, out = Clock(), io.StringIO()
    return Progress("rarity", quiet=quiet, stream=out, clock=clock, tty=tty), clock, out


@pytest.mark.parametrize("seconds, text", [(0.4, "0 s"), (42, "42 s"), (59.6, "1 min 00 s"),
                                           (185, "3 min 05 s"), (4320, "1 h 12 min"),
                                           (float("nan"), "?"), (-1, "?")])
def test_durations_read_as_people_say_them(seconds, text):
    assert duration(seconds) == text


@pytest.mark.parametrize("rate, text", [(412.4, "412 games/s"), (3.44, "3.4 games/s"),
                                        (0.214, "0.21 games/s"), (0.996, "1.0 games/s"),
                                        (99.7, "100 games/s"), (0.0, "– games/s"),
                                        (float("nan"), "– games/s")])
def test_rates_keep_sensible_digits(rate, text):
    assert rate_text(rate, "games") == text


def test_the_line_names_the_stage_and_gives_done_total_rate_and_time_left():
    p, clock, _ = make()
    p.open("the study", 8000)
    clock.now += 5.0
    p.advance(1000)
    clock.now += 5.0
    p.advance(1000)                     # 200 games/s since the first: 6,000 left take 30 s
    assert p.line() == ("rarity: the study: 2,000/8,000 games, 200 games/s, 10 s so far, "
                        "about 30 s left")


def test_an_untimed_stage_counts_its_parts_without_a_rate_or_a_time_left():
    """The engine's compile counts five parts of very unequal length: its line once read
    "0.00 parts/s, about 11 min 12 s left" eight seconds before it ended (the audit of stop
    55). An untimed stage says what is done and how long it has taken, and no more."""
    p, clock, _ = make()
    st = p.open("compiling the engine", 5, unit="parts", timed=False)
    clock.now += 40.0
    p.advance(2)
    assert p.line() == "rarity: compiling the engine: 2/5 parts, 40 s so far"
    clock.now += 20.0
    p.advance(3)
    assert p.summary(st) == "rarity: compiling the engine: 5 parts in 1 min 00 s"


def test_the_rate_counts_from_the_first_finished_games_not_from_the_engines_load():
    p, clock, _ = make()
    p.open("the study", 1000)
    clock.now += 6.0                    # loading the engine: nothing finishes
    p.advance(10)
    clock.now += 2.0
    p.advance(40)                       # 40 games in the 2 s since the first ones: 20 games/s
    assert "50/1,000 games, 20.0 games/s, 8 s so far, about 48 s left" in p.line()


def test_lumps_of_games_a_moment_apart_do_not_read_as_thousands_of_games_per_second():
    """``bwlab run experiments/smoke.toml --jobs 2`` printed "48/64 games, 3,324 games/s" for a
    run that played 37 games/s: its batches of 16 arrive in lumps, two of them milliseconds
    apart (README "Progress": games per second over the last 30 s). Until the advances span
    MIN_SPAN the rate is timed over MIN_SPAN from the first of them."""
    p, clock, _ = make()
    p.open("playing smoke", 64)
    clock.now += 1.50
    p.advance(16)                       # the first batch, after the workers' start
    clock.now += 0.01
    p.advance(16)                       # the other worker's batch, 10 ms later
    clock.now += 0.01
    p.advance(16)
    clock.now += 0.48                   # 32 games after the first lump, over at least 1 s
    assert "48/64 games, 32.0 games/s, 2 s so far" in p.line()
    clock.now += 2.0                    # once the advances span a second or more: their rate
    p.advance(16)
    assert "64/64 games, 19.2 games/s" in p.line()    # 48 games in the 2.5 s since the first


def test_the_rate_follows_the_latest_thirty_seconds_when_the_players_change_speed():
    """``rarity --policies greedy,lookahead:4``: greedy's fast games, then the look-ahead's slow
    ones; the time left must follow the slow ones, not the average."""
    p, clock, _ = make()
    p.open("the study under the other players", 2000)
    for _ in range(10):                 # 100 games/s for 10 s
        clock.now += 1.0
        p.advance(100)
    for _ in range(60):                 # then 2 games/s for a minute
        clock.now += 1.0
        p.advance(2)
    assert "1,120/2,000 games, 2.0 games/s" in p.line()
    assert "about 7 min 20 s left" in p.line()    # 880 games at 2 games/s


def test_a_cap_reads_at_most_and_nested_stages_count_with_the_outermost_total():
    p, clock, _ = make()
    p.open("confirming the fairest split by play", 8192, at_most=True)
    p.open("proposal 2")                # no total: it only names the step
    p.open("duplicate play of the four teams", 1024, at_most=True)
    clock.now += 2.0
    p.advance(512)                      # every open stage counts the games
    clock.now += 2.0
    p.advance(512)                      # 256 games/s since the first 512
    line = p.line()
    assert line.startswith("rarity: confirming the fairest split by play > proposal 2 > "
                           "duplicate play of the four teams: 1,024 of at most 8,192 games")
    assert "256 games/s" in line and "at most 28 s left" in line


def test_nothing_is_drawn_in_the_first_two_seconds_then_lines_every_two_seconds_in_a_log():
    p, clock, out = make(tty=False)
    p.open("the study", 1000)
    for _ in range(19):                 # 1.9 s of advances: a quick command stays silent
        clock.now += 0.1
        p.advance(10)
    assert out.getvalue() == ""
    clock.now += 0.2
    p.advance(10)                       # 2.1 s: the first line
    clock.now += 1.0
    p.advance(10)                       # 1 s later: not yet
    clock.now += 1.0
    p.advance(10)                       # 2 s after the first: the second line
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and lines[0].startswith("rarity: the study: 200/1,000 games")
    assert "\r" not in out.getvalue()   # a log gets whole lines, not carriage returns


def test_a_log_line_comes_less_often_as_a_long_run_goes_on():
    p, clock, _ = make(tty=False)
    assert p.interval(10) == 2.0 and p.interval(600) == 20.0 and p.interval(7200) == 30.0
    assert make(tty=True)[0].interval(7200) == 0.5  # a terminal is redrawn in place


def test_a_terminal_line_is_redrawn_in_place_and_ends_with_a_summary():
    p, clock, out = make(tty=True)
    st = p.open("ablation", 400)
    clock.now += 3.0
    p.advance(300)
    p.maybe_draw()
    assert out.getvalue().startswith("\r\x1b[K") and not out.getvalue().endswith("\n")
    clock.now += 1.0
    st.done = 400
    p.close(st)                         # the stage was shown: one closing line, newline-ended
    assert out.getvalue().endswith("rarity: ablation: 400 games in 4 s, 100 games/s\n")


def test_quiet_draws_nothing():
    p, clock, out = make(quiet=True)
    st = p.open("the study", 100)
    clock.now += 10.0
    p.advance(50)
    p.draw()
    p.close(st)
    assert out.getvalue() == ""


def test_outside_a_session_stages_and_advances_do_nothing():
    assert progress.current() is None
    with progress.stage("anything", 10) as st:
        progress.advance(5)
    assert st.total is None


def test_a_session_is_current_only_inside_it_and_stderr_only():
    with progress.reporting("demo", stream=io.StringIO(), heartbeat=False) as p:
        assert progress.current() is p
        with progress.stage("x", 4):
            progress.advance(4)
            assert p.stages[0].done == 4
    assert progress.current() is None


@pytest.mark.parametrize("per_game, chunk", [(0.004, 8), (0.2, 5), (0.6, 2), (3.0, 1), (30.0, 1),
                                             (0.0, 8), (float("nan"), 8)])
def test_chunks_last_about_a_second_and_never_exceed_the_engines(per_game, chunk):
    assert chunk_size(per_game, 8) == chunk


def test_the_engine_load_before_the_first_games_is_not_read_as_their_pace():
    """``fairness`` on the example teams drew "28 of at most 20,000 games, 29.4 games/s, at
    most 11 min 19 s left" one second in: its first chunk of games ended as the engine finished
    loading, and it played about 1,500 games/s (the audit of stop 59; README "Progress": the
    time left). One advance says nothing of the pace: the line says it is estimating, and from
    the second advance on the rate is timed from the first."""
    p, clock, _ = make()
    p.open("duplicate play of the four teams", 20000, at_most=True)
    clock.now += 0.9                    # loading the engine, then one chunk
    p.advance(28)
    line = p.line()
    assert "28 of at most 20,000 games, – games/s" in line and "estimating the time left" in line
    clock.now += 0.3
    p.advance(450)                      # 1,500 games/s; timed over at least a second: 450
    assert "478 of at most 20,000 games, 450 games/s" in p.line()
    clock.now += 0.7
    p.advance(1050)                     # a second after the first chunk: 1,500 games/s
    assert "1,528 of at most 20,000 games, 1,500 games/s" in p.line()
    assert "at most 12 s left" in p.line()


def test_a_stage_with_one_slow_advance_is_estimated_once_it_has_run_a_window():
    """A stage whose first advance comes late (a look-ahead's first round) gets the average
    since it began once it has run WINDOW seconds: the load is then a small share of it."""
    p, clock, _ = make()
    p.open("the look-ahead's games", 1000)
    clock.now += 20.0
    p.advance(100)
    assert "estimating the time left" in p.line()
    clock.now += 20.0                   # 40 s in: 100 games, 2.5 games/s
    assert "100/1,000 games, 2.5 games/s" in p.line() and "about 6 min 00 s left" in p.line()


def test_the_loading_before_the_first_stage_is_drawn_then_ended_by_it_never_after():
    """A command's imports, inputs and kernels come before its first stage (``report``: 3-5 s of
    matplotlib, scipy and pandas; the audit of 2026-12-07): the line names the loading while no
    stage is open, the first stage ends it with a closing line, and once the stages have ended
    the heartbeat has nothing to draw (``working()``), so it never says "loading" again."""
    p, clock, out = make(tty=False)
    p.load("loading the libraries and the inputs")
    assert p.working()
    clock.now += 1.5
    p.maybe_draw()
    assert out.getvalue() == ""                      # the first two seconds: nothing
    clock.now += 1.5
    p.maybe_draw()
    assert out.getvalue() == "rarity: loading the libraries and the inputs (3 s so far)\n"
    st = p.open("the study", 10)
    assert out.getvalue().endswith("rarity: loading the libraries and the inputs: done in 3 s\n")
    clock.now += 2.0
    p.advance(10)
    p.close(st)
    assert not p.working() and p.loading is None
    clock.now += 5.0
    before = out.getvalue()
    if p.working():                                  # the heartbeat's own test
        p.maybe_draw()
    assert out.getvalue() == before and "loading" not in before.splitlines()[-1]


def test_a_loading_never_shown_ends_without_a_line():
    p, clock, out = make(tty=False)
    p.load("loading the libraries and the inputs")
    clock.now += 1.0
    p.open("the study", 10)
    assert out.getvalue() == "" and p.loading is None


def test_the_first_two_seconds_count_from_the_commands_start_not_the_sessions():
    """``rulings`` imported scipy with its module for 1.4 s before its session began: counted
    from the session, its first line came 3.7 s in; ``started`` moves the count to the start."""
    clock, out = Clock(), io.StringIO()
    p = Progress("rulings", stream=out, clock=clock, tty=False, started=clock.now - 1.5)
    p.load("loading the libraries and the inputs")
    clock.now += 0.6
    p.maybe_draw()
    assert out.getvalue() == "rulings: loading the libraries and the inputs (2 s so far)\n"


def test_a_note_on_stderr_starts_below_a_loading_line_drawn_in_place(monkeypatch):
    """On a terminal the loading line is drawn in place from the third second; a command's
    note (``note: ...``, the compile's notice) printed then ran on after it. ``aside()`` ends
    the line first; the next draw starts below the note."""
    p, clock, out = make(tty=True)
    monkeypatch.setattr(progress, "_current", p)
    p.load("loading the libraries and the inputs")
    clock.now += 2.5
    p.maybe_draw()
    assert out.getvalue().endswith("(2 s so far)")       # in place, not ended
    progress.aside()
    out.write("note: a note\n")
    clock.now += 1.0
    p.maybe_draw()
    assert "(2 s so far)\r\x1b[Knote: a note\n\r\x1b[Krarity: loading" in out.getvalue()
    progress.aside()
    progress.aside()                                      # twice: nothing more to end
    assert out.getvalue().endswith("(4 s so far)\r\x1b[K")


def test_aside_outside_a_session_or_in_a_log_writes_nothing(monkeypatch):
    progress.aside()
    p, clock, out = make(tty=False)
    monkeypatch.setattr(progress, "_current", p)
    p.load("loading the libraries and the inputs")
    clock.now += 2.5
    p.maybe_draw()
    before = out.getvalue()
    progress.aside()
    assert out.getvalue() == before


def test_a_commands_note_clears_the_line_drawn_in_place(monkeypatch):
    """``sim.cli._say.note`` is how a command writes its own notes on stderr (drift's and run's
    ``note: ...``, the compile's notice, replay's and play's output lines): the loading line drawn
    in place is cleared first, so the note starts a line of its own; no lines, nothing cleared."""
    from sim.cli._say import note

    p, clock, out = make(tty=True)
    monkeypatch.setattr(progress, "_current", p)
    monkeypatch.setattr("sys.stderr", out)  # click.echo(err=True) writes to sys.stderr
    p.load("loading the libraries and the inputs")
    clock.now += 2.5
    p.maybe_draw()
    note()
    assert out.getvalue().endswith("(2 s so far)")       # nothing to say: the line stands
    note("note: one", "note: two")
    assert out.getvalue().endswith("(2 s so far)\r\x1b[Knote: one\nnote: two\n"), out.getvalue()


def test_no_command_writes_a_note_around_the_shared_function():
    """Each concept defined once: only ``sim/cli/_say.py`` clears the progress line for a note
    (``aside``); a command calling ``aside`` itself and then ``click.echo`` is the pattern the
    function replaced (six call sites in drift and run, stop 76's note)."""
    from pathlib import Path

    cli = Path(progress.__file__).parents[1] / "cli"
    callers = sorted(p.name for p in cli.glob("*.py") if "aside(" in p.read_text()
                     and p.name != "_say.py")
    assert callers == []
