"""The CI drift gate (issue #19 item 4): unchanged data passes on its own baseline, a meaningful
change to one card fails, a dice-rule change is named, the baseline names what differs, and every
bad input (a corrupted baseline, an unwritable --junit path, a crash) exits 2, never 1."""

from __future__ import annotations

import json
import os
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from sim.cli.main import main
from tests._drift_kit import private_lab

ROOT = Path(__file__).resolve().parents[1]
QUICK = 1024  # games per matchup in these tests (the shipped suite caps at 4096)


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A private copy of cards/ and experiments/ and a baseline made from them (cap 1024 games)."""
    return private_lab(tmp_path_factory.mktemp("drift"), {"max_games = 4096":
                                                          f"max_games = {QUICK}"})


@pytest.fixture
def lab(made, tmp_path):
    """The made lab copied afresh for each test (tests edit cards and the baseline)."""
    cards, suite, baseline = made
    new_cards = Path(shutil.copytree(cards, tmp_path / "cards"))
    new_baseline = tmp_path / "baseline.json"
    shutil.copy(baseline, new_baseline)
    return new_cards, suite, new_baseline


def gate(capsys, cards, suite, baseline, *extra):
    code = main(["drift", "--cards", str(cards), "--suite", str(suite), "--baseline",
                 str(baseline), "--quiet", *map(str, extra)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def _captured_gate(cards, suite, baseline, *extra):
    """``gate`` for a module fixture (no capsys there): stdout and stderr caught around it, and
    the games journal in a folder of its own beside the lab (a module fixture runs before the
    conftest's per-test journal folder is set: tests/conftest.py::own_games_journal)."""
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            pytest.MonkeyPatch.context() as m:
        if os.environ.get("BWLAB_JOURNAL", "").lower() != "off":
            m.setenv("BWLAB_JOURNAL", str(Path(baseline).parent / "journal"))
        code = main(["drift", "--cards", str(cards), "--suite", str(suite), "--baseline",
                     str(baseline), "--quiet", *map(str, extra)])
    assert "Traceback" not in out.getvalue() + err.getvalue()
    return code, out.getvalue(), err.getvalue()


def _lab_copy(made, folder: Path):
    cards, suite, baseline = made
    folder.mkdir(parents=True, exist_ok=True)
    new_cards = Path(shutil.copytree(cards, folder / "cards"))
    new_baseline = folder / "baseline.json"
    shutil.copy(baseline, new_baseline)
    return new_cards, suite, new_baseline


@pytest.fixture(scope="module")
def unchanged(made, tmp_path_factory):
    """The gate once on an unchanged copy of the lab at the suite's own bounds (1,024 games),
    with --junit: read by the test of an unchanged lab and by the --games floor test (the note
    is absent without --games), which each played these same games before."""
    folder = tmp_path_factory.mktemp("unchanged")
    cards, suite, baseline = _lab_copy(made, folder)
    junit = folder / "ok.xml"
    return (*_captured_gate(cards, suite, baseline, "--junit", junit), junit)


@pytest.fixture(scope="module")
def boosted(made, tmp_path_factory):
    """The gate once after Luffy's boost (a card stat change), with --junit, counting the board
    set-ups it builds: read by the drift-up test and the boards-built-once test, which each
    played these same games before. Returns (code, out, junit path, boards built, cards
    before the boost, cards after, suite)."""
    from sim.catalogue.loader import load_catalogue
    from sim.runner import tasks

    folder = tmp_path_factory.mktemp("boosted")
    cards, suite, baseline = _lab_copy(made, folder)
    original = load_catalogue(cards)
    _boost_luffy(cards)
    built = []
    real = tasks.board_setups
    with pytest.MonkeyPatch.context() as m:
        m.setattr(tasks, "board_setups",
                  lambda *a, **k: built.append(a[3] - a[2]) or real(*a, **k))
        code, out, _ = _captured_gate(cards, suite, baseline, "--junit", folder / "bad.xml")
    return code, out, folder / "bad.xml", built, original, cards, suite


def metric_lines(out: str, team: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith(f"example: {team}")]


def test_an_unchanged_lab_passes_on_its_own_baseline_at_the_first_decision(unchanged):
    code, out, _, junit = unchanged
    assert code == 0, out
    assert "same cards, same engine" in out
    # identical replay: every paired difference is 0, so each metric settles at min_games (1,024)
    for team in ("Straw Hats", "Pixel Party"):
        (line,) = metric_lines(out, team)
        assert line.split()[-2:] == ["1024", "no_drift"], line
        assert "+0 (+0…+0)" in line, line
    assert ET.parse(junit).getroot().get("failures") == "0"
    # issue #21 item 3: the balance metrics now and in the baseline, paired: an exact replay
    # changes no ending, length or lead count, and the metrics never decide the exit code
    assert "Balance metrics of example (1,024 games; informational" in out
    change = out[out.index("  change (paired on the same seeds"):].splitlines()[1:8]
    assert len(change) == 7 and all("Δ +0.0" in line or "Δ +0.00" in line for line in change)
    assert out.strip().splitlines()[-1].startswith("No drift")
    assert "How games end moved" not in out


def test_a_rotation_cap_that_moves_how_games_end_is_named_in_the_verdict(capsys, lab,
                                                                          monkeypatch):
    """The audit of stop 55: `rotation_cap` cut from 60 to 20 (cards/rules.toml, "a rotation cap
    so every simulated game ends", docs/rulings.md) moved the games ended by the cap by about
    +45 points, and the verdict said only "No drift" (win rates). The endings that moved are now
    named in the last line and starred above it, Holm over every matchup's endings at the
    suite's alpha; still informational: the exit code stays the win-rate test's."""
    import sim.runner.drift as drift

    real, results = drift.run_gate, []

    def once(*args, **kwargs):  # the JSON run below renders this same gate's result: the same
        # inputs replay the same games, so they are played (twice over: today's cards and the
        # baseline's) once, not twice (22 s -> 12 s)
        if not results:
            results.append(real(*args, **kwargs))
        return results[0]

    monkeypatch.setattr(drift, "run_gate", once)
    cards, suite, baseline = lab
    rules = cards / "rules.toml"
    text = rules.read_text(encoding="utf-8")
    assert "rotation_cap = 60" in text
    rules.write_text(text.replace("rotation_cap = 60", "rotation_cap = 20"), encoding="utf-8")
    code, out, _ = gate(capsys, cards, suite, baseline)
    assert code in (0, 1, 3), out
    verdict = out.strip().splitlines()[-1]
    assert "How games end moved (informational, not the exit code" in verdict, verdict
    named = verdict.split("alpha): ")[1]
    assert named.startswith("example: ") and "rotation cap (most health wins) +" in named, named
    (starred,) = [line for line in out.splitlines() if "* rotation cap" in line]
    assert float(starred.split("Δ ")[1].split()[0]) > 20, starred
    # the JSON names them under the key `bwlab rulings` uses for the same thing
    _, doc, _ = gate(capsys, cards, suite, baseline, "--format", "json")
    (matchup,) = json.loads(doc)["balance"]
    from sim.analysis.balance_change import ENDING_WORDS
    assert "rotation cap (most health wins)" in [ENDING_WORDS[k] for k in
                                                 matchup["endings_changed"]], matchup
    assert set(matchup["endings_p_holm"]) == set(ENDING_WORDS)


def test_a_comment_or_reordered_keys_in_a_matchup_file_change_no_verdict(capsys, lab,
                                                                          tmp_path):
    """The audit of stop 56: a comment in experiments/matchups/example.toml, or its keys in
    another order, was refused (exit 2, "the matchup's file or teams changed since the
    baseline"): the baseline recorded the file's bytes. It records the file's values now
    (``content_digest``, as ``bwlab run`` resumes by), so the gate replays the same games and
    passes; a real edit (another root seed) is still refused."""
    cards, suite, baseline = lab
    folder = Path(shutil.copytree(suite.parent, tmp_path / "experiments"))
    matchup = folder / "matchups" / "example.toml"
    lines = matchup.read_text(encoding="utf-8").splitlines()
    matchup.write_text("\n".join([lines[0], "# a designer's note"] + lines[1:][::-1]) + "\n",
                       encoding="utf-8")
    code, out, _ = gate(capsys, cards, folder / "drift.toml", baseline, "--games", 64)
    assert code == 0 and out.strip().splitlines()[-1].startswith("No drift"), out
    assert "same cards, same engine" in out, out
    matchup.write_text(matchup.read_text(encoding="utf-8").replace("root_seed = 7001",
                                                                   "root_seed = 7002"),
                       encoding="utf-8")
    code, out, err = gate(capsys, cards, folder / "drift.toml", baseline)
    assert code == 2 and "the matchup's file or teams changed" in out + err, out + err


def test_the_baseline_records_each_games_ending_length_and_lead_changes(made):
    """Baseline format 3 (docs/drift.md): per game, beside the winner, its ending (one
    character), its rotations and its lead changes; decoded, they are what the games' columns
    were, one per game."""
    from sim.runner.drift_baseline import FORMAT, decode_games, encode_games

    data = json.loads(made[2].read_text(encoding="utf-8"))
    entry = data["matchups"]["example"]
    assert data["format"] == FORMAT == 3
    games = decode_games(entry)
    assert {len(games[k]) for k in games} == {QUICK}
    assert set(games["outcome"]) <= {"last team standing", "simultaneous elimination",
                                     "stalemate", "rotation cap"}
    assert encode_games(games) == {k: entry[k] for k in ("outcomes", "rotations", "lead_changes",
                                                          "eliminated")}
    assert games["rotations"].min() >= 1 and games["lead_changes"].min() >= 0
    # the order of elimination: per game and team the decision it fell after (-1: never); a
    # game won by the last team standing leaves exactly one team never eliminated
    assert games["eliminated"].shape == (QUICK, 4) and games["eliminated"].min() >= -1
    last = games["outcome"] == "last team standing"
    assert last.any() and ((games["eliminated"][last] < 0).sum(axis=1) == 1).all()


def test_an_old_baseline_still_gates_and_says_its_metrics_were_not_recorded(capsys, lab):
    """A format-2 baseline (winners only) still reads: the gate decides as before (exit 0 on an
    unchanged lab; 256 games keep it cheap) and the JSON carries today's metrics, the
    baseline's as not recorded."""
    cards, suite, baseline = lab

    def old(d):
        d["format"] = 2
        for k in ("outcomes", "rotations", "lead_changes", "eliminated"):
            d["matchups"]["example"].pop(k)

    _corrupt(baseline, old)
    code, out, _ = gate(capsys, cards, suite, baseline, "--format", "json", "--games", 256)
    doc = json.loads(out)
    assert code == doc["exit_code"] == 0
    assert {"conclusion", "metrics", "balance", "provenance"} <= set(doc)
    (bal,) = doc["balance"]
    assert bal["before"] is None and bal["change"] is None
    assert "not recorded in the baseline" in bal["before_missing"]
    now = bal["now"]
    assert {"outcomes", "drawishness", "duration_rotations", "lead_changes", "seats",
            "advantage_p1", "elimination"} <= set(now["games"]) and 0 < now["balance"]["balance"] <= 1
    order = now["games"]["elimination"]  # per team: first out (ties share it), mean place
    assert len(order) == 4 and all(0 < e["first_out"]["share"] < 1 and 1 <= e["mean_place"] <= 4
                                   for e in order)
    assert sum(s["share"] for s in now["games"]["outcomes"].values()) == pytest.approx(1.0)
    assert all(m["decision"] == "no_drift" for m in doc["metrics"])


def _boost_luffy(cards: Path) -> None:
    """Luffy (Straw Hats) with triple health and double attacks in every colour."""
    path = cards / "characters.csv"
    rows = path.read_text(encoding="utf-8").splitlines()
    header = rows[0].split(",")
    i = next(k for k, r in enumerate(rows) if r.startswith("Luffy,"))
    f = rows[i].split(",")
    f[header.index("max_health")] = str(int(f[header.index("max_health")]) * 3)
    for colour in ("base", "red", "blue", "green"):
        f[header.index(colour)] = str(min(50, int(f[header.index(colour)]) * 2))
    rows[i] = ",".join(f)
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")


def test_a_stronger_card_is_drift_up_and_the_changed_file_is_named(boosted):
    code, out, junit = boosted[:3]
    assert code == 1, out
    assert ("changed since the baseline: characters.csv (Luffy: max_health 200 → 600, base 8 → "
            "16, red 10 → 20, blue 6 → 12, green 9 → 18); the same engine") in out, out
    (line,) = metric_lines(out, "Straw Hats")
    assert line.endswith("drift_up"), out
    assert int(ET.parse(junit).getroot().get("failures")) >= 1
    assert "bwlab drift --update" in out.splitlines()[-1]


def test_only_the_engine_changed_pairs_with_the_recorded_games(capsys, lab):
    cards, suite, baseline = lab
    data = json.loads(baseline.read_text())
    data["engine"]["source"] = "0" * 64  # as if made by other code
    baseline.write_text(json.dumps(data))
    # the sentence is the gate's provenance, said whatever the games' number: 64 keep it cheap
    # (the 1,024 games of this case are test_an_engine_change_no_game_showed_is_bounded_...)
    code, out, _ = gate(capsys, cards, suite, baseline, "--games", 64)
    # inconclusive: no game moved, but 64 games on 16 boards bound a change only to hundreds of
    # Elo (sim.runner.drift_interval.unmoved_decision; decided at 1,024 games, the test below)
    assert code == 3, out
    assert "same cards: the engine changed" in out
    assert "moved, but so few games bound a change only to the interval shown" in out


def test_an_engine_change_no_game_showed_is_bounded_not_certain(capsys, lab):
    """An engine change whose games all replay alike: the change of these 1,024 games is 0,
    but the engine's is only bounded (a change moving one game in a few thousand shows none in
    a thousand). Each team's Elo interval is the board-clustered no-change bound
    (sim.analysis.paired.unmoved_elo_interval), as the endings' were since stop 60; it was
    "+0 (+0…+0)" (stop 78). The same engine on the same cards replays every game exactly: there
    it stays [0, 0] (test_an_unchanged_lab_passes_on_its_own_baseline_at_the_first_decision)."""
    from sim.analysis.paired import unmoved_elo_interval

    cards, suite, baseline = lab
    data = json.loads(baseline.read_text())
    data["engine"]["source"] = "0" * 64  # as if made by other code
    baseline.write_text(json.dumps(data))
    code, out, _ = gate(capsys, cards, suite, baseline, "--format", "json")
    assert code == 0, out
    metrics = json.loads(out)["metrics"]
    for m in metrics:
        low, high = m["elo_interval"]
        assert m["elo_change"] == 0 and m["games"] == QUICK, m
        want = unmoved_elo_interval(m["before"], QUICK, np.arange(QUICK) % m["boards"],
                                    rate_interval=m["before_interval"])
        assert low < -10 and high > 10 and np.allclose((low, high), want), (m, want)


def test_a_dice_rule_change_is_named_from_the_exact_tables(capsys, lab):
    """Tier 3 = D20 changed to D24: the exact tables differ and the gate names every entry."""
    cards, suite, baseline = lab
    rules = cards / "rules.toml"
    rules.write_text(rules.read_text().replace("tier_faces = [6, 12, 20, 30]",
                                               "tier_faces = [6, 12, 24, 30]"))
    code, out, _ = gate(capsys, cards, suite, baseline, "--games", "64")
    assert code == 1
    assert "changed since the baseline: rules.toml" in out
    changed = [line for line in out.splitlines() if line.startswith("combat table changed:")]
    assert len(changed) == 10 * 3  # every defense 0-9 at 1, 4 and 8 attacks of tier 3
    assert all(line.startswith("combat table changed: tier 3,") and "D20 -> D24" in line
               for line in changed)


def test_tables_are_compared_with_a_tolerance_not_a_hash_of_rounded_floats(capsys, lab):
    """A last-bit difference (as another BLAS or NumPy may give) is no change; 1e-6 is (moved
    from no damage to 1 damage, the recorded mean with it: a table that is no distribution, or
    whose mean is not its own, is bad input, tests/test_audit_cidrift_79.py)."""
    cards, suite, baseline = lab
    data = json.loads(baseline.read_text())
    key = "tier 3, 4 attacks vs defense 1"
    pmf = data["combat"][key]["pmf"]
    data["combat"][key]["pmf"] = [p * (1 + 1e-13) for p in pmf]
    baseline.write_text(json.dumps(data))
    code, out, _ = gate(capsys, cards, suite, baseline, "--games", "64")
    assert "combat table changed" not in out and code == 0, out
    data["combat"][key]["pmf"] = [pmf[0] + 1e-6, pmf[1] - 1e-6] + pmf[2:]
    data["combat"][key]["mean"] -= 1e-6
    baseline.write_text(json.dumps(data))
    code, out, _ = gate(capsys, cards, suite, baseline, "--games", "64")
    assert code == 1 and f"combat table changed: {key}: D20 -> D20" in out


def _corrupt(baseline: Path, edit) -> None:
    data = json.loads(baseline.read_text())
    edit(data)
    baseline.write_text(json.dumps(data))


CORRUPTIONS = {
    "nan rate": (lambda d: d["metrics"]["example: Straw Hats"].update(rate=float("nan")),
                 "metrics.example: Straw Hats.rate"),
    "string rate": (lambda d: d["metrics"]["example: Straw Hats"].update(rate="0.3"),
                    "metrics.example: Straw Hats.rate"),
    "negative games": (lambda d: d["metrics"]["example: Pixel Party"].update(games=-5),
                       "metrics.example: Pixel Party.games"),
    "empty metrics": (lambda d: d.update(metrics={}), "metrics"),
    "no combat": (lambda d: d.pop("combat"), "combat"),
    "bad winners": (lambda d: d["matchups"]["example"].update(winners="01x3"),
                    "matchups.example.winners"),
    "edited card copy": (lambda d: d["card_files"].update({"rules.toml": "x = 1\n"}),
                         "card_files.rules.toml"),
    # a lone surrogate: a JSON string no UTF-8 file holds (its digest was a UnicodeEncodeError)
    "card copy not text": (lambda d: d["card_files"].update({"rules.toml": "x = 1\ud800\n"}),
                           "card_files.rules.toml"),
    "old format": (lambda d: d.update(format=1), "format"),
    "bad ending code": (lambda d: d["matchups"]["example"].update(
        outcomes="X" + d["matchups"]["example"]["outcomes"][1:]), "matchups.example.outcomes"),
    "rotations short": (lambda d: d["matchups"]["example"].update(rotations="12 30"),
                        "matchups.example.rotations"),
    "lead changes not numbers": (lambda d: d["matchups"]["example"].update(lead_changes="1 -2"),
                                 "matchups.example.lead_changes"),
    "eliminated not four per game": (lambda d: d["matchups"]["example"].update(
        eliminated="3,4,-1 " + " ".join(d["matchups"]["example"]["eliminated"].split()[1:])),
        "matchups.example.eliminated"),
}


@pytest.mark.parametrize("name", sorted(CORRUPTIONS))
def test_a_corrupted_baseline_is_bad_input_never_a_pass_or_drift(capsys, lab, name):
    cards, suite, baseline = lab
    edit, field = CORRUPTIONS[name]
    _corrupt(baseline, edit)
    code, out, err = gate(capsys, cards, suite, baseline)
    assert code == 2, out + err
    lines = err.strip().splitlines()
    assert any(f": {field}: " in line for line in lines), err
    assert all(line.startswith(f"error: {baseline}") for line in lines), err


def test_missing_unparsable_and_unwritable_paths_are_exit_2(capsys, lab, tmp_path):
    cards, suite, baseline = lab
    code, _, err = gate(capsys, cards, suite, tmp_path / "none.json")
    assert code == 2 and "create it with --update" in err
    broken = tmp_path / "broken.json"
    broken.write_text('{\n  "format": 2,\n  oops\n}')
    code, _, err = gate(capsys, cards, suite, broken)
    assert code == 2 and f"{broken}:3" in err and len(err.strip().splitlines()) == 1
    code, _, err = gate(capsys, cards, suite, baseline, "--junit", tmp_path / "no" / "x.xml")
    assert code == 2 and "--junit" in err and "does not exist" in err
    afile = tmp_path / "afile"
    afile.write_text("")
    code, _, err = gate(capsys, cards, suite, baseline, "--junit", afile / "x.xml")
    assert code == 2 and "is a file, not a folder" in err
    code, _, err = gate(capsys, cards, suite, baseline, "--junit", "/proc/x.xml")
    assert code == 2 and "--junit: not writable" in err


def test_a_crash_inside_the_gate_is_exit_2_not_drift(capsys, lab, monkeypatch):
    import sim.runner.drift as drift

    def broken(*args, **kwargs):
        raise RuntimeError("simulated failure")

    monkeypatch.setattr(drift, "run_gate", broken)
    cards, suite, baseline = lab
    code, _, err = gate(capsys, cards, suite, baseline)
    assert code == 2 and "internal error" in err and "simulated failure" in err


def test_baseline_cards_this_engine_cannot_read_fall_back_to_the_recorded_games(capsys, lab):
    """After a change of the data format (here: an Apocalypse without its `resolve` key, as every
    baseline made before resolutions had), the baseline's cards cannot be replayed; the gate says
    so and pairs with the recorded games instead of failing."""
    import hashlib

    cards, suite, baseline = lab
    data = json.loads(baseline.read_text())
    old = data["card_files"]["apocalypses.toml"].replace('resolve = "hold"\n', "")
    data["card_files"]["apocalypses.toml"] = old
    data["cards"]["apocalypses.toml"] = hashlib.sha256(old.encode()).hexdigest()
    baseline.write_text(json.dumps(data))
    code, out, _ = gate(capsys, cards, suite, baseline, "--games", 64)  # 64: the fallback is
    # chosen before any game, and 64 games show the pairing as 1,024 did (inconclusive there:
    # no game moved, and 64 games bound a change only loosely: unmoved_decision)
    assert code == 3, out
    assert "cannot read the baseline's cards (apocalypses.toml:" in out
    assert "paired with the baseline's recorded game" in out


@pytest.mark.parametrize("old,new,field,words", [
    ("alpha = 0.05", "alpha = 0", "alpha", "0 out of range"),
    ("max_games = 4096", "max_games = 4097", "max_games", "not a multiple of 4"),
    ('experiments = ["matchups/example.toml"]', 'experiments = ["matchups/nope.toml"]',
     "experiments", "no experiment file"),
    ('experiments = ["matchups/example.toml"]',
     'experiments = ["matchups/example.toml", "matchups/../matchups/example.toml"]',
     "experiments", "is listed twice"),
])
def test_a_bad_suite_value_is_one_line_naming_the_suite(capsys, tmp_path, old, new, field, words):
    """Hostile input to the suite: one line, on the suite's own line and field (alpha = 0 once
    read "expected a number, got 0"; max_games = 4097 added a second line blaming the matchup
    file; a missing matchup file was named without the suite that names it; a matchup listed
    twice had every metric tested and reported twice)."""
    exps = Path(shutil.copytree(ROOT / "experiments", tmp_path / "experiments"))
    suite = exps / "drift.toml"
    text = suite.read_text(encoding="utf-8")
    line = text[:text.index(old)].count("\n") + 1
    suite.write_text(text.replace(old, new, 1), encoding="utf-8")
    code = main(["validate", "--experiment", str(suite)])
    err = [x for x in capsys.readouterr().err.splitlines() if x.strip()]
    assert code == 2 and len(err) == 1, err
    assert err[0].startswith(f"error: {suite}:{line}: {field}: ") and words in err[0], err


def _suite_with_second_matchup(suite: Path, folder: Path) -> Path:
    """A copy of ``suite`` whose matchups are example and a second one (another name)."""
    exps = Path(shutil.copytree(suite.parent, folder / "experiments"))
    second = exps / "matchups" / "example.toml"
    (exps / "matchups" / "second.toml").write_text(
        second.read_text().replace('name = "example"', 'name = "second"'))
    copy = exps / "drift.toml"
    copy.write_text(copy.read_text().replace(
        'experiments = ["matchups/example.toml"]',
        'experiments = ["matchups/example.toml", "matchups/second.toml"]'))
    return copy


def test_a_baseline_that_does_not_cover_the_suite_is_named_per_matchup_before_any_game(
        capsys, lab, tmp_path):
    """A matchup missing from the baseline was reported as a difference of the whole players
    table ("policies: the baseline was played by {...}"); a matchup the suite dropped passed
    that check only by luck of the same table. Each is now its own line, before any game."""
    cards, suite, baseline = lab
    wider = _suite_with_second_matchup(suite, tmp_path)
    code, out, err = gate(capsys, cards, wider, baseline)
    assert code == 2 and out == "", out
    assert err.strip().splitlines() == [
        f"error: {baseline}: matchups.second: not in the baseline: rewrite it with --update"]
    _corrupt(baseline, lambda d: (d["matchups"].update(old=d["matchups"]["example"]),
                                  d["policies"].update(old=d["policies"]["example"])))
    code, out, err = gate(capsys, cards, suite, baseline, "--policy", "random")
    assert code == 2 and out == "", out
    assert err.strip().splitlines() == [
        f"error: {baseline}: policies.example: the baseline was played by ['greedy', 'greedy', "
        "'greedy', 'greedy'], this run by ['random', 'random', 'random', 'random']; use the "
        "same --policy/--budget or rewrite it with --update",
        f"error: {baseline}: matchups.old: not in the suite {suite}: the gate would not check "
        "it; rewrite the baseline with --update"]


def test_two_matchups_of_one_name_are_refused(capsys, tmp_path):
    """Two matchup files with the same ``name``: every metric was printed and tested twice,
    and the baseline, which keys games by name, kept one of them, so the gate then always
    said "changed: rewrite it with --update", which never fixed it. Refused, on the suite's
    line."""
    exps = Path(shutil.copytree(ROOT / "experiments", tmp_path / "experiments"))
    (exps / "matchups" / "copy.toml").write_text(
        (exps / "matchups" / "example.toml").read_text().replace("root_seed = 7001",
                                                                 "root_seed = 7002"))
    suite = exps / "drift.toml"
    suite.write_text(suite.read_text().replace(
        'experiments = ["matchups/example.toml"]',
        'experiments = ["matchups/example.toml", "matchups/copy.toml"]'))
    code = main(["validate", "--experiment", str(suite)])
    err = [x for x in capsys.readouterr().err.splitlines() if x.strip()]
    assert code == 2 and len(err) == 1, err
    assert err[0].startswith(f"error: {suite}:") and ": experiments: matchups/copy.toml: a " \
        "second matchup named 'example'" in err[0], err


def test_a_games_cap_below_the_suites_floor_is_said_not_applied_silently(capsys, lab,
                                                                          unchanged):
    """The suite's ``min_games`` is its guard against deciding on a few games; ``--games``
    below it lowers the floor with it (a floor cannot stand above the cap), and the gate now
    says so on stderr, naming both numbers (and says nothing of it without --games: the
    module's unchanged gate, the same games this test once played again)."""
    cards, suite, baseline = lab
    code, out, err = gate(capsys, cards, suite, baseline, "--games", "64")
    assert code == 0, out
    assert "--games 64 is below the suite's min_games 1024" in err
    _, _, err, _ = unchanged
    assert "min_games" not in err


def test_a_card_stat_change_builds_each_boards_once_and_they_are_the_same_boards(boosted):
    """The CI audit: after a change to characters.csv alone the gate built its boards twice,
    for today's cards and for the baseline's replay (128 boards, 4 of its 13 s). A board's
    set-up never reads the cards, so the replay takes today's boards: built once per matchup,
    and the same set-ups as built from the baseline's cards."""
    import numpy as np

    from sim.catalogue.loader import load_catalogue
    from sim.runner import tasks
    from sim.runner.drift import load_suite
    from sim.engine.state.fields import POLICY_IDS

    code, out, _, built, original, cards, suite = boosted
    assert code == 1, out
    spec = load_suite(suite, original.cards, tuple(POLICY_IDS))
    assert len(built) == len(spec.experiments), built   # once per matchup, not twice
    exp = spec.experiments[0]
    now = tasks.build_arena(load_catalogue(cards), exp, n_boards=3)
    shared = tasks.build_arena(original, exp, n_boards=3, boards_of=now)
    fresh = tasks.build_arena(original, exp, n_boards=3)
    for a, b in zip(shared.stacked, fresh.stacked):
        for x, y in zip(a if isinstance(a, tuple) else (a,), b if isinstance(b, tuple) else (b,)):
            assert np.array_equal(np.asarray(x), np.asarray(y))
