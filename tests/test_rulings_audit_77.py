"""Audit of ``bwlab rulings`` and the report's rulings section (stop 77): what the report shows
of a results file must agree with what ``bwlab rulings`` printed from the same file.

Synthetic results documents only (no game is played).
"""

from __future__ import annotations

from tests._report_kit import RecordingPage

ENDINGS = ("last team standing", "simultaneous elimination", "stalemate", "rotation cap",
           "no winner")


def _balance(no_winner: float) -> dict:
    return {"games": {"games": 384, "outcomes": {k: {"share": 0.2} for k in ENDINGS[:4]},
                      "drawishness": {"share": no_winner},
                      "duration_rotations": {"median": 42}, "lead_changes": {"mean": 2.3}},
            "balance": {"balance": 0.73, "low": 0.55, "high": 0.88}}


def _doc() -> dict:
    """One alternative whose "no winner" share is marked changed (Holm), as the draw tie-break
    of a 384-game study: own 95 % interval [+6.0, +11.7], given the mark [+5.9, +11.8]."""
    plain = {"before": 0.2, "after": 0.2, "change": 0.0, "low": -0.038, "high": 0.038,
             "p_value": 1.0}
    endings = {k: dict(plain) for k in ENDINGS}
    endings["no winner"] = {"before": 0.003, "after": 0.091, "change": 0.089, "low": 0.060,
                            "high": 0.117, "p_value": 1e-9}
    alt = {"rank": 1, "ruling": "Simultaneous elimination", "key": "game.simultaneous_tiebreak",
           "label": 'game.simultaneous_tiebreak = "draw"', "default": "health_before",
           "matters": False, "score": 0.7, "p_holm": 1.0, "team_z": 1.6,
           "team_critical_z": 2.93, "card_z": None, "card_critical_z": None,
           "largest_team": {"name": "Straw Hats", "delta": 0.014, "low": -0.012,
                            "high": 0.039},
           "verdicts_changed": [], "identical_games": False,
           "games_balance": _balance(0.091),
           "ending_change": {"endings": endings, "rotations": dict(plain),
                             "lead_changes": dict(plain), "same_step_both": 34,
                             "same_step_winner_changed": 34},
           "endings_changed": ["no winner"],
           "endings_given_mark": {"no winner": [0.059, 0.118]}}
    return {"conclusion": "x", "alternatives": [alt], "book_balance": _balance(0.003),
            "study": {"teams": "experiments/teams/example.toml",
                      "fairness_design": "128 games on 32 boards",
                      "rating_experiment": "experiments/rarity.toml", "rating_games": 0,
                      "rating_design": "0 games on 0 boards", "policy": "greedy"}}


def test_a_marked_ending_shows_the_same_interval_as_the_command():
    from sim.cli._balance_text import change_lines
    from sim.report.rulings_section import endings_table

    doc = _doc()
    alt = doc["alternatives"][0]
    text = "\n".join(change_lines(alt["ending_change"], set(alt["endings_changed"]), "",
                                  alt["endings_given_mark"]))
    assert "[+5.9, +11.8]" in text                      # what `bwlab rulings` prints
    cell = endings_table(doc)["no_winner_change"].iloc[1]
    assert cell == "+8.9 [+5.9, +11.8]"                 # the report, from the same file
    # an unmarked ending keeps its own 95 % interval
    assert endings_table(doc)["stalemate_change"].iloc[1] == "+0.0 [-3.8, +3.8]"


def test_the_column_key_says_what_the_rulings_columns_hold():
    from sim.report.glossary import COLUMNS

    # largest |z| is not largest in points: Straw Hats +1.4 (|z| 1.6) was shown while Pixel
    # Party moved -1.8 (|z| 1.3) in a run of the audit
    assert "moved most" not in COLUMNS["largest_team"] and "|z|" in COLUMNS["largest_team"]
    assert "True" in COLUMNS["identical_games"]


def test_a_study_without_card_ratings_says_so_in_the_report(tmp_path):
    import json

    from sim.report.rulings_section import rulings_section

    doc = _doc()
    path = tmp_path / "rulings.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    page = RecordingPage()
    rulings_section(page, path)
    words = " ".join(page.texts)
    assert "0 games on 0 boards" not in words and "no card ratings" in words
    # the ranking's intervals are the largest team's, simultaneous over the four teams
    assert "simultaneous" in words
