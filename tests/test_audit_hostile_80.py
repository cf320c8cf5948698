"""Hostile-input audit of stop 80: what careless and hostile input still got past the checks."""

from __future__ import annotations


from sim.cli.main import main
from tests._validation_kit import SHIPPED


def test_power_levels_refuses_a_huge_validate_budget_before_playing(capsys, tmp_path):
    """`bwlab power-levels --validate-budget 1000000000000` played the level games, wrote the CSV,
    then died with a numpy MemoryError traceback (exit 1) allocating 146 TiB for the sets. The
    flag is bounded as [validate] sets of arena_budget.toml is (at most 100000): one line, exit 2,
    nothing written."""
    out = tmp_path / "levels.csv"
    code = main(["power-levels", "--validate-budget", "1000000000000", "--games", "64", "-q",
                 "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err and "MemoryError" not in err
    assert len([ln for ln in err.splitlines() if ln.strip()]) == 1, err
    assert "--validate-budget" in err
    assert not out.exists()


def test_a_misspelled_pool_card_in_an_experiment_is_one_line(capsys, tmp_path):
    """`bwlab validate --experiment E` with [pool] cards = the 20 cards of
    experiments/pools/example.toml, one misspelled: two lines for one problem ("unknown card
    'Marioo'" and "a pool needs at least 20 distinct cards ..., got 19") until stop 80. The
    draft pool file with the same slip (bwlab draft --pool, validate --pool) says the one
    line; so does this now."""
    pool = (SHIPPED.parent / "experiments" / "pools" / "example.toml").read_text(encoding="utf-8")
    cards = pool[pool.index("cards = ["):].replace('"Mario"', '"Marioo"')
    exp = tmp_path / "e.toml"
    exp.write_text('name = "x"\ngames = 64\nroot_seed = 1\nbatch_size = 16\nboards = 4\n'
                   'policies = ["greedy"]\nseating = "duplicate"\n[pool]\ndraw = "random"\n'
                   + cards, encoding="utf-8")
    code = main(["validate", str(SHIPPED), "--experiment", str(exp)])
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.startswith("error")]
    assert code == 2
    assert len(lines) == 1, err
    assert "Marioo" in lines[0]


def test_a_baseline_with_a_bad_games_count_is_one_line(capsys, tmp_path):
    """reports/baseline.json with matchups.example.games = NaN (or -5, "x", missing): validate
    and drift said "games: must be a positive count equal to the winners' length" and then four
    more lines, "outcomes: 4096 games, not nan", the same for rotations, lead_changes and
    eliminated, fields that agree with the winners: one problem, five lines. Now the per-game
    fields are counted against the winners: one line."""
    import json
    data = json.loads((SHIPPED.parent / "reports" / "baseline.json").read_text(encoding="utf-8"))
    data["matchups"]["example"]["games"] = -5
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code = main(["validate", str(SHIPPED), "--baseline", str(path)])
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.startswith("error")]
    assert code == 2
    assert len(lines) == 1 and "matchups.example.games" in lines[0], err


def test_fairness_refuses_a_missing_rating_experiment(capsys, tmp_path):
    """`bwlab fairness TEAMS --rating-experiment NO_SUCH_FILE` (no --suggest) played the check
    and exited 3 with no word about the path; with --suggest 1 the same path is "file: not
    found", exit 2. A path given on the command line that does not exist is bad input either
    way (or the flag is refused without --suggest, as power-levels refuses --team-budget
    without --validate-budget: so it is since stop 80, with --rating-games, --proposals,
    --levels-experiment and --level-games)."""
    teams = SHIPPED.parent / "experiments" / "teams" / "example.toml"
    code = main(["fairness", str(teams), "--games", "8", "--round", "8", "-q",
                 "--rating-experiment", str(tmp_path / "missing.toml")])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "--rating-experiment is read only with --suggest" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err


def test_a_rulings_alternative_given_twice_is_refused(capsys, tmp_path):
    """experiments/rulings.toml's study with one [[alternatives]] entry pasted twice (same key,
    same value): validate said ok, and `bwlab rulings` replayed it twice and corrected "over the
    2 alternatives tested", a family twice as large as the question (each p doubled). A card row
    or a tile given twice is refused at its line; so is this since stop 80."""
    text = (SHIPPED.parent / "experiments" / "rulings.toml").read_text(encoding="utf-8")
    head = text[:text.index("\n[[alternatives]]") + 1]
    alt = ('[[alternatives]]\nruling = "x"\nfile = "rules.toml"\nkey = "dice.defense_die"\n'
           'value = 10\ncompletes = "y"\n')
    path = tmp_path / "study.toml"
    path.write_text(head + alt + alt, encoding="utf-8")
    code = main(["validate", str(SHIPPED), "--experiment", str(path)])
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.startswith("error")]
    assert code == 2, err
    assert len(lines) == 1 and str(path) in lines[0], err
