"""``bwlab rulings``: which house rulings matter (issue 20, item 3; docs/rulings-impact.md), the
command run on a tiny study.

docs/rulings.md: "Where it is silent ... the lab uses a house ruling: a default in cards/ plus an
entry in docs/rulings.md that quotes the sentence it completes and lists the alternatives. Change
the data file to try an alternative — no code changes." The command changes one value of a copy
of cards/ per alternative and replays the same study with the same seeds; these tests check
that the replay is paired (an alternative equal to the default changes nothing, exactly), that
the JSON and the results file hold what the text shows (a planted ending change is named, the
default is not), and that a results file broken in any field is one named problem, not a
traceback.
"""

from __future__ import annotations

import json
import re

import pytest

from sim.cli.rulings import text_lines
from tests._cli_kit import run
from tests._rulings_kit import ENTRIES, ROOT, STUDY, TINY, _write


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    """One tiny run (text on stdout, JSON in --out), shared by the tests below."""
    import io
    from contextlib import redirect_stderr, redirect_stdout

    from sim.cli.main import main

    from tests._cli_kit import eager_progress

    tmp = tmp_path_factory.mktemp("rulings")
    spec = _write(tmp, STUDY + ENTRIES)
    out = tmp / "rulings.json"
    stdout, stderr = io.StringIO(), io.StringIO()
    with redirect_stdout(stdout), redirect_stderr(stderr), eager_progress():
        code = main(["rulings", "--alternatives", str(spec), *TINY, "--out", str(out),
                     "--cards", str(ROOT / "cards")])
    return code, stdout.getvalue(), stderr.getvalue(), json.loads(out.read_text("utf-8"))


def test_the_command_runs_and_ranks(result):
    code, text, err, doc = result
    assert code == 0, err
    ranked = doc["alternatives"]
    assert [r["rank"] for r in ranked] == [1, 2, 3]
    assert text.splitlines()[0] == doc["conclusion"]
    # ranked: those that matter first (Holm over the alternatives, sim/runner/rulings_gaps.py),
    # then by the largest standardised effect; the default itself is not counted in Holm's
    keys = [(not r["matters"], -r["score"]) for r in ranked]
    assert all(r["matters"] == (r["p_holm"] <= 0.05) for r in ranked)
    assert all(r["beyond_alone"] == (r["score"] > 1) == (r["p_value"] <= 0.05) for r in ranked)
    assert all(r["p_holm"] >= r["p_value"] for r in ranked)
    assert {r["tested_alternatives"] for r in ranked} == {2}
    assert keys == sorted(keys)
    assert doc["study"]["fairness_design"] == "16 games on 4 boards"
    assert "rulings:" in err and "games" in err       # progress on stderr, never on stdout
    assert "rulings:" not in text


def test_an_alternative_equal_to_the_default_has_exactly_zero_effect(result):
    """Same seeds, same rules: bit-identical games, so every paired difference is exactly 0."""
    same = next(r for r in result[3]["alternatives"] if r["key"] == "board.diagonal_range_cost")
    assert same["identical_games"] and same["score"] == 0 and not same["matters"]
    assert same["default"] == same["alternative"] == 1
    assert all(t["delta"] == 0 and t["se"] == 0 for t in same["fairness"]["teams"])
    assert all(c["delta"] == 0 and c["se"] == 0 for c in same["ratings"]["cards"])
    assert same["verdicts_changed"] == []
    assert same["engine_inputs_equal"]                       # same rules, same engine inputs
    assert ("pairing (no effect, not counted in Holm's): board.diagonal_range_cost = 1"
            in result[3]["conclusion"])
    tie = next(r for r in result[3]["alternatives"] if r["key"] == "game.simultaneous_tiebreak")
    assert not tie["engine_inputs_equal"]                    # the engine reads the tie-break


def test_the_json_holds_what_the_text_shows(result):
    code, text, _, doc = result
    assert text.splitlines() == text_lines(doc)
    tie = next(r for r in doc["alternatives"] if r["key"] == "game.simultaneous_tiebreak")
    assert tie["default"] == "health_before" and tie["alternative"] == "draw"
    assert tie["label"] in text and tie["ruling"] in text
    for t in tie["fairness"]["teams"]:
        assert t["low"] <= t["delta"] <= t["high"]
        assert t["delta"] == pytest.approx(t["alternative"] - t["default"])


def test_the_report_shows_the_results_file(capsys, tmp_path, result):
    """`bwlab report --rulings FILE` adds the section (nothing replayed); a bad file is exit 2."""
    import pandas as pd

    path = tmp_path / "rulings.json"
    path.write_text(json.dumps(result[3]), encoding="utf-8")
    code, out, _ = run(capsys, "report", "--out", tmp_path, "--teams", "", "--rating-games", "0",
                       "--rulings", path)
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert code == 0 and "Which house rulings matter" in page
    heads = re.findall(r"<th scope='col' title='([^']*)'>([^<]*)</th>", page)  # issue #23
    assert heads and [c for t, c in heads if not t] == []   # every column explained
    table = pd.read_csv(tmp_path / "rulings.csv")
    assert list(table["rank"]) == [1, 2, 3] and list(table["change"]) == [
        r["label"] for r in result[3]["alternatives"]]
    endings = pd.read_csv(tmp_path / "rulings_endings.csv")   # issue #21 item 3
    assert list(endings["rule_set"]) == ["book default"] + list(table["change"])
    assert "changes how games end" in page
    (tmp_path / "bad.json").write_text("{}", encoding="utf-8")
    code, _, err = run(capsys, "report", "--out", tmp_path, "--rulings", tmp_path / "bad.json")
    assert code == 2 and "bad.json: rulings: not a `bwlab rulings` results file" in err


def _alt(doc, key):
    return next(r for r in doc["alternatives"] if r["key"] == key)

def test_the_results_file_is_strict_json_and_a_missing_score_reads_back_as_nan(result, tmp_path,
                                                                              capsys):
    """A score with no value (NaN) is written as null, which strict parsers (jq, JavaScript)
    accept; `report --rulings` reads it back as NaN where a number is expected, and keeps a
    null that means "none" (card_critical_z without card ratings) as None."""
    import math

    from sim.cli._json import json_text
    from sim.report.rulings_section import load_results, ranking_table

    def strict(text):
        return json.loads(text, parse_constant=lambda c: pytest.fail(f"not JSON: {c}"))

    doc = json.loads(json.dumps(result[3]))
    doc["alternatives"][0]["score"] = math.nan
    doc["alternatives"][0]["team_z"] = math.inf
    doc["alternatives"][1]["card_critical_z"] = None
    path = tmp_path / "rulings.json"
    path.write_text(json_text(doc), encoding="utf-8")
    stored = strict(path.read_text(encoding="utf-8"))
    assert stored["alternatives"][0]["score"] is None
    back = load_results(path)
    assert math.isnan(back["alternatives"][0]["score"])
    assert math.isnan(back["alternatives"][0]["team_z"])
    assert back["alternatives"][1]["card_critical_z"] is None
    assert back["alternatives"][1]["score"] == doc["alternatives"][1]["score"]
    assert math.isnan(ranking_table(back)["score"].iloc[0])
    code, _, err = run(capsys, "report", "--out", tmp_path, "--teams", "", "--rating-games",
                       "0", "--rulings", path)
    assert code == 0, err
    assert "Which house rulings matter" in (tmp_path / "report.html").read_text("utf-8")



def test_a_draw_tie_break_moves_the_winners_of_same_step_endings_not_their_share(result):
    """docs/rulings.md "Simultaneous elimination": scoring a same-step elimination a draw
    changes who wins those games, never how or when they end; paired on the same seeds, the
    share of same-step endings changes by exactly 0 and the no-winner share by exactly the
    same-step endings whose winner changed."""
    doc = result[3]
    ch = _alt(doc, "game.simultaneous_tiebreak")["ending_change"]
    same_step = ch["endings"]["simultaneous elimination"]
    games = doc["book_balance"]["games"]["games"]
    assert games == 16 + 32 and ch["same_step_both"] > 0
    assert same_step["change"] == 0 and same_step["games_changed"] == 0
    assert same_step["before"] == same_step["after"] == ch["same_step_both"] / games
    assert ch["same_step_winner_changed"] > 0
    assert ch["endings"]["no winner"]["change"] == pytest.approx(
        ch["same_step_winner_changed"] / games)
    assert ch["rotations"]["change"] == 0 and ch["lead_changes"]["change"] == 0


def test_a_planted_ending_change_is_named_and_the_default_is_not(result):
    """A planted alternative (the rotation cap at 8, where the book's games last a median of
    some 35 rotations) makes nearly every game end at the cap: named as changing how games end
    after Holm over every alternative and ending; the default itself changes nothing."""
    code, text, _, doc = result
    cap = _alt(doc, "game.rotation_cap")
    assert "rotation cap" in cap["endings_changed"] and cap["changes_endings"]
    # the change is 1 less the default's share of games at the cap (about 0.28 once greedy
    # pressed quiet games, stop 71), over 48 games: its interval's low end about 0.49
    moved = cap["ending_change"]["endings"]["rotation cap"]
    assert moved["change"] > 0.5 and moved["low"] > 0.3
    # the game ends once the rotation counter passes the cap (sim/engine/rules/turn.py), so at 9
    assert cap["games_balance"]["games"]["duration_rotations"]["max"] <= 8 + 1
    assert "These change how games end" in doc["conclusion"] and "game.rotation_cap = 8" in \
        doc["conclusion"].split("These change how games end")[1]
    same = _alt(doc, "board.diagonal_range_cost")
    assert same["endings_changed"] == [] and all(
        c["change"] == 0 and c["p_value"] == 1 for c in same["ending_change"]["endings"].values())
    # the JSON carries the metrics of every rule set; the text shows them
    for b in [doc["book_balance"]] + [r["games_balance"] for r in doc["alternatives"]]:
        assert {"outcomes", "drawishness", "duration_rotations", "lead_changes", "seats",
                "advantage_p1", "elimination"} <= set(b["games"])
        assert 0 <= b["balance"]["low"] <= b["balance"]["balance"] <= b["balance"]["high"] <= 1
    assert "How games end under each rule set" in text and "The book's games" in text
    assert any(line.startswith("game.rotation_cap = 8") and "*" in line
               for line in text.splitlines())


def test_fairness_only_when_rating_games_is_0(capsys, tmp_path):
    spec = _write(tmp_path, STUDY + ENTRIES)
    code, out, err = run(capsys, "rulings", "--alternatives", spec, "--games", "16", "--boards",
                         "4", "--rating-games", "0", "--only", "game.simultaneous_tiebreak",
                         "--format", "json", "--cards", ROOT / "cards")
    doc = json.loads(out)
    assert code == 0, err
    (only,) = doc["alternatives"]
    assert only["ratings"] is None and only["largest_card"] is None and only["card_z"] == 0
    assert "no card ratings" in "\n".join(text_lines(doc))


def _shape_paths(doc, shape, path=()):
    """Every field the report's section reads: paths into ``doc`` (the first item of a list,
    the first key of a free table)."""
    if isinstance(shape, dict):
        keys = list(doc)[:1] if "*" in shape else list(shape)
        for key in keys:
            yield path + (key,)
            if isinstance(doc, dict) and key in doc:
                yield from _shape_paths(doc[key], shape.get(key, shape.get("*")), path + (key,))
    elif isinstance(shape, list) and doc:
        yield from _shape_paths(doc[0], shape[0], path + (0,))
    elif isinstance(shape, tuple):
        for sub in shape:
            if isinstance(sub, dict) and isinstance(doc, dict):
                yield from _shape_paths(doc, sub, path)


def test_every_field_of_a_results_file_broken_is_one_named_problem_not_a_traceback(result,
                                                                                 tmp_path):
    """`bwlab report --rulings FILE` on a hand-edited results file (hostile input): each field
    the section reads, removed or set to text, a list or null, is refused by ``load_results``
    with a problem naming that field; a change the section can show is shown. The fields come
    from the file the tiny study wrote, walked by the section's own RESULTS_SHAPE."""
    import copy

    from sim.catalogue.diagnostics import InputError
    from sim.report.rulings_section import (BALANCE_SHAPE, RESULTS_SHAPE, endings_table,
                                            load_results, ranking_table)

    doc = result[3]
    paths = sorted(set(_shape_paths(doc, RESULTS_SHAPE)) | set(_shape_paths(doc, BALANCE_SHAPE)))
    assert len(paths) > 40
    refused = 0
    for where in paths:
        for value in ("delete", "x", [1], None):
            broken = copy.deepcopy(doc)
            parent = broken
            for key in where[:-1]:
                parent = parent[key]
            if value == "delete":
                del parent[where[-1]]
            else:
                parent[where[-1]] = value
            path = tmp_path / "broken.json"
            path.write_text(json.dumps(broken), encoding="utf-8")
            try:
                checked = load_results(path)
            except InputError as exc:
                field = ".".join(str(k) for k in where).replace(".0", "[0]")
                assert any(field in p.field or p.field == "rulings" for p in exc.problems), (
                    where, value, [str(p) for p in exc.problems])
                refused += 1
            else:
                ranking_table(checked), endings_table(checked)  # no exception
    assert refused >= len(paths)


def test_a_results_file_with_nan_infinity_or_a_control_character_is_refused(result, tmp_path):
    """`bwlab rulings --out` writes strict JSON (a score without a value is null) and plain
    text; a hand-edited file's NaN or Infinity literal, or a text holding an escape sequence,
    reached report.html as results (the inputs audit of stop 74). Each is one problem naming
    the file, and the field for the text."""
    import copy
    import math

    from sim.catalogue.diagnostics import InputError
    from sim.report.rulings_section import load_results

    path = tmp_path / "edited.json"
    for number in (math.nan, math.inf, -math.inf):
        doc = copy.deepcopy(result[3])
        doc["alternatives"][0]["score"] = number
        path.write_text(json.dumps(doc), encoding="utf-8")  # json.dumps writes NaN, Infinity
        with pytest.raises(InputError) as caught:
            load_results(path)
        (problem,) = caught.value.problems
        assert "is not a number `bwlab rulings --out` writes" in problem.message
    doc = copy.deepcopy(result[3])
    key = next(k for k, v in doc["alternatives"][1].items() if isinstance(v, str))
    doc["alternatives"][1][key] += "\x1b[31m\nerror: forged"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_results(path)
    (problem,) = caught.value.problems
    assert problem.field == f"rulings.alternatives.1.{key}" and "control character" in \
        problem.message
