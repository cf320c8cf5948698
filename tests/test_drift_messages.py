"""What the drift gate tells CI and the developer (the audit of its drift gate): a baseline
shorter than the gate's floor is refused, one shorter than its cap is said and its cap named;
the footer and the advice give the real limits; ``--update`` prints the new win rates; JUnit
marks an inconclusive gate as an error; a card file changed only by a comment or a note is
text only (the recorded games replay exactly), and a changed number is not. Small suites (a
256-game baseline) keep it cheap."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sim.analysis.paired import DRIFT_UP, NO_DRIFT, OPEN, PairedDrift
from sim.runner.drift import GateResult, MetricResult
from tests._cli_kit import run
from tests._drift_kit import private_lab, recount_metrics

ROOT = Path(__file__).resolve().parents[1]
FLOOR, CAP = 64, 256  # the small suite's min_games and max_games


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """Private cards, a suite with min_games 64 and max_games 256, and its full baseline. Its
    matchup has 64 boards, all that 256 games in duplicate seating (4 a board) play: at 128 each
    gate built 64 boards it never played (about 40 ms each, most of a 64-game gate's time). The
    games are the same games (game g is on board g // 4 either way; the baselines' games
    compared equal, winners, endings, lengths, lead changes and eliminations)."""
    return private_lab(tmp_path_factory.mktemp("drift_messages"),
                       {"max_games = 4096": f"max_games = {CAP}",
                        "min_games = 1024": f"min_games = {FLOOR}", "round = 128": "round = 64"},
                       {"boards = 128": f"boards = {CAP // 4}"})


def _gate(capsys, small, baseline, *extra):
    cards, suite, _ = small
    return run(capsys, "drift", "--cards", cards, "--suite", suite, "--baseline", baseline,
               "--quiet", *extra)


def test_a_comment_in_a_card_file_is_text_only_and_replays_the_recorded_games(capsys, small,
                                                                              tmp_path):
    """The card files differ only by a comment and a card's note: every matchup's arena gives
    the engine the same numbers (sim.runner.tasks.same_inputs), so the gate says the change is
    text only and pairs with the recorded games, which replay exactly (the same engine). It
    plays each game once: the baseline's cards are not replayed (once they were, and the
    command's journal then claimed to resume an interrupted run)."""
    from tests._cli_kit import eager_progress

    cards = Path(shutil.copytree(small[0], tmp_path / "cards"))
    with (cards / "rules.toml").open("a") as f:
        f.write("# a comment\n")
    path = cards / "characters.csv"
    rows = path.read_text(encoding="utf-8").splitlines()
    i = next(k for k, r in enumerate(rows) if r.startswith("Mario,"))
    rows[i] = rows[i].rsplit(",", 1)[0] + ",a note the engine never reads"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    code, out, err = _gate(capsys, (cards, small[1], None), small[2])
    assert code == 0, out
    assert ("changed since the baseline: characters.csv (Mario: notes Book worked example "
            "(Schedule I): defense 4 → a note the engine never reads), rules.toml, in text only "
            "(every matchup "
            "gives the engine the same numbers); the same engine. The baseline's games should "
            "replay exactly.") in out
    assert "resum" not in err, err
    with eager_progress():
        code, _, err = run(capsys, "drift", "--cards", cards, "--suite", small[1],
                           "--baseline", small[2])
    summary = [x for x in err.splitlines() if " games in " in x]
    assert summary and "resum" not in err, err
    assert summary[-1].split(": ")[-1].startswith(f"{FLOOR} games in "), summary


def test_a_changed_number_is_not_text_only(capsys, small, tmp_path):
    """One card's health changed: the arenas differ, so the baseline's cards are replayed."""
    cards = Path(shutil.copytree(small[0], tmp_path / "cards"))
    path = cards / "characters.csv"
    path.write_text(path.read_text(encoding="utf-8").replace("Mario,Video Games,Gold,mobility,"
                                                             "distance=3; free_water=0,1,5,2,160",
                                                             "Mario,Video Games,Gold,mobility,"
                                                             "distance=3; free_water=0,1,5,2,165"),
                    encoding="utf-8")
    code, out, _ = _gate(capsys, (cards, small[1], None), small[2])
    # which card and stat, not the file alone (the CI audit: the user had to diff the JSON copy)
    assert "changed since the baseline: characters.csv (Mario: max_health 160 → 165); the same " \
           "engine. Each game is paired with the baseline's cards replayed on the same seeds." \
           in out, out


def test_the_changed_rows_of_a_card_table_are_named():
    """csv_changes: a changed cell, a new row and a removed one, keyed by the name column; a
    long list ends with how many more; a text that is no table names nothing."""
    from sim.runner.drift_baseline import csv_changes

    before = "name,max_health,defense\nMario,160,4\nLuffy,200,4\nOld,1,1\n"
    now = "name,max_health,defense\nLuffy,200,5\nMario,150,4\nNew Kid,90,3\n"
    assert csv_changes(before, now) == ["row Old removed", "Luffy: defense 4 → 5",
                                        "Mario: max_health 160 → 150", "new row New Kid"]
    assert csv_changes(before, now, limit=2) == ["row Old removed", "Luffy: defense 4 → 5",
                                                 "2 more"]
    assert csv_changes("", now) == []

def _shortened(baseline: Path, games: int, into: Path) -> Path:
    """A copy of ``baseline`` holding only its first ``games`` games (as ``--update --games``
    writes one)."""
    data = json.loads(baseline.read_text())
    recount_metrics(data, "example", games)
    entry = data["matchups"]["example"]
    entry["games"] = games
    for key in ("winners", "outcomes"):
        entry[key] = entry[key][:games]
    for key in ("rotations", "lead_changes", "eliminated"):
        entry[key] = " ".join(entry[key].split()[:games])
    into.write_text(json.dumps(data))
    return into


def test_a_baseline_shorter_than_the_floor_is_refused_before_any_game(capsys, small, tmp_path):
    """It once gated on its 32 games (the floor silently lowered to them) and passed."""
    short = _shortened(small[2], 32, tmp_path / "short.json")
    code, out, err = _gate(capsys, small, short)
    assert code == 2 and out == "", out
    (line,) = err.strip().splitlines()
    assert line.startswith(f"error: {short}: matchups.example.games: 32 games, fewer than the "
                           f"suite's min_games {FLOOR}"), line
    assert "`bwlab drift --update`" in line and "--games 32" in line
    # lowered knowingly with --games: gated, and the floor and cap said are --games's
    code, out, err = _gate(capsys, small, short, "--games", 32)
    assert code == 0, out + err
    assert "32 games used of at most 32 (--games), no decision before 32 per matchup" in out


def test_a_baseline_shorter_than_the_cap_is_said_and_named_as_the_cap(capsys, small, tmp_path):
    """128 games against a cap of 256: a note on stderr before the games, the footer's cap is
    the baseline's, and the conclusion advises a longer --update."""
    short = _shortened(small[2], 128, tmp_path / "short.json")
    code, out, err = _gate(capsys, small, short)
    assert code == 0, out + err
    assert "note: the baseline holds 128 games of example, fewer than the 256 games" in err
    footer = next(x for x in out.splitlines() if x.startswith("Paired GSPRT"))
    assert ("64 games used of at most 128 (all the baseline holds; 256 asked), no decision "
            "before 64 per matchup") in footer, footer
    assert "1024" not in footer and "4096" not in footer
    last = out.strip().splitlines()[-1]
    assert last.startswith("No drift") and "holds fewer games than asked (example: 128 of 256)" \
        in last and "a longer `bwlab drift --update`" in last, last
    code, out, err = _gate(capsys, small, small[2])  # the full baseline: no note
    assert code == 0 and "note:" not in err and "fewer games" not in out
    assert "64 games used of at most 256 (the suite's max_games)" in out


def _result(limits, decision=OPEN) -> GateResult:
    test = PairedDrift(decision, 256, 64, 0.30, (0.25, 0.35), 0.34, (0.29, 0.39), 20.0,
                       (-5.0, 45.0), 1.0, -1.0, (-2.99, 5.02))
    return GateResult((MetricResult("example: Straw Hats", test),), (), 0.0125, (), False,
                      limits=tuple(limits))


def _limits(cap, by, asked, held, games=256):
    return {"matchup": "example", "floor": 64, "cap": cap, "capped_by": by, "asked": asked,
            "baseline_games": held, "games": games}


@pytest.mark.parametrize("limits,advice,wrong", [
    (_limits(256, "baseline", 4096, 256), "The cap was the baseline's own length (256 games of "
     "example): to play on, rewrite the baseline with a longer `bwlab drift --update`",
     "max_games"),
    (_limits(256, "--games", 256, 1024), "Raise --games (the baseline holds 1,024 games", "cap "
     "was the baseline"),
    (_limits(256, "--games", 256, 256), "The cap was the baseline's own length", "Raise --games"),
    (_limits(256, "max_games", 256, 256), "Raise max_games in the suite and rewrite the "
     "baseline to that length", "--games"),
    (_limits(256, "max_games", 256, 1024), "Raise max_games in the suite (the baseline holds "
     "1,024 games", "rewrite"),
])
def test_the_inconclusive_advice_names_the_limit_that_stopped_the_gate(limits, advice, wrong):
    """Raising max_games cannot help when the baseline holds fewer games (each game is paired
    with the baseline's): the advice once said so whatever the limit was."""
    from sim.cli.drift import _conclusion

    text = _conclusion(_result([limits]))
    assert text.startswith("Inconclusive at the game cap: example: Straw Hats (exit 3).")
    assert advice in text and wrong not in text, text


def test_update_prints_the_new_baselines_win_rates_with_their_intervals(capsys, small,
                                                                       tmp_path, monkeypatch):
    """Text --update printed only the balance metrics; the rates the commit should cite were in
    the JSON alone. Each metric's line shows the rate the file records, inside its interval.
    The JSON run renders the text run's baseline (``make_baseline`` memoised: the same inputs
    play the same games), so its 64 games and their boards are played once."""
    import sim.runner.drift as drift

    real, made = drift.make_baseline, []

    def once(*args, **kwargs):
        if not made:
            made.append(real(*args, **kwargs))
        return made[0]

    monkeypatch.setattr(drift, "make_baseline", once)
    cards, suite, _ = small
    new = tmp_path / "new.json"
    code, out, _ = run(capsys, "drift", "--cards", cards, "--suite", suite, "--baseline", new,
                       "--update", "--games", 64, "--quiet")
    assert code == 0
    rates = json.loads(new.read_text())["metrics"]
    assert len(rates) == 4
    for name, entry in rates.items():
        (line,) = [x for x in out.splitlines() if x.startswith(name)]
        rate, lo, hi, games, boards = re.fullmatch(
            r".* ([\d.]+) \(\s*([\d.]+)–([\d.]+)\)\s+(\d+)\s+(\d+)", line).groups()
        assert rate == f"{100 * entry['rate']:.1f}" and float(lo) < float(rate) < float(hi)
        assert (int(games), int(boards)) == (64, 16), line  # duplicate: 4 games a board
    code, out, _ = run(capsys, "drift", "--cards", cards, "--suite", suite, "--baseline", new,
                       "--update", "--games", 64, "--quiet", "--format", "json")
    doc = json.loads(out)["metrics"]
    assert {n: d["rate"] for n, d in doc.items()} == {n: d["rate"] for n, d in rates.items()}
    assert all(d["interval"][0] < d["rate"] < d["interval"][1] for d in doc.values())


def test_junit_marks_an_inconclusive_gate_as_an_error_not_skipped():
    """Exit 3 is a red job: its JUnit is an error with the metric, so CI's test view agrees
    (it was <skipped>, counted as neither failed nor passed)."""
    from sim.report.drift_junit import junit_xml

    root = ET.fromstring(junit_xml(_result([_limits(256, "max_games", 256, 256)])))
    assert (root.get("errors"), root.get("failures"), root.get("skipped")) == ("1", "0", "0")
    (error,) = root.iter("error")
    assert "inconclusive" in error.get("message") and "exit 3" in error.get("message")
    assert error.text.startswith("example: Straw Hats: 0.3000 -> 0.3400") and "256 games" in \
        error.text
    assert not list(root.iter("skipped"))
    drifted = ET.fromstring(junit_xml(_result([_limits(256, "max_games", 256, 256)], DRIFT_UP)))
    assert (drifted.get("errors"), drifted.get("failures")) == ("0", "1")
    clean = ET.fromstring(junit_xml(_result([_limits(256, "max_games", 256, 256)], NO_DRIFT)))
    assert (clean.get("errors"), clean.get("failures")) == ("0", "0")


@pytest.mark.parametrize("value, message", [
    ('["a\\u0000b"]', "'a\\x00b' contains a control character"),
    ("5", "expected a list, got 5"),
    ("[]", "list at least one experiment file"),
])
@pytest.mark.parametrize("command", ["drift", "validate"])
def test_a_bad_experiments_list_is_one_line(capsys, tmp_path, value, message, command):
    """A suite whose ``experiments`` held a control character was two lines for one problem
    (the character, then "list at least one experiment file" for the list the loader then
    dropped); so were ``experiments = 5`` and a missing list. One line now, from ``drift
    --update`` as from ``validate`` (the audit of 2026-12), and no baseline written."""
    text = (ROOT / "experiments" / "drift.toml").read_text(encoding="utf-8")
    suite = tmp_path / "suite.toml"
    suite.write_text(text.replace('["matchups/example.toml"]', value), encoding="utf-8")
    baseline = tmp_path / "b.json"
    argv = (["drift", "--suite", suite, "--update", "--baseline", baseline, "--games", "8"]
            if command == "drift" else ["validate", "--experiment", suite])
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.splitlines() == [f"error: {suite}:10: experiments: {message}"], err
    assert not baseline.exists()


def test_a_stray_file_that_is_not_utf8_is_a_changed_file_not_an_internal_error(capsys, small,
                                                                             tmp_path):
    """A notes file in another encoding beside the cards (``old_notes.csv``, Latin-1): validate
    said "ok" of the folder, and drift --update was "internal error: UnicodeDecodeError" naming
    no file (the audit of 2026-12). No loader reads it, so both accept it: the gate names it as
    a change in text only, and a new baseline records its digest (of its bytes) with no copy."""
    cards = Path(shutil.copytree(small[0], tmp_path / "cards"))
    (cards / "old_notes.csv").write_bytes(b"name,x\ncaf\xe9,1\n")
    code, out, err = _gate(capsys, (cards, small[1], None), small[2])
    assert code == 0, out + err
    assert "changed since the baseline: old_notes.csv (added), in text only" in out, out
    assert run(capsys, "validate", cards)[0] == 0
    baseline = tmp_path / "b.json"
    code, _, err = _gate(capsys, (cards, small[1], None), baseline, "--update", "--games",
                         FLOOR)
    assert code == 0, err
    data = json.loads(baseline.read_text())
    digest = hashlib.sha256((cards / "old_notes.csv").read_bytes()).hexdigest()
    assert data["cards"]["old_notes.csv"] == digest and "old_notes.csv" not in data["card_files"]
    assert set(data["card_files"]) == set(data["cards"]) - {"old_notes.csv"}


def test_a_drift_says_how_far_each_metric_moved_and_which_are_still_open():
    """The CI audit: "Drift: win rates moved: example: Pixel Party." named the metric but not how
    far it moved, and said nothing of the metrics the cap left open (Straw Hats at +77 Elo,
    inconclusive, beside Pixel Party's drift): exit 1 hid them. Each drifted metric now carries
    its rates and Elo change, and the open ones are named."""
    from sim.analysis.paired import DRIFT_DOWN
    from sim.cli.drift import _conclusion

    down = PairedDrift(DRIFT_DOWN, 100, 25, 0.382, (0.285, 0.488), 0.26, (0.165, 0.375), -99.0,
                       (-155.0, -40.0), -16.1, 6.6, (-2.99, 5.02))
    open_ = PairedDrift(OPEN, 100, 25, 0.232, (0.16, 0.319), 0.32, (0.218, 0.436), 77.0,
                        (16.0, 136.0), 3.0, -6.1, (-2.99, 5.02))
    result = GateResult((MetricResult("example: Straw Hats", open_),
                         MetricResult("example: Pixel Party", down)), (), 0.0125, (), False,
                        limits=(_limits(100, "--games", 100, 1024, games=100),))
    assert result.exit_code == 1
    text = _conclusion(result)
    assert "win rates moved: example: Pixel Party 38.2 % → 26.0 % (-99 Elo)" in text, text
    assert "Not decided at the game cap (neither moved nor shown still): example: Straw Hats" \
        in text, text


@pytest.mark.parametrize("edited, changes", [
    ("cli/drift.py", False),          # a help text: the games are the same games
    ("report/summary.py", False),
    ("analysis/paired.py", False),    # the statistics of a verdict, not a game
    ("engine/rules/turn.py", True),   # the game itself
    ("ai/greedy.py", True),           # the players
    ("runner/tasks.py", True),        # the deals and seeds
    ("catalogue/loader.py", True),    # how the cards are read
])
def test_the_engine_digest_changes_when_a_game_can(tmp_path, edited, changes):
    """The baseline's engine digest (``drift_baseline.engine_digest``) covers the source that
    decides the games: an edit to the CLI's help made the gate say "the engine changed" (and
    judge the baseline's games as other games) until ``--update`` (stop 68's note)."""
    from sim.runner.drift_baseline import engine_digest

    copy = tmp_path / "sim"
    shutil.copytree(ROOT / "sim", copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = engine_digest(copy)
    with open(copy / edited, "a", encoding="utf-8") as f:
        f.write("\n# an edit\n")
    assert (engine_digest(copy) != before) == changes
    assert engine_digest(ROOT / "sim") == engine_digest()  # the package's own, by default


def test_an_entry_of_a_baseline_section_that_is_not_a_table_is_one_line_each():
    """A hand-edited baseline whose matchup, metric and combat entries are not tables: one line
    per entry naming its section and key (drift_baseline_checks._tables), and nothing else said
    of them (their fields are not checked as if they were tables)."""
    from sim.catalogue.diagnostics import InputError
    from sim.runner.drift_baseline_checks import validate_baseline

    path = Path(__file__).resolve().parents[1] / "reports" / "baseline.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    keys = {}
    for section, bad in (("matchups", [1]), ("metrics", 3), ("combat", "x")):
        keys[section] = next(iter(data[section]))
        data[section][keys[section]] = bad
    with pytest.raises(InputError) as caught:
        validate_baseline(data, path)
    lines = str(caught.value).splitlines()
    for section, key in keys.items():
        named = [line for line in lines if f"{section}.{key}" in line]
        assert named == [f"{path}: {section}.{key}: must be a table"], named


def test_a_card_file_removed_or_added_since_the_baseline_is_said_so():
    """Removing peers.toml (a file the gate's games never read) read "changed since the
    baseline: peers.toml, in text only" (the drift audit of stop 77): the file is gone, not
    changed. Now "peers.toml (removed)"; a new file "(added)"; an edited table keeps its rows'
    changes."""
    from sim.runner.drift_baseline import changed_files_text

    baseline = {"cards": {"peers.toml": "a", "characters.csv": "b"},
                "card_files": {"peers.toml": "x = 1\n", "characters.csv": "name,hp\nA,1\n"}}
    now = {"characters.csv": "c", "notes.csv": "d"}
    texts = {"characters.csv": "name,hp\nA,2\n", "notes.csv": "n\n"}
    said = changed_files_text(baseline, texts, ["characters.csv", "notes.csv", "peers.toml"], now)
    assert said == "characters.csv (A: hp 1 → 2), notes.csv (added), peers.toml (removed)"
