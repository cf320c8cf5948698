"""UX audit 82: progress lines of the long commands (stderr, time left)."""

import re

from sim.runner.progress import Progress


class _Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


class _Sink:
    def __init__(self):
        self.text = ""

    def write(self, s):
        self.text += s

    def flush(self):
        pass

    def isatty(self):
        return False


def _seconds_left(line: str) -> float:
    m = re.search(r"(?:about|at most) (?:(\d+) min )?(\d+) s left", line)
    assert m, line
    return 60 * int(m.group(1) or 0) + int(m.group(2))


def test_ladder_time_left_follows_the_current_pairing():
    # bwlab ladder --games 200 --seed 1: 'round robin' (216 games) with one nested stage per
    # pairing; lookahead:4's 72 games took 3 s, then lookahead:32's at about 1.5 s a game.
    clock = _Clock()
    p = Progress("ladder", stream=_Sink(), clock=clock, tty=False, delay=0.0)
    outer = p.open("round robin", 216)
    fast = p.open("lookahead:4 vs 3 × random")
    for _ in range(72):
        clock.t += 3.0 / 72
        p.advance()
    p.close(fast)
    p.open("lookahead:32 vs 3 × random")
    for _ in range(6):
        clock.t += 1.5
        p.advance()
    left = _seconds_left(p.line())
    # at the current pairing's pace, 138 games left take about 200 s
    assert left > 100, p.line()
    assert outer.done == 78


def test_one_board_is_one_board():
    """`bwlab power-levels --games 400 --validate-budget 200` closed a stage with "building the
    boards: 1 boards in 0 s" (progress audit 82)."""
    from sim.runner.progress_text import closing
    from sim.runner.progress_stage import Stage

    st = Stage("building the boards", 1, "boards", False, 0.0, done=1)
    assert "1 board in" in closing("power-levels: building the boards", st, 0.01)
    st.done, st.total = 2, 2
    assert "2 boards in" in closing("power-levels: building the boards", st, 0.01)


def test_fairness_policies_names_every_player_s_check(monkeypatch, tmp_path):
    """`bwlab fairness TEAMS --policies greedy,random`: the second check's line read "the check
    under random > duplicate play ...", the first's only "duplicate play ...", so nothing told
    the two counts apart (progress audit 82). Each check now runs as a step naming its player."""
    from pathlib import Path

    import sim.runner.fairness as runner
    from sim.cli.main import main
    from sim.runner import progress

    real, seen = runner.check_fairness, []

    def recording(*args, **kwargs):
        seen.append([st.name for st in progress.current().stages])
        return real(*args, **kwargs)

    monkeypatch.setattr(runner, "check_fairness", recording)
    teams = Path(__file__).resolve().parents[1] / "experiments" / "teams" / "example.toml"
    code = main(["fairness", str(teams), "--games", "16", "--round", "16", "--boards", "4",
                 "--policies", "greedy,random", "-q"])
    assert code in (0, 1, 3)
    assert [names[-1] for names in seen] == ["the check under greedy", "the check under random"]
