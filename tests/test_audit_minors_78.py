"""Stop 78: findings of stop 77's audits that were left open, each checked here."""

from __future__ import annotations

import numpy as np


def _bar_half_widths(ax) -> np.ndarray:
    """The half-widths of the vertical error bars drawn on ``ax`` (matplotlib's LineCollection
    of an errorbar: one segment per point, from value - err to value + err)."""
    from matplotlib.collections import LineCollection

    halves = [abs(seg[1][1] - seg[0][1]) / 2 for c in ax.collections
              if isinstance(c, LineCollection) for seg in c.get_segments()]
    return np.asarray(halves)


def test_every_monte_carlo_bar_of_the_combat_pictures_is_a_95_percent_interval(catalogue):
    """The combat pictures draw Monte Carlo values "with their standard errors": the audit found
    the pmf bars and the expected-damage bars at 1 SE beside at-least bands and kill bars at
    1.96 SE, with nothing on the figure saying which. Every bar is now 1.96 SE (a 95 % interval),
    and the title says so."""
    from sim.report.calculator_plots import distribution_figure, sweep_figure
    from sim.runner.calculator import parse_sweep, stat_profile
    from sim.runner.calculator_eval import calculate

    a = stat_profile(catalogue.rules, catalogue, 8, 2, 4, 40)
    result = calculate([a], catalogue, parse_sweep("defense=0..4", "stat"), samples=4000, seed=1)
    pmf = distribution_figure(result["profiles"])
    se = np.asarray(result["profiles"][0]["table"]["exactly_se"])
    drawn = _bar_half_widths(pmf.axes[0])
    assert drawn.size == se.size and np.allclose(drawn, 1.96 * se, rtol=1e-3, atol=1e-12)
    sweep = sweep_figure(result)
    rows = result["sweep"]["series"][0]["rows"]
    left, right = (_bar_half_widths(ax) for ax in sweep.axes[:2])
    assert np.allclose(left, 1.96 * np.array([r["mean_se"] for r in rows]), rtol=1e-3)
    assert np.allclose(right, 1.96 * np.array([r["kill_probability_se"] for r in rows]),
                       rtol=1e-3)
    for fig in (pmf, sweep):
        assert "95 %" in fig._suptitle.get_text()


def test_a_twelfth_ability_type_is_named_at_its_own_line(capsys):
    """Book: "Every ability belongs to one of the 11 ability types set out in the Ability
    Index." Stop 77's newcomer audit added a ``self_heal`` type beside ``heal`` (the one change
    docs/effects.md says is refused): the refusal was located at ``abilities.toml:1``, not at
    the table the designer had just written. It is now at that table's own line, one line."""
    from sim.cli.main import main
    from tests._engine_kit import fresh_cards

    cards = fresh_cards()
    path = cards / "abilities.toml"
    text = path.read_text(encoding="utf-8")
    extra = ('[self_heal]\ndescription = "Heals the user."\neffect = "heal"\ntarget = "self"\n'
             'params = { amount = [20, 1, 100], charges = [2, 0, 20], '
             'own_turn_only = [1, 1, 1] }\n')
    path.write_text(text + "\n" + extra, encoding="utf-8")
    table_line = len(text.splitlines()) + 2  # the blank line, then "[self_heal]"
    assert path.read_text(encoding="utf-8").splitlines()[table_line - 1] == "[self_heal]"
    code = main(["validate", str(cards)])
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if line.startswith("error: ")]
    assert code == 2 and "Traceback" not in err
    about_count = [line for line in errors if "11 ability types" in line]
    assert len(about_count) == 1, errors
    assert f"abilities.toml:{table_line}:" in about_count[0] and "self_heal" in about_count[0]


def test_a_ladder_of_one_deal_on_one_board_says_so_in_the_singular(capsys):
    """Stop 77's audits: the runner's design lines printed "1 deals" and "1 boards" (the command
    line's counted() could not be reached from sim/runner). ``counted`` now lives with the
    runner's words and every design line uses it."""
    from sim.cli.main import main

    code = main(["ladder", "--players", "random,greedy", "--games", "4", "-q"])
    first = capsys.readouterr().out.splitlines()[0]
    assert code == 0 and first.startswith("4 games (1 deal) on 1 board ("), first


def test_the_ladder_s_note_on_a_match_of_one_deal_says_one_deal(capsys):
    """The newcomer audit of stop 78: after the runner's design lines, the ladder's own note
    still printed "(it has 1 deals)" (sim/cli/ladder.py built its own words)."""
    from sim.cli.main import main

    from tests._engine_kit import ROOT

    tuned = ROOT / "experiments" / "greedy_tuned.toml"
    code = main(["ladder", "--players", f"random,greedy,greedy:weights={tuned}", "--games", "12",
                 "-q"])
    notes = [line for line in capsys.readouterr().out.splitlines() if line.startswith("note:")]
    assert code == 0 and any("(it has 1 deal)" in line for line in notes), notes


def test_run_s_endings_are_a_partition_and_no_winner_stands_apart(capsys, tmp_path):
    """Stop 78's newcomer audit: ``bwlab run``'s "how games are decided" listed "no winner"
    among the four endings, and the shares summed to 101.6 % (a game no team won ended one of
    those ways too). The endings now sum to 100 % (to rounding) and "no winner" is on the
    length line, as ``bwlab fairness`` prints it."""
    import re

    from sim.cli.main import main
    from tests._engine_kit import ROOT

    code = main(["run", str(ROOT / "experiments" / "smoke.toml"), "--out", str(tmp_path / "o"),
                 "-q"])
    out = capsys.readouterr().out
    (decided,) = [ln for ln in out.splitlines() if "how games are decided:" in ln]
    (length,) = [ln for ln in out.splitlines() if "game length:" in ln]
    shares = [float(x) for x in re.findall(r"(\d+\.\d) % \(", decided)]
    assert code == 0 and len(shares) == 4 and abs(sum(shares) - 100) < 0.3, decided
    assert "no winner" not in decided and "no winner (drawishness)" in length, out


def test_a_ctrl_c_that_numba_wraps_is_a_ctrl_c(capsys, monkeypatch):
    """Stop 78's audit of interrupts: a Ctrl-C landing in Numba's own Python callback as a
    kernel is dispatched comes out as "SystemError: ... returned a result with an exception
    set", the KeyboardInterrupt its context; ``combat --samples`` then printed two tracebacks
    and exited 1 (4 of 6 Ctrl-C's). It is now Ctrl-C: "aborted", exit 130, no traceback."""
    import sim.combat.sampler as sampler
    from sim.cli.main import main

    def interrupted(*args, **kwargs):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise SystemError("_PlainArgs(...) returned a result with an exception set")

    monkeypatch.setattr(sampler, "sample_damage", interrupted)
    code = main(["combat", "--attacks", "8", "--tier", "2", "--defense", "4", "--samples",
                 "1000", "-q"])
    out, err = capsys.readouterr()
    assert (code, out, err.strip().splitlines()) == (130, "", ["aborted"]), err


def test_a_sigterm_ends_combat_with_a_line_and_143():
    """README, "Progress": a SIGTERM is never a silent kill. ``combat --samples`` has no games
    to keep and no journal, and Python's default ended it at once: 143 and no line (stop 78's
    audit). It now ends as the journaled commands do, with "combat: terminated (SIGTERM)"."""
    from tests._cli_kit import sigterm_midway

    code, out, err = sigterm_midway(("combat", "--attacks", 8, "--tier", 2, "--defense", 4,
                                     "--samples", 10 ** 9, "-q"), ready=lambda: True)
    assert code == 143 and out == "" and "Traceback" not in err, err
    assert err.strip().splitlines()[-1] == "combat: terminated (SIGTERM)", err


def test_an_interrupted_run_s_manifest_lists_every_batch_it_stored(tmp_path):
    """Stop 78's audit of interrupts: ``run`` stopped by SIGTERM (or Ctrl-C) said "33 of 100
    batches stored" while its manifest.json listed 1 (the manifest is written at most every
    2 s while the games run). The interrupt now writes it first: it lists exactly the batch
    files on disk, and the line says as many."""
    import json
    import re

    from tests._cli_kit import sigterm_midway
    from tests._engine_kit import ROOT

    out = tmp_path / "o"
    code, _, err = sigterm_midway(
        ("run", ROOT / "experiments" / "smoke.toml", "--games", 1600, "--jobs", 1, "--out", out,
         "-q"), ready=lambda: len(list(out.glob("batch-*.parquet"))) >= 3,
        env={"NUMBA_NUM_THREADS": "1"})
    stored = sorted(int(p.name[6:12]) for p in out.glob("batch-*.parquet"))
    listed = sorted(int(b) for b in json.loads((out / "manifest.json").read_text())["batches"])
    said = re.search(r"interrupted: (\d+) of", err)
    assert code == 143 and said, err
    assert listed == stored and int(said.group(1)) == len(stored) >= 3, (listed, stored, err)
