"""``bwlab validate`` beyond characters and rules: a card out of its rarity band is a warning,
not an error ("Rarity communicates statistical power and nothing else"); cards/power_curve.toml
is checked like every other designer file; a draft pool, a drift baseline and a rulings results
file are checked through their commands' own loaders; an absent optional file (peers.toml,
arena_budget.toml) is a warning naming the commands that need it."""

from __future__ import annotations

import csv
import io

from sim.catalogue.loader import load_catalogue
from sim.cli.main import main
from tests._validation_kit import ROOT, SHIPPED, run


# ------------------------------------------------------------------- power curve in validate

def test_card_out_of_its_rarity_band_is_a_warning_not_an_error(capsys, cards):
    """A Bronze card with Legendary stats is a balance question ("Rarity communicates statistical
    power and nothing else"): validate names its line and field as a warning and still exits 0."""
    path = cards / "characters.csv"
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    header = rows[0]
    target = next(i for i, r in enumerate(rows[1:], 1) if r[header.index("rarity")] == "Bronze")
    rows[target][header.index("max_health")] = "900"
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    path.write_text(buf.getvalue(), encoding="utf-8")
    code, out, err = run(capsys, cards)
    assert code == 0
    assert len(err) == 1 and err[0].startswith("warning: ")
    assert f"characters.csv:{target + 1}: rarity:" in err[0] and "Bronze band" in err[0]
    assert "1 card(s) outside their rarity band" in out


def test_broken_power_curve_file_is_an_error(capsys, cards):
    """cards/power_curve.toml is checked like every other designer file (file, line, field)."""
    path = cards / "power_curve.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text + "\n[bogus_section]\nx = 1\n", encoding="utf-8")
    code, _, err = run(capsys, cards)
    assert code == 2
    assert any("power_curve.toml:" in line and "bogus_section" in line for line in err), err


def test_validate_checks_pools_baselines_and_rulings_results_as_their_commands_read_them(
        capsys, tmp_path):
    """"`validate` checks all of it": a draft pool (bwlab draft --pool), a drift baseline (bwlab
    drift --baseline) and a rulings results file (bwlab report --rulings), each through its
    command's own loader. The shipped baseline passes; a pool with a misspelt card, a baseline
    with only its format and a results file with no alternatives each fail with their lines."""
    names = [n for n in load_catalogue(SHIPPED).cards.names][:20]
    pool = tmp_path / "pool.toml"
    pool.write_text("cards = [" + ", ".join(f'"{n}"' for n in names) + "]\n", encoding="utf-8")
    code = main(["validate", str(SHIPPED), "--pool", str(pool), "--baseline",
                 str(ROOT / "reports" / "baseline.json")])
    out, err = capsys.readouterr()
    assert code == 0 and f"also ok: {pool}" in out, err
    pool.write_text(pool.read_text(encoding="utf-8").replace(names[0], names[0] + "x"),
                    encoding="utf-8")
    baseline = tmp_path / "baseline.json"
    baseline.write_text('{"format": 1}', encoding="utf-8")
    results = tmp_path / "rulings.json"
    results.write_text('{"conclusion": "", "study": {}}', encoding="utf-8")
    code = main(["validate", str(SHIPPED), "--pool", str(pool), "--baseline", str(baseline),
                 "--rulings-results", str(results)])
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert code == 2 and out == "" and "Traceback" not in err
    assert f"error: {pool}:1: cards: unknown card '{names[0]}x'" in err
    assert sum(x.startswith(f"error: {baseline}: ") and "missing section" in x for x in lines) == 8
    assert f"error: {results}: rulings: not a `bwlab rulings` results file (no alternatives)" in err


def test_an_absent_optional_file_is_a_warning_naming_who_needs_it(capsys, cards):
    """peers.toml and arena_budget.toml are read only by some commands: a folder without them
    validates (exit 0), but says which commands will refuse it (they passed without a word, and
    compare-systems or power-levels then failed with "file: not found")."""
    (cards / "peers.toml").unlink()
    (cards / "arena_budget.toml").unlink()
    code = main(["validate", str(cards)])
    err = capsys.readouterr().err.splitlines()
    assert code == 0
    assert f"warning: {cards}: no peers.toml: compare-systems and combat --system need it" in err
    assert f"warning: {cards}: no arena_budget.toml: power-levels and draft need it" in err
