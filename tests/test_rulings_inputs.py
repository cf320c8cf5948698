"""``bwlab rulings`` (issue 20, item 3; docs/rulings-impact.md): its inputs are validated like
every data file.

docs/rulings.md: "Where it is silent ... the lab uses a house ruling: a default in cards/ plus an
entry in docs/rulings.md that quotes the sentence it completes and lists the alternatives. Change
the data file to try an alternative — no code changes." A bad alternative, study file, player,
entry or flag is exit 2 naming file:line: field, and an alternative's key line must match its
file exactly once.
"""

from __future__ import annotations

import pytest

from sim.runner.rulings_data import Alternative, replaced_text
from tests._cli_kit import run
from tests._rulings_kit import ENTRIES, STUDY, TINY, _write


@pytest.mark.parametrize("old,new,field", [
    ('value = "draw"', 'value = "coin_flip"', "alternatives[0].value"),
    ('key = "game.simultaneous_tiebreak"', 'key = "game.tiebreak"', "alternatives[0].key"),
    ('file = "rules.toml"', 'file = "rulez.toml"', "alternatives[0].file"),
    ('key = "game.simultaneous_tiebreak"', 'key = ""', "alternatives.key"),  # read: no index
    ('key = "game.simultaneous_tiebreak"', 'key = "game."', "alternatives.key"),
])
def test_a_bad_alternative_is_exit_2_with_file_line_field(capsys, tmp_path, old, new, field):
    spec = _write(tmp_path, STUDY + ENTRIES.replace(old, new, 1))
    code, out, err = run(capsys, "rulings", "--alternatives", spec, *TINY)
    lines = err.strip().splitlines()
    # the line of the field at fault (key and file problems once cited the value's line)
    line = 1 + (STUDY + ENTRIES).splitlines().index(old)
    assert code == 2 and len(lines) == 1 and out == ""
    assert lines[0].startswith(f"error: {spec}:{line}: {field}: ")
    # `validate` checks what `rulings` checks (developers' guide: "validate checks all of it";
    # these once validated clean)
    code, out, err = run(capsys, "validate", "--experiment", spec)
    assert code == 2 and out == "" and err.strip() == lines[0]


@pytest.mark.parametrize("edit,line,field,words", [
    (("teams = ", 'teams = "nope.toml"\n# '), 2, "study.teams", "no team file nope.toml"),
    (("rating_experiment = ", 'rating_experiment = "nope.toml"\n# '), 3,
     "study.rating_experiment", "no experiment file nope.toml"),
    (("seed = 5", 'seed = 5\npolicy = "bogus"'), 5, "study.policy", "unknown policy 'bogus'"),
])
def test_a_bad_study_file_or_player_is_named_on_its_line(capsys, tmp_path, edit, line, field,
                                                         words):
    """[study]'s team file, rating experiment and player are checked when the file is read, by
    `rulings` and by `validate` alike (they once validated clean, and `rulings` then blamed a
    --policy flag nobody gave, or named only the lost path)."""
    spec = _write(tmp_path, STUDY.replace(*edit) + ENTRIES)
    for command in (["rulings", "--alternatives", spec], ["validate", "--experiment", spec]):
        code, out, err = run(capsys, *command)
        assert code == 2 and out == "" and err.strip().startswith(
            f"error: {spec}:{line}: {field}: {words}"), err


def test_a_bad_entry_or_study_is_named_by_line(capsys, tmp_path):
    spec = _write(tmp_path, STUDY.replace("seed = 5", "seed = -5") + ENTRIES)
    code, _, err = run(capsys, "rulings", "--alternatives", spec)
    assert code == 2 and f"{spec}:4: study.seed:" in err


@pytest.mark.parametrize("args", [("--games", "10"), ("--boards", "1"), ("--seed", "-1"),
                                  ("--policy", "genius"), ("--only", "board.nothing")])
def test_bad_flags_exit_2(capsys, tmp_path, args):
    spec = _write(tmp_path, STUDY + ENTRIES)
    code, out, err = run(capsys, "rulings", "--alternatives", spec, *args)
    assert code == 2 and out == "" and err.strip()


def test_the_key_line_must_match_exactly_once():
    alt = Alternative("r", "rules.toml", "board.doorway", "full_edge", "", 1)
    text = '[board]\n# doorway = "x"\ndoorway = "middle"  # house\n[game]\ndoorway = 3\n'
    new, default = replaced_text(text, alt)
    assert default == "middle" and new.splitlines()[2] == 'doorway = "full_edge"'
    assert new.splitlines()[4] == "doorway = 3"            # another table's key is not touched
    with pytest.raises(ValueError, match="2 lines"):
        replaced_text(text.replace("[game]", ""), alt)
    with pytest.raises(ValueError, match="several lines"):
        replaced_text("[board]\ndoorway = [\n 1]\n", alt)
