"""Progress on every long command (issue #23 item 1: "One shared progress line on stderr (stage,
games done of total, rate, time left) for every command that runs longer than about two seconds
...; nothing on stdout, so --format json stays clean; --quiet silences it"), and progress is
bit-neutral: the results are identical with and without it, whatever the thread count (README
"Randomness": every game's dice from its own child seed).

Each command runs once with tiny settings and the line made eager (no 2 s delay: the runs are
short), and once with --quiet; stdout must parse (JSON) or read the same either way."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numba
import pytest

from tests._cli_kit import eager_progress, run

ROOT = Path(__file__).resolve().parents[1]
TEAMS = ROOT / "experiments/teams/example.toml"
# a timed count, an untimed one (parts of unequal length: report's), a closing line, a stage
# with no total
LINE = re.compile(r"^(\S[\w-]*): .*(\d+(/| of at most )[\d,]+ \w+, .*/s, .* so far, .*left"
                  r"|\d+/[\d,]+ \w+, [^,]* so far"
                  r"|[\d,]+ \w+ in .*|done in .*|\(\d.* so far\))$")


def tiny_lab(lab: Path) -> None:
    """cards/ with the Power Levels' pool experiment made tiny (4 boards, not 64)."""
    import shutil

    shutil.copytree(ROOT / "cards", lab / "cards")
    (lab / "experiments").mkdir()
    (lab / "experiments/pool.toml").write_text(TINY_POOL, encoding="utf-8")
    budget = lab / "cards/arena_budget.toml"
    text = budget.read_text(encoding="utf-8")
    assert 'experiment = "experiments/rarity.toml"' in text
    budget.write_text(text.replace('experiment = "experiments/rarity.toml"',
                                   'experiment = "experiments/pool.toml"'), encoding="utf-8")


def progress_lines(err: str, command: str) -> list[str]:
    return [ln for ln in err.splitlines() if ln.startswith(f"{command}: ")]


def without_seconds(doc):
    """A JSON document without its wall-clock fields (the only ones that may differ):
    ``seconds``, and rulings' ``seconds_per_study``."""
    if isinstance(doc, dict):
        return {k: without_seconds(v) for k, v in doc.items() if not k.startswith("seconds")}
    if isinstance(doc, list):
        return [without_seconds(v) for v in doc]
    return doc


TINY_POOL = """name = "tiny-pool"
games = 64
root_seed = 5
batch_size = 64
boards = 4
policies = ["greedy"]
seating = "duplicate"

[pool]
cards = "all"
draw = "random"
"""

# command, arguments (tiny; {tmp}: the test's folder), the stage the line must name, JSON stdout
CASES = [
    ("fairness", [TEAMS, "--games", "16", "--round", "8", "--boards", "2", "--format", "json"],
     "duplicate play of the four teams", True),
    ("rarity", ["--experiment", "{tmp}/pool.toml", "--ablation", "1", "--format", "json",
                "--out", "{tmp}"], "ablation", True),
    ("ladder", ["--games", "8", "--players", "random,greedy", "--boards", "2", "--format", "json"],
     "round robin > greedy vs 3 × random", True),
    ("power-levels", ["--games", "64", "--format", "json", "--out", "{tmp}/levels.csv",
                      "--cards", "{tmp}/lab/cards"], "Power Levels: pool games", True),
    ("draft", ["--random", "20", "--games", "8", "--no-alternating", "--proposals", "1",
               "--format", "json"], "confirming the fairest split by play", True),
    ("combat", ["--attacks", "8", "--tier", "2", "--defense", "4", "--samples", "300000",
                "--format", "json"], "sampling attacks", True),
    ("run", [ROOT / "experiments/smoke.toml", "--games", "16", "--jobs", "1", "--out",
             "{tmp}/run-{n}"], "playing smoke", False),
    ("play", ["--teams", TEAMS, "--seed", "1"], "playing the game (greedy)", False),
    ("report", ["--out", "{tmp}/report-{n}", "--teams", TEAMS, "--fairness-games", "8",
                "--rating-games", "0"], "building the report > duplicate play", False),
    ("compare-systems", ["--system", "boardwars", "--out", "{tmp}/compare-{n}"],
     "systems × stat levels", False),
]


@pytest.mark.parametrize("command, args, stage, is_json", CASES, ids=[c[0] for c in CASES])
def test_progress_goes_to_stderr_only_and_quiet_silences_it(capsys, monkeypatch, tmp_path,
                                                           command, args, stage, is_json):
    (tmp_path / "pool.toml").write_text(TINY_POOL, encoding="utf-8")
    if command == "power-levels":  # its pool experiment comes from cards/arena_budget.toml
        tiny_lab(tmp_path / "lab")
    eager_progress(monkeypatch)
    runs = []
    for n, quiet in enumerate(([], ["--quiet"])):  # a run folder takes one run: one each
        argv = [str(a).replace("{tmp}", str(tmp_path)).replace("{n}", str(n)) for a in args]
        code, out, err = run(capsys, command, *argv, *quiet)
        assert code in (0, 1, 3), err
        for name in ("run", "report", "compare"):
            out = out.replace(f"{name}-{n}", f"{name}-n")
        runs.append((code, out, err))
    (code, out, err), (code_q, out_q, err_q) = runs
    lines = progress_lines(err, command)
    assert any(ln.startswith(f"{command}: {stage}") for ln in lines), err
    assert all(LINE.match(ln) for ln in lines), [ln for ln in lines if not LINE.match(ln)]
    assert not progress_lines(err_q, command)            # --quiet: no progress at all
    assert f"{command}: " not in out                      # stdout: results only
    assert code == code_q
    if is_json:
        assert without_seconds(json.loads(out)) == without_seconds(json.loads(out_q))
    else:
        assert out == out_q


def test_the_line_gives_done_of_total_rate_and_time_left_while_games_play(capsys, monkeypatch):
    eager_progress(monkeypatch)
    code, out, err = run(capsys, "fairness", TEAMS, "--games", "64", "--round", "32",
                         "--format", "json")
    json.loads(out)
    counts = [ln for ln in progress_lines(err, "fairness") if "left" in ln]
    assert counts, err
    assert re.search(r"\d+ of at most 64 games, [\d.,]+ games/s, \d+ s so far, at most .* left",
                     "\n".join(counts)), counts
    # the closing summary: 32 games when the first look settles the verdict, else 64
    assert re.match(r"fairness: duplicate play of the four teams: (32|64) games in ",
                    progress_lines(err, "fairness")[-1]), err


def test_results_do_not_depend_on_progress_or_the_thread_count():
    """The chunked engine calls behind the line (sim/runner/playing.py), on every thread, give
    the very rows of one engine call on one thread (no session, or --quiet: no chunking)."""
    import io

    import numpy as np

    from sim.catalogue.loader import load_catalogue
    from sim.engine.state.fields import POLICY_IDS
    from sim.runner import progress
    from sim.runner.experiment import load_experiment
    from sim.runner.tasks import build_arena, play_games, replay_winners

    catalogue = load_catalogue(ROOT / "cards")
    exp = load_experiment(ROOT / "experiments/rarity.toml", catalogue.cards, tuple(POLICY_IDS),
                          games=40)
    arena = build_arena(catalogue, exp)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        alone = play_games(arena, 3, 40)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        with progress.reporting("test", stream=io.StringIO()) as p:
            with progress.stage("games", 37 + 5):
                watched = play_games(arena, 3, 40)
                games = np.array([39, 4, 17, 17, 30])       # chosen games, any order
                teams = np.stack([alone[f"seat{s + 1}_card{k + 1}"] for s in range(4)
                                  for k in range(5)], 1).reshape(-1, 4, 5)[games - 3][:, ::-1]
                replayed = replay_winners(arena, games, teams)
            assert p.stages == []
    finally:
        numba.set_num_threads(before)
    assert set(alone) == set(watched)
    for name in alone:
        np.testing.assert_array_equal(alone[name], watched[name], err_msg=name)
    np.testing.assert_array_equal(replayed, replay_winners(arena, games, teams))


# every command that plays games or samples, beside CASES' own: those with no case there
THREAD_CASES = CASES + [
    ("rulings", ["--games", "16", "--boards", "2", "--rating-games", "0", "--only",
                 "dice.tier_faces", "--format", "json"], None, True),
    ("combat", ["--system", "arena", "--samples", "200000", "--seed", "1", "--format", "json"],
     None, True),
    ("compare-systems", ["--samples", "20000", "--seed", "3", "--out", "{tmp}/compare-{n}"],
     None, False),
    ("drift", ["--baseline", "{tmp}/baseline.json", "--games", "16", "--cards", "{tmp}/lab/cards",
               "--format", "json"], None, True),  # the cards changed: the baseline replayed
]


@pytest.mark.parametrize("command, args, stage, is_json",
                         [c for c in THREAD_CASES if c[0] != "run"],
                         ids=[c[0] + ("-samples" if "--samples" in c[1] and c[0] != "combat"
                                      else "-arena" if "arena" in c[1] else "")
                              for c in THREAD_CASES if c[0] != "run"])
def test_every_command_prints_the_same_on_one_engine_thread_or_two(capsys, monkeypatch, tmp_path,
                                                                  command, args, stage, is_json):
    """The standard, command by command ("bit-identical results whatever the number of
    workers"): stdout (and the files written) on one Numba thread, with the journal and the
    chunked play behind the progress line, equals stdout on two threads with neither (--quiet,
    ``BWLAB_JOURNAL=off``: the engine's own single call). ``run`` plays one thread per job
    (tests/test_runner.py compares its --jobs and backends)."""
    assert numba.config.NUMBA_NUM_THREADS >= 2, "conftest.py gives every machine two threads"
    (tmp_path / "pool.toml").write_text(TINY_POOL, encoding="utf-8")
    if command in ("power-levels", "drift"):
        tiny_lab(tmp_path / "lab")
    if command == "drift":  # a baseline of the shipped cards; the gate runs on the lab's copy
        code, _, err = run(capsys, "drift", "--baseline", tmp_path / "baseline.json", "--update",
                           "--games", "16", "--quiet")
        assert code == 0, err
        with open(tmp_path / "lab/cards/characters.csv", "a", encoding="utf-8") as f:
            f.write("\n")  # another file digest, the same cards
    before, runs = numba.get_num_threads(), []
    try:
        for n, (threads, extra) in enumerate(((1, []), (2, ["--quiet"]))):
            if extra:
                monkeypatch.setenv("BWLAB_JOURNAL", "off")
            numba.set_num_threads(threads)
            argv = [str(a).replace("{tmp}", str(tmp_path)).replace("{n}", str(n)) for a in args]
            code, out, err = run(capsys, command, *argv, *extra)
            assert code in (0, 1, 3), err
            for name in ("report", "compare"):
                out = out.replace(f"{name}-{n}", f"{name}-n")
            runs.append((code, json.loads(out) if is_json else out, _written(tmp_path, n)))
    finally:
        numba.set_num_threads(before)
    (code1, out1, files1), (code2, out2, files2) = runs
    assert code1 == code2
    if is_json:
        assert without_seconds(out1) == without_seconds(out2)
    else:
        assert out1 == out2
    assert files1 == files2


def _written(tmp_path: Path, n: int) -> dict:
    """The files run ``n`` of a command left in ``tmp_path`` (its own ``NAME-n`` folders, and
    the files both runs write in place), by name; not report.html, whose footer holds the time
    it was made."""
    files = {}
    for p in sorted(tmp_path.rglob("*")):
        parts = p.relative_to(tmp_path).parts
        if (p.is_file() and parts[0] not in ("lab", "pool.toml") and p.suffix != ".html"
                and not parts[0].endswith(f"-{1 - n}")):
            files["/".join(parts).replace(f"-{n}/", "-n/")] = p.read_bytes()
    return files


def test_the_drift_gate_shows_its_matchups_and_quiet_silences_them(capsys, monkeypatch, tmp_path):
    """``drift`` had its own --quiet; it now silences the shared line, and the gate's verdict on
    stdout is the same either way."""
    eager_progress(monkeypatch)
    baseline = tmp_path / "baseline.json"
    code, out, err = run(capsys, "drift", "--baseline", baseline, "--update", "--games", "16")
    assert code == 0 and "drift: matchup example" in err and "drift:" not in out
    gate = ["drift", "--baseline", baseline, "--games", "16"]
    code, out, err = run(capsys, *gate)
    code_q, out_q, err_q = run(capsys, *gate, "--quiet")
    assert code == code_q == 0, err
    assert any(LINE.match(ln) for ln in progress_lines(err, "drift"))
    assert not progress_lines(err_q, "drift") and out == out_q


def test_quiet_compiles_a_cold_engine_without_a_word(capsys, monkeypatch):
    """The first-run compile stage ("compiling the engine (once for this source)") is progress
    too."""
    from sim.runner import warm as warm_module

    calls = []

    def fake_warm(stream=None, verbose=True, on_part=None):
        calls.append(stream)
        on_part("turn", 1.0)
        return 1.0

    monkeypatch.setattr(warm_module, "is_warm", lambda: False)
    monkeypatch.setattr(warm_module, "warm", fake_warm)
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    eager_progress(monkeypatch)
    code, out, err = run(capsys, "play", "--seed", "1", "--quiet")
    assert code == 0 and len(calls) == 1 and err == ""   # compiled, without a word
    code, out, err = run(capsys, "play", "--seed", "1")
    assert len(calls) == 2 and "compiling the game engine" in err
    assert "play: compiling the engine (once for this source): 1/5 parts" in err


# -- the gaps of the progress audit: each long step a stage with done/total -------------------


def test_building_the_boards_is_a_stage_counted_in_boards(capsys, monkeypatch):
    """The boards are built before the first game (3-9 s for a matchup's 64-128); ``drift``,
    ``report`` and ``rarity --remedy`` were silent all that time. board_setups is now a stage
    of its own, whoever calls it."""
    eager_progress(monkeypatch)
    code, out, err = run(capsys, "fairness", TEAMS, "--games", "16", "--round", "8",
                         "--boards", "2", "--format", "json")
    json.loads(out)
    assert re.search(r"^fairness: building the boards: 1/2 boards, .*/s, .* so far, .*left$",
                     err, re.M), err
    assert "fairness: building the boards: 2 boards in " in err


def test_peer_combat_samples_in_blocks_counted_into_the_line(capsys, monkeypatch):
    """``combat --system NAME --samples N`` was one kernel call, silent for its 7-10 s at 10^8
    samples; it now samples in blocks (here one chunk each: BLOCK_CHUNKS patched small) and
    counts them."""
    from sim.combat.peers import registry

    eager_progress(monkeypatch)
    monkeypatch.setattr(registry, "BLOCK_CHUNKS", 1)
    code, out, err = run(capsys, "combat", "--system", "arena", "--samples", "196613",
                         "--format", "json")
    assert code == 0 and json.loads(out)["samples"] == 196613
    assert re.search(r"^combat: sampling attacks: 65,536/196,613 attacks, .* left$", err,
                     re.M), err
    assert "combat: sampling attacks: 196,613 attacks in " in err


@pytest.mark.parametrize("system", ["arena", "dungeon_twister", "eight_masters"])
def test_peer_blocks_give_the_single_calls_numbers_bit_for_bit(monkeypatch, system):
    """Blocks of one chunk, and a last block cut short, against one sampler call: the same
    rows (each block continues the stream: ``first_chunk``), and :func:`describe`'s very
    result, its keys in its order."""
    import numpy as np

    from sim.catalogue.loader import default_cards_dir
    from sim.catalogue.peers import load_peers
    from sim.combat.peers import registry

    peers = load_peers(default_cards_dir())
    stats = registry.stats_for(system, peers.examples[system], {}, peers, None)
    rules, n = getattr(peers, system), 3 * 65536 + 77
    whole = registry.SYSTEMS[system].sample(stats, rules, n, 11)
    described = registry.describe(system, stats, rules, n, 11)  # one block
    monkeypatch.setattr(registry, "BLOCK_CHUNKS", 1)
    told = []
    blocked = registry.sample_blocks(system, stats, rules, n, 11, told.append)
    assert told == [65536, 65536, 65536, 77]
    np.testing.assert_array_equal(blocked.damage, whole.damage)
    np.testing.assert_array_equal(blocked.killed, whole.killed)
    assert list(registry.describe(system, stats, rules, n, 11).items()) == list(described.items())


def test_the_combat_chart_is_a_stage_of_three_steps(capsys, monkeypatch, tmp_path):
    """``combat --png`` spent 4-5 s on its figure (loading matplotlib, laying out, writing)
    with nothing on stderr."""
    eager_progress(monkeypatch)
    code, out, err = run(capsys, "combat", "--attacks", "8", "--tier", "2", "--defense", "4",
                         "--png", tmp_path / "chart.png")
    assert code == 0 and (tmp_path / "chart.png").stat().st_size > 0
    assert re.search(r"^combat: drawing the figure: 1/3 steps, \d+ s so far$", err, re.M), err
    assert "combat: drawing the figure: 3 steps in " in err


def test_the_reports_sections_without_games_are_counted(capsys, monkeypatch, tmp_path):
    """After its last game, ``report`` drew its figures and tables for ~3.6 s under
    "building the report (11 s so far)" alone: now each section is a step, with a time left."""
    eager_progress(monkeypatch)
    code, out, err = run(capsys, "report", "--out", tmp_path / "r", "--teams", "",
                         "--rating-games", "0")
    assert code == 0, err
    assert re.search(r"^report: building the report > sections without games: 1/3 sections, "
                     r".*/s, .* so far, .*left$", err, re.M), err
    assert "report: building the report > sections without games: 3 sections in " in err
