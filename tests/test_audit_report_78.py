"""Stop 78's audit of the HTML report (bwlab report), read as a designer and a GM: each test
runs the command as a user would (small settings, seconds) and reads the page's text."""

from __future__ import annotations

import html.parser
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*args, cwd=ROOT):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "sim.cli.main", *args, "-q"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


class _Text(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.parts, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        if tag in ("p", "div", "tr", "h2", "dt", "dd", "li", "table"):
            self.parts.append("\n")
        for k, v in attrs:
            if k == "title":
                self.parts.append(f"{{{v}}}")

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def _page_text(path: Path) -> str:
    p = _Text()
    p.feed(path.read_text(encoding="utf-8"))
    return "".join(p.parts)


def _summary(text: str, label: str) -> str:
    """The summary's answer to ``label`` (its <dt>, then its <dd> on the next line)."""
    lines = text[text.index("Summary"):].splitlines()
    k = lines.index(label)
    return lines[k + 1]


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """The report, made in this process (``bwlab report`` through the CLI's own ``main``, as
    tests/_cli_kit.py runs a command): a process of its own spent 3-5 s importing the lab and
    loading the compiled kernels this one has loaded; the page is the same page."""
    import contextlib
    import io

    from sim.cli.main import main

    out = tmp_path_factory.mktemp("report")
    said, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(said), contextlib.redirect_stderr(err), \
            pytest.MonkeyPatch.context() as m:
        m.chdir(ROOT)
        if os.environ.get("BWLAB_JOURNAL", "").lower() != "off":  # before the conftest's
            m.setenv("BWLAB_JOURNAL", str(out / "journal"))       # per-test folder is set
        code = main(["report", "--out", str(out), "--fairness-games", "64", "--rating-games",
                     "128", "--suggest", "2", "--baseline", "reports/baseline.json", "-q"])
    assert code == 0 and "Traceback" not in said.getvalue() + err.getvalue(), err.getvalue()
    return out, _page_text(out / "report.html")


def _report_options() -> set[str]:
    from sim.cli.report import report

    return {o for p in report.params for o in p.opts}


def _advice_names_only_options_the_report_has(report):
    """The summary's advice copied `bwlab fairness`'s words: --games, --proposals and "widen
    the tolerance", options `bwlab report` does not have. Each option it names is the report's,
    or is said to be `bwlab fairness`'s."""
    _, text = report
    options = _report_options()
    for line in (_summary(text, "Fairness"), _summary(text, "Swaps")):
        for m in re.finditer(r"(bwlab fairness )?(--[a-z-]+)", line):
            assert m.group(2) in options or m.group(1) or line[m.end():].startswith(
                " (bwlab fairness)"), (m.group(0), line)
        assert "widen the tolerance (bwlab fairness --tolerance)" in line or \
            "widen the tolerance" not in line


def _every_fairness_interval_says_its_level(report):
    _, text = report
    balance = next(li for li in text.splitlines() if li.startswith("Balance (1 -"))
    assert "simultaneous" in balance.split("How games are decided")[0]
    assert "95 %" in balance.split("How games are decided")[1]
    seat = next(li for li in text.splitlines() if li.startswith("Seat effect:"))
    assert "95 %" in seat


def _rarity_summary_says_cards_are_undecided(report):
    _, text = report
    assert "undecided" in _summary(text, "Rarity outliers")


def _ratings_section_names_the_command_that_prints_its_numbers(report):
    _, text = report
    assert "bwlab rarity --games 128" in text


def _worked_example_sampled_mean_has_its_standard_error(report):
    _, text = report
    line = next(li for li in text.splitlines() if "sampled" in li and "Luffy" in li)
    assert "±" in line


def test_summary_does_not_single_out_one_of_tied_teams(monkeypatch):
    """Two teams tied at the highest estimate (Straw Hats and Pixel Party, 34.4 % each at seed
    0 and 64 games when the audit ran): the summary named only the first as "the highest
    estimate". Both are named, and said tied."""
    from types import SimpleNamespace

    import numpy as np

    import sim.analysis.fairness as fairness
    from sim.report.summary import fairness_answer

    monkeypatch.setattr(fairness, "conclusion", lambda *a, **k: "Inconclusive.")
    said = []
    page = SimpleNamespace(answer=lambda label, text, *a: said.append(text))
    verdict = SimpleNamespace(rate=np.array([0.344, 0.141, 0.344, 0.171]),
                              lower=np.array([0.21, 0.07, 0.19, 0.09]),
                              upper=np.array([0.50, 0.25, 0.53, 0.29]), status="inconclusive")
    names = ["Straw Hats", "Ink & Iron", "Pixel Party", "Toon Squad"]
    fairness_answer(page, verdict, names, "greedy")
    assert "tied" in said[0] and "Straw Hats" in said[0] and "Pixel Party" in said[0], said
    verdict.rate[2] = 0.30
    fairness_answer(page, verdict, names, "greedy")
    assert "tied" not in said[1] and "Pixel Party" not in said[1], said

def test_non_pool_rating_experiment_is_one_line_and_exit_2(tmp_path):
    """It was accepted: the page said '2,000 games on 4 boards, teams drawn from every card' of
    the fixed example teams (20 cards in play, 52 rated on no game); bwlab rarity refuses it."""
    r = _run("report", "--out", str(tmp_path / "r"), "--teams", "", "--rating-experiment",
             "experiments/smoke.toml", "--rating-games", "64")
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and "pool" in r.stderr
    assert not (tmp_path / "r").exists()


def _drift_verdict_says_what_it_rests_on(report):
    """The drift verdict ("no win rate moved by the gate's delta") never said the delta (70
    Elo) or its error rates, which bwlab drift prints; the section says them (the summary's
    line stays short: it must fit the first screen)."""
    _, text = report
    section = text[text.index("Drift against the baseline"):]
    assert "70 Elo" in section.split("4 of 4 rows")[0]


def test_the_report_as_a_designer_and_a_gm_read_it(report):
    """One report (its games take most of the time: one run, not one per check), read for each
    defect the report audit of stop 78 found."""
    for check in (_advice_names_only_options_the_report_has,
                  _every_fairness_interval_says_its_level, _rarity_summary_says_cards_are_undecided,
                  _ratings_section_names_the_command_that_prints_its_numbers,
                  _worked_example_sampled_mean_has_its_standard_error,
                  _drift_verdict_says_what_it_rests_on):
        check(report)
