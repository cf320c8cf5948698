"""``bwlab report``: one self-contained HTML page (embedded PNG figures, HTML tables) plus CSVs.

Book: "Schedule D lists them from left to right in order from least to most powerful: Bronze,
Silver, Gold, Diamond, Legendary, and GOAT Series." — the report says whether the cards obey it.
"""

from __future__ import annotations

import base64
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest

from sim.catalogue.loader import load_catalogue
from sim.cli.main import main
from sim.report.lab_report import rarity_summary, write_report

ROOT = Path(__file__).resolve().parents[1]


def test_report_is_self_contained_with_figures_tables_and_csvs(capsys, tmp_path, catalogue):
    """Sections: combat, exact vs Monte Carlo, power curve, team fairness with the seat effect,
    card ratings in play (five figures)."""
    code = main(["report", "--out", str(tmp_path), "--fairness-games", "64", "--rating-games",
                 "64"])
    out = capsys.readouterr().out
    assert code == 0 and "report.html" in out
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    images = re.findall(r"src='data:image/png;base64,([A-Za-z0-9+/=]+)'", page)
    assert len(images) == 5
    assert "Team fairness" in page and "Card ratings in play" in page
    # issue #21: the pairwise differences and the balance metrics designers know
    assert "Differences between teams" in page and "Balance (1 - the largest gap" in page
    assert "How games are decided" in page and "Game length: median" in page
    fair = pd.read_csv(tmp_path / "fairness.csv")
    assert fair["win_probability"].sum() == pytest.approx(1.0)
    assert len(pd.read_csv(tmp_path / "card_ratings.csv")) == len(catalogue.cards)
    assert all(base64.b64decode(i)[:8] == b"\x89PNG\r\n\x1a\n" for i in images)
    assert "<table" in page and "http" not in page.split("<body>")[1]  # nothing fetched
    assert "Bronze &lt; Silver &lt; Gold" in page and "holds." in page
    combat = pd.read_csv(tmp_path / "combat_report.csv")
    assert len(combat) == len(catalogue.cards)
    power = pd.read_csv(tmp_path / "power_curve.csv")
    assert power["in_band"].all()
    assert (tmp_path / "report.html").stat().st_mode & 0o044  # readable by others


def test_report_flags_a_broken_rarity_order(tmp_path):
    """Swap every Bronze and GOAT Series label: the medians no longer rise, and the page says so."""
    cards = Path(shutil.copytree(ROOT / "cards", tmp_path / "cards"))
    path = cards / "characters.csv"
    text = path.read_text(encoding="utf-8")
    text = text.replace(",Bronze,", ",@@,").replace(",GOAT Series,", ",Bronze,").replace(",@@,",
                                                                                         ",GOAT Series,")
    path.write_text(text, encoding="utf-8")
    catalogue = load_catalogue(cards)
    page_path = write_report(catalogue, tmp_path / "out", samples=1000)
    page = page_path.read_text(encoding="utf-8")
    assert "DOES NOT HOLD" in page
    table, ordered = rarity_summary(pd.read_csv(tmp_path / "out" / "power_curve.csv"),
                                    catalogue.rules.rarities)
    assert not ordered and list(table["rarity"]) == list(catalogue.rules.rarities)
    for csv in (tmp_path / "out").glob("*.csv"):   # 10 significant digits at most, no noise
        assert not re.search(r"\d{11,}", csv.read_text(encoding="utf-8")), csv.name


def test_csv_numbers_carry_no_binary_noise():
    """rarity_summary.csv wrote the median of 96.7 and 96.9 as 96.80000000000001: the median of
    powers in tenths is rounded to hundredths, and every CSV the report writes carries 10
    significant digits (sim.report.CSV_FLOAT)."""
    import io

    from sim.report import CSV_FLOAT

    power = pd.DataFrame({"card": ["a", "b"], "rarity": ["Bronze", "Bronze"],
                          "power": [96.7, 96.9]})
    assert float(pd.Series([96.7, 96.9]).median()) != 96.8   # the noise this guards against
    table, _ = rarity_summary(power, ["Bronze"])
    assert table.loc[0, "median"] == 96.8
    text = io.StringIO()
    pd.DataFrame({"x": [0.1 + 0.2, 1 / 3]}).to_csv(text, index=False, float_format=CSV_FLOAT)
    assert text.getvalue().split() == ["x", "0.3", "0.3333333333"]


def test_a_table_cell_with_no_value_reads_as_a_dash_not_python_words():
    """The report's remedies table showed "None" for the lowest rarity's open lower band edge
    (the rarity audit of stop 77), and a missing float would read "nan": both are "–" now, as
    the CSV leaves them blank; numbers keep four significant digits."""
    import pandas as pd

    from sim.report.html import _Table, _table_html

    frame = pd.DataFrame({"band_low": [None, -0.33], "rating": [float("nan"), 0.123456]})
    cells = _table_html(_Table(frame, None, "outlier"))
    assert "<td>None</td>" not in cells and "<td>nan</td>" not in cells
    assert cells.count("<td>–</td>") == 2
    assert "<td>0.1235</td>" in cells and "<td>-0.33</td>" in cells
