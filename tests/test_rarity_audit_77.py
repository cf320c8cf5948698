"""The rarity audit of stop 77 (a card designer balancing rarities): what `bwlab rarity` and
`bwlab report` say about an outlier and its remedy must not contradict itself.

The planted card: Curveball Ace (Bronze) with max_health 220, defense 4, base 5 in a copy of the
cards (`bwlab rarity --cards COPY --games 2000 --ablation 0 --remedy --remedy-card "Curveball
Ace" --remedy-games 1500`): power 72.2 against the Bronze band 30-47, flagged strong in play;
its remedy `defense 4 → 1`, power 72.2 → 59.0, base-study rating -0.103 → -0.452 [-0.989,
+0.084] against the base study's band [-inf, -0.330], unsettled (the flagging study's rating was
+0.052 and its band's top -0.351)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from sim.runner.remedy import Candidate, Check, Remedy, remedy_records
from tests._report_kit import RecordingPage

RARITIES = ["Bronze", "Silver", "Gold", "Diamond", "Legendary", "GOAT Series"]
POWER_BANDS = np.array([[30, 47], [47, 64], [64, 86], [86, 115], [115, 155], [155, 210]], float)


def _catalogue():
    return SimpleNamespace(cards=SimpleNamespace(names=["Curveball Ace"], rarity=np.array([0])),
                           rules=SimpleNamespace(rarities=RARITIES))


def _planted() -> Remedy:
    """The planted Curveball Ace's remedy as the run above found it (band_low -inf: Bronze)."""
    cand = Candidate("defense", 4, 1, 72.2, 59.0)
    check = Check(0, cand, -0.452, -0.989, 0.084, -0.05, 60)
    return Remedy(0, -1, "unsettled", check, (check,), 35, -np.inf, -0.330, -0.103, -0.340,
                  0.135, -1, None, 588)


def _record() -> dict:
    (record,) = remedy_records([_planted()], _catalogue(), POWER_BANDS)
    return record


def test_a_remedy_of_a_card_already_outside_its_power_band_is_not_said_to_break_it(
        capsys, monkeypatch):
    """The planted card's stats put it above the Bronze power band before any change (72.2 >
    47), and its nerf moves power toward the band (59.0). `bwlab rarity --remedy` printed the
    same "OUTSIDE it" as for a change that takes a card's stats out of its band, and the report
    said "A change whose power_in_band is False takes the card's stats out of its rarity's
    power band: the power curve misjudges this card ... consider a new rarity or a different
    ability": here stats and play agree, the change is just not enough by stats. The text must
    say the stats were outside before the change, and the report's table must show
    power_before beside power_after so that a reader can tell the two cases apart."""
    import sim.runner.remedy
    from sim.cli.rarity_text import echo_remedies
    from sim.report import lab_report

    echo_remedies([_record()], 1500, [])
    text = " ".join(capsys.readouterr().out.split())
    assert "still OUTSIDE it, as before the change" in text

    monkeypatch.setattr(sim.runner.remedy, "remedies", lambda *a, **k: [_planted()])
    page = RecordingPage()
    curve = SimpleNamespace(remedy=object(), bands=POWER_BANDS)
    fixes = lab_report._remedies(page, _catalogue(), None, None, curve, 1500)
    assert "power_before" in fixes.columns
    assert fixes["power_before"].tolist() == [72.2]
    assert "already" in " ".join(page.texts)


def test_the_csv_remedy_columns_carry_the_rating_and_band_the_remedy_was_judged_on():
    """rarity_cards.csv put remedy_rating_after (-0.452, the base study's rating plus the paired
    shift) in the row of the flagging study's rating (+0.052) and band (top -0.351), with no
    remedy_rating_before and no band of its own: read along the row the change moved the card by
    -0.504 against a band the remedy was not judged on, where the table says -0.103 → -0.452
    against [-inf, -0.330]. The row must carry the base study's rating and band."""
    from sim.cli.rarity_output import remedy_columns

    cols = remedy_columns([_record()], ["Curveball Ace"])
    assert "remedy_rating_before" in cols and "remedy_band_high" in cols
    assert cols["remedy_rating_before"] == [pytest.approx(-0.103)]
    assert cols["remedy_band_high"] == [pytest.approx(-0.330)]
    assert cols["remedy_band_low"] == [None]  # Bronze has no bottom (the record's None)


def test_the_recurrence_line_does_not_call_differing_verdicts_the_same(capsys):
    """`bwlab rarity --cards COPY --games 1000 --replicates 3 --correction bh`: no card flagged
    in any run, 5, 5 and 4 cards shown inside their band (undecided_per_run 67, 67, 68), and the
    line said "100 % of the cards get the same verdict in every run", while the same output's
    verdict column (in band / undecided / strong / weak) differed between runs for at least one
    card. The share counts the flags (strong, weak, none) only; the line must say so."""
    from sim.cli.rarity_text import echo_outliers
    from sim.runner.rarity_recurrence import Recurrence

    frame = pd.DataFrame({"outlier": ["", ""], "verdict": ["in band", "undecided"],
                          "games_to_settle": [0.0, 5000.0]})
    study = SimpleNamespace(held=np.array([10, 12]), games=100)
    inside = np.array([[True, False, True], [False, False, False]])
    echo_outliers(frame, study, "holm",
                  Recurrence((1, 2, 3), np.zeros((2, 3), np.int64), inside))
    line = [x for x in capsys.readouterr().out.splitlines() if x.startswith("Recurrence")][0]
    assert "get the same verdict in every run" not in line
    assert "100 % of the cards get the same flag (strong, weak or none) in every run" in line


def test_a_named_card_that_gets_no_remedy_says_why_in_json_too(capsys, tmp_path):
    """``rarity --remedy --remedy-card NAME --format json`` for a card that is not an outlier
    had ``remedies: []`` and nothing else, where the text says why ("not an outlier at this many
    games, ... undecided: no remedy searched"); the JSON now lists it under ``not_remedied``
    with its verdict and that sentence."""
    import json

    from tests._cli_kit import run

    code, out, err = run(capsys, "rarity", "--games", "64", "--ablation", "0", "--remedy",
                         "--remedy-card", "Luffy", "--format", "json", "--out", tmp_path, "-q")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["remedies"] == []
    [entry] = doc["not_remedied"]
    assert entry["card"] == "Luffy" and entry["verdict"] in ("undecided", "in band", "not played")
    assert "no remedy" in entry["why"]
