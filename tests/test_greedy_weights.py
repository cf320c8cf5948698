"""Greedy with weights of its own (issue #25 item 1: ``greedy:weights=FILE``): the weights file is
checked like every data file, the rules' weights in a file play exactly as plain ``greedy``, and
other weights make that one team play differently.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from sim.ai.play import play_game
from sim.ai.spec import parse_policy
from sim.catalogue.diagnostics import InputError
from sim.catalogue.game_rules import GREEDY_KEYS, load_game_rules
from sim.catalogue.greedy_weights import format_greedy_weights, load_greedy_weights
from sim.engine.state import fields as L
from tests._cli_kit import run
from tests._engine_kit import CARDS, CATALOGUE, setup_for

TUNED = Path(__file__).resolve().parents[1] / "experiments" / "greedy_tuned.toml"
RULES = load_game_rules(CATALOGUE.root).greedy


def _file(tmp_path, text: str, name="w.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_key_left_out_keeps_the_rules_weight(tmp_path):
    """The file's keys are the rules' ``greedy_*`` keys; a key it leaves out is NaN (the engine
    then keeps the rules' value: runner.player_fps)."""
    from sim.ai.play import player_fps

    w = load_greedy_weights(_file(tmp_path, "greedy_kill = 90\n[tuning]\nseed = 3\n"))
    assert w[GREEDY_KEYS.index("greedy_kill")] == 90.0
    assert np.isnan(np.delete(w, GREEDY_KEYS.index("greedy_kill"))).all()
    fps = player_fps(np.arange(L.NFP, dtype=float), [w, None, None, None])
    assert fps[0, L.W_KILL] == 90.0 and fps[1, L.W_KILL] == L.W_KILL
    assert np.array_equal(np.delete(fps[0], L.W_KILL), np.delete(fps[1], L.W_KILL))


def test_a_written_file_reads_back_to_the_same_weights(tmp_path):
    weights = RULES * np.linspace(0.3, 3.1, len(GREEDY_KEYS))
    path = _file(tmp_path, format_greedy_weights(weights, {"seed": 7, "method": "test"}))
    assert np.array_equal(load_greedy_weights(path), weights)


def test_the_shipped_tuned_weights_validate(capsys):
    """experiments/greedy_tuned.toml gives every key (nothing silently taken from the rules)."""
    assert not np.isnan(load_greedy_weights(TUNED)).any()
    code, out, _ = run(capsys, "validate", "--weights", TUNED)
    assert code == 0 and str(TUNED) in out


def test_a_bad_weights_file_gets_one_located_line_per_problem(tmp_path, capsys):
    """Bad input: one ``file:line: field: message`` line per problem, exit 2, nothing else."""
    path = _file(tmp_path, "greedy_kill = -3\ngreedy_damge = 2\ngreedy_approach = 'x'\n")
    code, out, err = run(capsys, "validate", "--weights", path)
    lines = [x for x in err.splitlines() if x.strip()]
    assert code == 2 and out == ""
    assert lines == [f"error: {path}:2: greedy_damge: unknown key (did you mean greedy_damage, "
                     f"greedy_doomed, greedy_cpu_danger?)",
                     f"error: {path}:1: greedy_kill: -3 out of range [0.0, 1000000000.0]",
                     f"error: {path}:3: greedy_approach: expected a number, got 'x'"]
    with pytest.raises(InputError):
        parse_policy(f"greedy:weights={path}")
    code, out, err = run(capsys, "ladder", "--players", f"greedy,greedy:weights={path}")
    assert code == 2 and out == "" and f"{path}:1: greedy_kill" in err


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_a_weight_that_is_not_a_finite_number_is_refused(tmp_path, capsys, value):
    """NaN and infinities are reported by the file's scan as it loads; the loader once counted
    its problems only after that, so such a weight validated and greedy played with NaN."""
    path = _file(tmp_path, f"greedy_damage = 2\ngreedy_kill = {value}\n")
    code, out, err = run(capsys, "validate", "--weights", path)
    assert code == 2 and out == ""
    assert err.strip() == f"error: {path}:2: greedy_kill: {value} is not a finite number"
    with pytest.raises(InputError):
        parse_policy(f"greedy:weights={path}")


def test_the_spec_names_its_file_and_budget_and_random_takes_none(tmp_path):
    """``greedy:weights=FILE`` and ``lookahead[:BUDGET]:weights=FILE`` (the look-ahead over that
    greedy) name the file as given and the budget in full, and read back to the same spec;
    random takes no file, greedy no budget, and a file must be named."""
    path = _file(tmp_path, "greedy_kill = 90\n")
    spec = parse_policy(f"greedy:weights={path}")
    assert spec.label == f"greedy:weights={path}" and spec.id == L.GREEDY
    assert parse_policy(spec.label) == spec and parse_policy("greedy").weights is None
    look = parse_policy(f"lookahead:weights={path}", budget=8)
    assert (look.label, look.id, look.budget) == (f"lookahead:8:weights={path}", L.LOOKAHEAD, 8)
    assert parse_policy(look.label) == look
    assert np.array_equal(look.weights, spec.weights, equal_nan=True)
    assert parse_policy(f"lookahead:weights={path}").budget == 32  # the default budget
    for bad in (f"random:weights={path}", "greedy:weights=", "lookahead:4:weights=",
                f"greedy:4:weights={path}", f"lookahead:4:{path}", f"lookahead:x:weights={path}"):
        with pytest.raises(ValueError):
            parse_policy(bad)


def test_the_look_ahead_over_weights_plays_with_them(tmp_path):
    """``lookahead:B:weights=FILE`` scores its candidates and play-outs with the file's weights:
    with the rules' weights in the file it plays exactly as plain ``lookahead:B``; with other
    weights its games differ."""
    from tests._engine_kit import new_game

    same = parse_policy(f"lookahead:4:weights={_file(tmp_path, format_greedy_weights(RULES))}")
    other_file = _file(tmp_path, "greedy_kill = 0.5\ngreedy_damage = 3.0\n", "other.toml")
    other = parse_policy(f"lookahead:4:weights={other_file}")
    logs = []
    for weights in (None, same.weights, other.weights):
        game = new_game(201, 5)
        play_game(game, [L.LOOKAHEAD, L.GREEDY, L.GREEDY, L.GREEDY], [4, 0, 0, 0],
                  [weights, None, None, None])
        logs.append(game.event_rows())
    assert np.array_equal(logs[0], logs[1])
    assert not np.array_equal(logs[0], logs[2])


def _rows(weights, games=8):
    """``play_many`` rows (and per-card records) of ``games`` greedy games on two boards, the
    four players' weights ``weights``, player 0's seat rotated."""
    from sim.catalogue.teams import random_teams
    from sim.ai.play import play_many
    from sim.engine.state.static_tables import stack_setups

    stacked = stack_setups([setup_for(200 + b) for b in range(2)])
    rng = np.random.default_rng(11)
    teams = np.stack([random_teams(len(CATALOGUE.cards), rng) for _ in range(games)])
    return play_many(stacked, CARDS, np.arange(games) % 2, teams, 31, [L.GREEDY] * 4,
                     seats=np.arange(games) % 4, per_card=True, weights=weights)


def test_the_rules_weights_in_a_file_play_exactly_as_plain_greedy(tmp_path):
    """Default weights must play as before (the golden logs pin plain greedy): a file holding the
    rules' values, in every seat or in one, gives the same rows as no file."""
    path = _file(tmp_path, format_greedy_weights(RULES))
    spec = parse_policy(f"greedy:weights={path}")
    plain = _rows(None)
    for weights in ([spec.weights] * 4, [spec.weights, None, None, None]):
        got = _rows(weights)
        assert all(np.array_equal(a, b) for a, b in zip(plain, got))


def test_a_team_with_other_weights_plays_differently(tmp_path):
    """One player that ignores kills and the approach: its games change, and a game it sits
    out of (every seat is its in turn, so none) would not — the weights reach that team only.
    Checked in the Python game too: a team stepped with the weights diverges from plain greedy."""
    from tests._engine_kit import new_game

    path = _file(tmp_path, "greedy_kill = 0.5\ngreedy_approach = 0\n")
    spec = parse_policy(f"greedy:weights={path}")
    plain, other = _rows(None)[0], _rows([spec.weights, None, None, None])[0]
    assert (plain != other).any(axis=1).sum() >= 4  # most of the 8 games go otherwise
    a, b = new_game(201, 5), new_game(201, 5)
    play_game(a, [L.GREEDY] * 4)
    play_game(b, [L.GREEDY] * 4, weights=[None, spec.weights, None, None])
    rows_a, rows_b = a.event_rows(), b.event_rows()
    first = next(i for i in range(min(len(rows_a), len(rows_b)))
                 if not np.array_equal(rows_a[i], rows_b[i]))
    assert first > 0  # the same game until team 2 (the weighted one) decides otherwise


def _tuner():
    pytest.importorskip("cma")
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "tune_greedy", Path(__file__).resolve().parents[1] / "benchmarks" / "tune_greedy.py")
    tuner = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tuner)
    return tuner


def test_the_shipped_tuning_beats_greedy_with_shorter_self_play_games():
    """Issue #25 item 1: the tuned greedy wins >= 35 % of the games in one seat against three
    rules' greedy teams (25 % is parity), and its self-play games are no longer than greedy's
    (a decision costs the same whatever the weights, so games/s follows game length; the
    target is >= 0.9x greedy's games/s, benchmarks/games.py times it). Seed 3 and boards 300+,
    which the tuning (seed 25) never met. Stated tests, each one-sided at alpha = 0.01 with the
    deal as the independent unit (its four seat rotations share teams, board and dice; every
    deal has a board of its own, so no two deals share one): a t-test of the per-deal win share
    against 0.35, and a paired t-test of tuned self-play decisions against 1.1x greedy's on the
    same deals. Measured when the file was written (2026-12-02): a win share of 55.2 %
    (p = 3e-6) and self-play games 0.72x as long (p = 1e-7); the earlier, win-share-only tuning
    (experiments/greedy_tuned_win_only.toml) passes the first test and fails the second (1.11x
    as long, p = 0.52). docs/ai.md, "The shipped tuning"."""
    from scipy import stats

    from sim.ai.play import RESULT_COLUMNS, play_many
    from sim.catalogue.teams import random_teams
    from sim.engine.state.static_tables import stack_setups

    deals = 48
    tuned = tuple(load_greedy_weights(TUNED))
    stacked = stack_setups([setup_for(300 + b) for b in range(deals)])
    rng = np.random.default_rng(3)
    teams = np.stack([random_teams(len(CATALOGUE.cards), rng) for _ in range(deals)])
    seats = np.tile(np.arange(4), deals)
    games = np.repeat(np.arange(deals), 4)
    out = play_many(stacked, CARDS, games, np.repeat(teams, 4, axis=0), 3, [L.GREEDY] * 4,
                    seats=seats, game_indices=games, weights=[tuned, None, None, None])
    share = (out[:, 0] == seats).reshape(deals, 4).mean(axis=1)
    assert stats.ttest_1samp(share, 0.35, alternative="greater").pvalue < 0.01, share.mean()
    length = RESULT_COLUMNS.index("decisions")
    own, plain = (play_many(stacked, CARDS, np.arange(deals), teams, 3, [L.GREEDY] * 4,
                            game_indices=np.arange(deals), weights=[w] * 4)[:, length]
                  for w in (tuned, None))
    assert stats.ttest_1samp(own - 1.1 * plain, 0.0, alternative="less").pvalue < 0.01, \
        own.mean() / plain.mean()


def test_the_tuner_scores_long_games_down_and_starts_where_told(tmp_path, capsys, monkeypatch):
    """--length-weight W: a candidate's score is its win share less W x (its self-play length
    ratio beyond the slack); --start FILE: the search starts at that file's weights and the
    written file records both (docs/ai.md)."""
    tuner = _tuner()
    args = tuner._parse(["--length-weight", "3", "--length-slack", "0.05"])
    monkeypatch.setattr(tuner, "_judge", lambda *a: 0.5)
    monkeypatch.setattr(tuner, "_self_play_length", lambda *a: 1200.0)
    score, share, ratio = tuner._score(args, None, None, RULES, np.zeros(len(RULES)), None,
                                       1000.0)
    assert (share, ratio) == (0.5, 1.2) and score == pytest.approx(0.5 - 3 * 0.15)
    monkeypatch.setattr(tuner, "_self_play_length", lambda *a: 900.0)
    assert tuner._score(args, None, None, RULES, np.zeros(len(RULES)), None, 1000.0)[0] == 0.5
    monkeypatch.undo()
    out, state = tmp_path / "tuned.toml", tmp_path / "state.pkl"
    start = _file(tmp_path, format_greedy_weights(RULES * 2.0), "start.toml")
    assert tuner.main(["--generations", "1", "--deals", "1", "--popsize", "4", "--boards", "2",
                       "--length-weight", "3", "--start", str(start), "--sigma", "1e-6",
                       "--out", str(out), "--state", str(state), "--quiet"]) == 0
    assert np.allclose(load_greedy_weights(out), RULES * 2.0, rtol=1e-4)
    text = out.read_text()
    assert "length_weight = 3.0" in text and f'start = "{start}"' in text
    capsys.readouterr()


def test_the_tuner_writes_a_valid_weights_file_and_resumes(tmp_path, capsys):
    """benchmarks/tune_greedy.py (needs the optional ``cma``): one tiny generation writes a
    weights file that loads, within the search bounds, and ``--resume`` continues the same
    search (the generation count goes on) instead of starting again."""
    tuner = _tuner()
    out, state = tmp_path / "tuned.toml", tmp_path / "state.pkl"
    common = ["--deals", "1", "--popsize", "4", "--boards", "2", "--out", str(out),
              "--state", str(state), "--quiet"]
    assert tuner.main(["--generations", "1", *common]) == 0
    w = load_greedy_weights(out)
    assert np.all(np.abs(np.log(w / RULES)) <= 3.0 + 1e-9)
    assert tuner.main(["--generations", "2", "--resume", *common]) == 0
    assert "generations = 2" in out.read_text()
    capsys.readouterr()


def test_a_missing_weights_file_is_named_with_the_player_that_asked_for_it(capsys, tmp_path):
    """``--policy greedy:weights=FILE`` with no such file: one line naming the file and the
    player spec it came from (exit 2, no traceback); a problem inside an existing file keeps its
    own line and field."""
    missing = tmp_path / "nope.toml"
    code, out, err = run(capsys, "fairness", "experiments/teams/example.toml", "--policy",
                         f"greedy:weights={missing}")
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [
        f"error: {missing}: file: not found (the weights file of player "
        f"'greedy:weights={missing}')"]
    bad = tmp_path / "bad.toml"
    bad.write_text("position = -1\n")
    code, _, err = run(capsys, "rarity", "--policies", f"greedy,greedy:weights={bad}")
    assert code == 2 and "the weights file of player" not in err and f"{bad}:1: position" in err


def _experiment_beside(folder: Path, weights: str) -> Path:
    """``folder/exp/ew.toml``, the tiny experiment played by ``greedy:weights=WEIGHTS`` in seat
    1, its team file and weights file beside it."""
    from tests.test_runner import SMALL

    here = folder / "exp"
    shutil.copytree(Path(__file__).resolve().parents[1] / "experiments" / "teams", here / "teams")
    path = here / "ew.toml"
    path.write_text(SMALL.replace('policies = ["greedy"]', f'policies = ["greedy:weights={weights}"'
                                  ', "greedy", "greedy", "greedy"]'), encoding="utf-8")
    return path


def test_an_experiments_weights_file_is_found_beside_it_as_its_teams_are(tmp_path,
                                                                          monkeypatch):
    """Stop 55 audit item 4: ``greedy:weights=w.toml`` in an experiment was looked for in the
    working folder, while its ``teams`` are found beside the experiment. Now both beside it;
    the stored spec names the file from the working folder (absolute outside it), so a worker
    finds it."""
    from sim.engine.state.fields import POLICY_IDS
    from sim.runner.experiment import load_experiment

    exp = _experiment_beside(tmp_path, "w.toml")
    shutil.copy(TUNED, exp.parent / "w.toml")
    (tmp_path / "elsewhere").mkdir()
    for cwd, named in ((tmp_path, "exp/w.toml"),  # below the working folder: from it
                       (tmp_path / "elsewhere", str((exp.parent / "w.toml").resolve()))):
        monkeypatch.chdir(cwd)
        loaded = load_experiment(exp, CATALOGUE.cards, tuple(POLICY_IDS))
        assert loaded.policies[0] == f"greedy:weights={named}"
        spec = parse_policy(loaded.policies[0])
        assert spec.weights == parse_policy(f"greedy:weights={TUNED}").weights


def test_an_experiments_weights_key_is_found_beside_it_in_any_case(tmp_path, monkeypatch):
    """The stop 55 review: the spec's keys are case-blind (``greedy:Weights=w.toml`` plays),
    but only ``weights=`` was looked for beside the experiment, so ``Weights=`` was still
    found from the working folder."""
    from sim.engine.state.fields import POLICY_IDS
    from sim.runner.experiment import load_experiment

    exp = _experiment_beside(tmp_path, "w.toml")
    exp.write_text(exp.read_text(encoding="utf-8").replace("weights=", "Weights="),
                   encoding="utf-8")
    shutil.copy(TUNED, exp.parent / "w.toml")
    monkeypatch.chdir(tmp_path)
    loaded = load_experiment(exp, CATALOGUE.cards, tuple(POLICY_IDS))
    assert loaded.policies[0].lower() == "greedy:weights=exp/w.toml"  # found beside it
    assert parse_policy(loaded.policies[0]).weights == parse_policy(
        f"greedy:weights={TUNED}").weights


@pytest.mark.parametrize("content, first", [
    (None, "{exp}:6: policies: no weights file {folder}/wnan.toml (a path relative to this file)"),
    ("greedy_kill = nan\n", "{folder}/wnan.toml:1: greedy_kill: nan is not a finite number (a "
                            "weights file named in policies, {exp}:6)"),
    # an experiment named as the weights file: a line per key of it (the audit of 2026-12)
    (TUNED.with_name("smoke.toml").read_text(encoding="utf-8"),
     "{folder}/wnan.toml: file: an experiment, not a greedy weights file (it goes to bwlab run, "
     "bwlab rarity --experiment (teams drawn from the cards), or in a drift suite's experiments "
     "list) (a weights file named in policies, {exp}:6)"),
])
def test_a_bad_weights_file_in_an_experiment_names_the_experiments_line(capsys, tmp_path,
                                                                        monkeypatch, content,
                                                                        first):
    """The same: a missing or broken weights file gave the weights file alone, not the
    experiment line that names it. One line, naming both."""
    exp = _experiment_beside(tmp_path, "wnan.toml")
    if content is not None:
        (exp.parent / "wnan.toml").write_text(content, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "validate", str(CATALOGUE.root), "--experiment", str(exp))
    assert code == 2 and err.splitlines() == [
        "error: " + first.format(exp=exp, folder=Path("exp") if content else exp.parent)], err
