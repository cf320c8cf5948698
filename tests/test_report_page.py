"""`bwlab report` answers first (issue #23 item 2): a summary at the top (fairness verdict with
the favoured team and its interval, swaps, rarity outliers named, drift), sortable and filterable
tables, outliers marked in tables and charts, the designers' win-rate-when-held column, every
statistic explained, legible figures, a provenance footer; and the page checked in headless
Chromium (no network, no console errors, sorting, the summary in the first screen at 1400 and
400 px, screenshots under reports/).

The report is built once per module from a small planted experiment (Mario, a Gold card, given
GOAT-sized health and attacks, in a 22-card pool: 320 games make him a strong outlier) and a
32-game fairness check, a few seconds on a warm compile cache.
"""

from __future__ import annotations

import hashlib
import html
import importlib.util
import re
import shutil
import tempfile
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from sim import __version__
from sim.catalogue.loader import load_catalogue
from sim.catalogue.teams import load_teams
from sim.cli.main import main
from sim.report.html import CSS_DPI, Page, png_size
from sim.report.lab_report import write_report
from sim.report.plots import DPI, MIN_PT, interval_forest, png_bytes
from sim.report.summary import drift_section, fairness_answer, swaps_answer, swaps_section

ROOT = Path(__file__).resolve().parents[1]
POOL = ["Thunder Fist Kid", "Margin Imp", "Jellybean Brute", "Lullaby Ghost", "Petal Storm Girl",
        "Glitch Hopper", "Silent Film Duo", "Relay Brothers", "Mario", "Spirit Fox Medium",
        "Moon Rabbit Monk", "Tide Witch", "Caped Comet", "Night Gargoyle", "Static Siren",
        "Bass Drop Bard", "Luffy", "Pixel Paladin", "Folio Dragon", "Labyrinth Bull",
        "Buffer Phantom", "Rubber Hose Cat"]
# 640 rating games: the planted card is flagged at every seed tried (at 320, 8 of 9)
FAIRNESS_GAMES, RATING_GAMES = 32, 640
SCREENSHOTS = ROOT / "reports" / "screenshots"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The planted report: (page text, output folder, catalogue)."""
    tmp = tmp_path_factory.mktemp("report-page")
    from tests._planted_kit import planted_cards

    cards = planted_cards(tmp)
    names = ", ".join(f'"{n}"' for n in POOL)
    exp = tmp / "planted.toml"
    exp.write_text(f'name = "planted"\ngames = {RATING_GAMES}\nroot_seed = 97\n'
                   f'batch_size = {RATING_GAMES}\nboards = 16\npolicies = ["greedy"]\n'
                   f'seating = "duplicate"\n[pool]\ncards = [{names}]\n', encoding="utf-8")
    catalogue = load_catalogue(cards)
    teams = load_teams(ROOT / "experiments" / "teams" / "example.toml", catalogue.cards)
    out = tmp / "out"
    page = write_report(catalogue, out, samples=2000, teams=teams, fairness_games=FAIRNESS_GAMES,
                        rating_games=RATING_GAMES, rating_experiment=exp)
    return page.read_text(encoding="utf-8"), out, catalogue


def _summary(page: str) -> str:
    return re.search(r"<section id='summary'>(.*?)</section>", page, re.S).group(1)


def test_summary_leads_with_the_answers(built):
    """The summary comes before every section and states the fairness verdict with the favoured
    team and its interval (as fairness.csv has them), swaps, the outliers by name, drift."""
    page, out, _ = built
    body = page.split("<body>")[1]
    assert body.index("id='summary'") < body.index("<h2 id='fairness'") < body.index(
        "<h2 id='ratings'") < body.index("<h2 id='combat'")
    summary = html.unescape(_summary(page))
    fair = pd.read_csv(out / "fairness.csv")
    top = fair.loc[fair["win_probability"].idxmax()]
    # "Favoured" only for a team shown outside the band (the second selection audit)
    assert (f"Favoured: {top['team']}" if top["low"] > 0.30 else
            f"No team is shown favoured; the highest estimate is {top['team']}'s, ") in summary
    assert f"{100 * top['win_probability']:.1f} % " in summary
    assert f"({100 * top['low']:.1f}–{100 * top['high']:.1f}" in summary
    assert re.search(r"<dd>(Fair|Unfair|Inconclusive): ", summary)
    assert f"{FAIRNESS_GAMES} games on" in summary and "played by greedy" in summary
    for name in fair.loc[(fair["low"] > 0.30) | (fair["high"] < 0.20), "team"]:
        assert f"{name} " in summary.split("Favoured")[0]   # named: outside the fair band
    ratings = pd.read_csv(out / "card_ratings.csv", keep_default_na=False)
    strong = ratings[ratings["outlier"] != ""]
    assert "Mario" in set(strong["card"])                    # the planted card
    for row in strong.itertuples():
        assert f"{row.card} ({row.rarity}, {row.outlier}: plays like {row.plays_like}" in summary
    assert "Swaps</dt>" in summary and "Drift</dt><dd>Not checked" in summary


def test_tables_mark_outliers_explain_every_column_and_scroll(built):
    """Outlier rows carry the outlier class (ratings, combat); every column head has its one-line
    explanation (tooltip and key); every table sits in a horizontally scrolling box; the
    designers' column (win rate when held, with interval) leads the ratings table."""
    page, out, _ = built
    heads = re.findall(r"<th scope='col' title='([^']*)'>([^<]*)</th>", page)
    assert heads and all(title for title, _ in heads), [c for t, c in heads if not t]
    assert page.count("<table class='data'>") == page.count("<div class='scroll'><table")
    ratings = page[page.index("<h2 id='ratings'"):]
    ratings = ratings[:ratings.index("</table>")]
    cols = re.findall(r"<th scope='col' title='[^']*'>([^<]*)</th>", ratings)
    assert cols[:3] == ["card", "rarity", "win_when_held"]
    marked = re.findall(r"<tr class='outlier'><td>([^<]*)</td>", ratings)
    table = pd.read_csv(out / "card_ratings.csv", keep_default_na=False)
    assert sorted(marked) == sorted(table.loc[table["outlier"] != "", "card"])
    mario = table.set_index("card").loc["Mario"]
    assert (f"<td>Mario</td><td>Gold</td><td>{100 * mario['win_rate_held']:.1f} % "
            f"({100 * mario['win_low']:.1f}–{100 * mario['win_high']:.1f})</td>") in ratings
    combat = page[page.index("<h2 id='combat'"):]
    assert "<tr class='outlier'><td>Mario</td>" in combat[:combat.index("</table>")]
    assert "variance_ratio_vs_unpaired" in page and "saved games" in page
    assert "<meta name='viewport' content='width=device-width, initial-scale=1'>" in page


def test_footer_says_where_every_number_came_from(built):
    """Provenance: policy, games, boards, seeds, card digests, version, date."""
    page, _, planted = built
    footer = html.unescape(page[page.index("<footer id='provenance'>"):])
    digest = hashlib.sha256((planted.root / "characters.csv").read_text(
        encoding="utf-8").encode()).hexdigest()[:12]
    assert f"characters.csv {digest}" in footer
    assert re.search(r"generated</dt><dd>\d{4}-\d\d-\d\d \d\d:\d\d UTC", footer)
    assert f"<dd>{__version__}, engine source sha256" in footer
    assert re.search(rf"fairness</dt><dd>example.toml: policy greedy, {FAIRNESS_GAMES} games on "
                     rf"\d+ boards?, root seed 0", footer)
    assert re.search(rf"policy greedy, {RATING_GAMES} games on 16 boards, root seed 97", footer)
    assert "2,000 samples of the worked example, seed 0" in footer


def test_figures_are_legible_and_mark_outliers():
    """No figure text below 9 pt, and a figure is shown at its size in print (never scaled
    down): 9 pt on paper is 9 pt on screen. The forest plot draws a marked row red and bold."""
    fig = interval_forest(["a", "b"], [0.1, 0.5], [0.0, 0.4], [0.2, 0.6], "t", "x",
                          marked=[False, True])
    labels = {t.get_text(): t for t in fig.axes[0].get_yticklabels()}
    assert labels["b"].get_color() == "C3" and labels["b"].get_fontweight() == "bold"
    assert labels["a"].get_color() != "C3"
    fig.axes[0].annotate("tiny", (0.1, 0), fontsize=5)
    png = png_bytes(fig)
    from matplotlib.text import Text

    assert min(t.get_fontsize() for t in fig.findobj(Text) if t.get_text()) >= MIN_PT
    page = Page("t")
    page.image(png, "forest", DPI)
    width, height = png_size(png)
    assert f"width='{round(width * CSS_DPI / DPI)}' height='{round(height * CSS_DPI / DPI)}'" \
        in page.render()


def test_swaps_and_drift_answers():
    """Swaps: 'None confirmed' with the best found when play confirms none; the confirmed fix
    when one is. Drift: the gate's conclusion, its section and its decisions, drifted rows
    marked."""
    page = Page("t")
    swaps_answer(page, "unfair", {"confirmed": None, "conclusion": "No fair set found."}, True)
    swaps_answer(page, "unfair", {"confirmed": {}, "conclusion": "Confirmed fix: swap A."}, True)
    swaps_answer(page, "unfair", None, False)
    swaps_answer(page, "fair", None, True)
    texts = [a[1] for a in page.answers]
    assert texts[0] == "None confirmed. No fair set found." and texts[1] == "Confirmed fix: swap A."
    assert texts[2].startswith("Not searched: run `bwlab report --suggest 3`")
    assert texts[3].startswith("None needed")
    test = SimpleNamespace(before=0.25, after=0.31, elo_change=37.0, elo_interval=(20.0, 54.0),
                           games=1024, decision="drift_up")
    result = SimpleNamespace(metrics=[SimpleNamespace(name="example: Straw Hats", test=test,
                                                      decision="drift_up")],
                             exit_code=1, provenance="same cards: the engine changed.", combat=())
    table = drift_section(page, result, "Drift: win rates moved.", Path("reports/baseline.json"))
    assert table.loc[0, "decision"] == "drift_up"
    assert page.answers[-1][:2] == ("Drift", "Drift: win rates moved. Against "
                                             "reports/baseline.json.")
    assert "<tr class='outlier'><td>example: Straw Hats</td>" in page.render()
    swaps = swaps_section(page, {"rating_games": 64, "conclusion": "No fair set found.", "tried": [
        {"swaps": [{"card_a": "A", "team_a": 1, "card_b": "B", "team_b": 2}],
         "verdict": "open", "largest_gap_from_25": 0.1, "games": 64}]})
    # swaps.csv names the distance from 25 % as such (it was "measured_gap")
    assert list(swaps.columns) == ["proposal", "swaps", "verdict", "largest_gap_from_25", "games"]
    heads = re.findall(r"<th scope='col' title='([^']*)'>([^<]*)</th>", page.render())
    assert len(heads) == 13 and [c for t, c in heads if not t] == []


def test_fairness_answer_names_the_favoured_team_and_its_interval_once():
    """Unfair with the favourite outside the band: the verdict's sentence gives its interval and
    "Favoured" names it; fair: no team is called favoured (the highest estimate is no finding:
    one of four equal teams always has it), its interval is given after the verdict."""
    names = ["A", "B", "C", "D"]
    verdict = SimpleNamespace(status="unfair", rate=np.array([0.40, 0.20, 0.25, 0.15]),
                              lower=np.array([0.35, 0.15, 0.20, 0.10]),
                              upper=np.array([0.45, 0.25, 0.30, 0.20]), design="64 games on 16 "
                              "boards", needs_boards=False)
    page = Page("t")
    fairness_answer(page, verdict, names, "greedy")
    fair = SimpleNamespace(**{**vars(verdict), "status": "fair",
                              "rate": np.array([0.27, 0.25, 0.24, 0.24]),
                              "lower": np.array([0.22, 0.21, 0.20, 0.20]),
                              "upper": np.array([0.29, 0.29, 0.28, 0.28])})
    fairness_answer(page, fair, names, "greedy")
    (_, unfair, _, tone), (_, even, _, tone_fair) = page.answers
    assert unfair.startswith("Unfair: A wins 40.0 % (35.0–45.0)") and tone == "bad"
    assert "Favoured: A. Every team played by greedy." in unfair
    assert even.startswith("Fair: ") and tone_fair == "ok"
    assert ("No team is shown favoured; the highest estimate is A's, 27.0 % to win "
            "(22.0–29.0 %).") in even
    assert "Favoured" not in even


def test_report_with_a_missing_baseline_is_one_line_and_writes_nothing(capsys, tmp_path):
    """Bad input: one line naming the file, exit 2, nothing written."""
    code = main(["report", "--out", str(tmp_path / "out"), "--baseline",
                 str(tmp_path / "nope.json"), "--rating-games", "0", "--teams", ""])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "nope.json" in err[0] and "not found" in err[0]
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("status,searched", [("fair", False), ("unfair", True),
                                             ("open", True)])
def test_report_searches_swaps_only_when_the_teams_are_not_fair(monkeypatch, status, searched):
    """`report --suggest K` (as `fairness --suggest K`): the swap search runs only when the
    check did not call the teams fair; for fair teams the summary says none is needed and no
    swaps table is written. The check is a stand-in: no game is played."""
    from sim.report import lab_report

    monkeypatch.setattr(lab_report, "fairness_section",
                        lambda *a, **k: (pd.DataFrame(), SimpleNamespace(status=status)))
    calls = []

    def suggest(verdict):  # the teams as measured: a swap no fairer than them is no advice
        calls.append(verdict)
        return {"rating_games": 64, "conclusion": "No fair set found.", "confirmed": None,
                "tried": []}

    page = Page("t")
    tables = lab_report._fairness_sections(page, None, object(), 64, 0, "greedy", None, suggest)
    assert bool(calls) == searched
    assert all(v.status == status for v in calls)
    assert ("swaps.csv" in [name for name, _ in tables]) == searched
    swaps = [a[1] for a in page.answers if a[0] == "Swaps"]
    assert len(swaps) == 1 and swaps[0].startswith("None needed") == (not searched)


@pytest.mark.parametrize("rating_games", ["0", "32"])
def test_report_suggest_without_rating_games_is_refused(capsys, tmp_path, rating_games):
    """--suggest searches swaps by card ratings; with --rating-games 0 it played 64 rating games
    anyway while the summary said "In play: not measured (--rating-games)". The combination is
    refused before any game: one line naming both flags, exit 2, nothing written."""
    from tests._cli_kit import run

    code, _, err = run(capsys, "report", "--out", tmp_path / "out", "--rating-games",
                       rating_games, "--suggest", "1")
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1, err
    assert "--suggest" in lines[0] and "--rating-games" in lines[0] and "64" in lines[0]
    assert not (tmp_path / "out").exists()


# --- the page in a real browser --------------------------------------------------------------

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]


@pytest.fixture
def chromium() -> str:
    """Debian's chromium, or a skip that says why not (before the report is built)."""
    if importlib.util.find_spec("playwright") is None:
        pytest.skip("no playwright: pip install -e '.[test]' (it drives the system's chromium)")
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no chromium installed: apt-get install -y chromium (.ci/run does when it can)")


def _rows(page, table, column: int) -> list[str]:
    return page.evaluate("([t, c]) => Array.from(document.querySelectorAll('table.data')[t]"
                         ".tBodies[0].rows).filter(r => !r.hidden)"
                         ".map(r => r.cells[c].textContent)", [table, column])


def test_report_in_headless_chromium(chromium, built):
    """Loaded offline with no console errors and no request beyond the file itself; clicking a
    column head sorts its rows (numbers as numbers, both ways); the filter box keeps matching
    rows; the whole summary is in the first screen at 1400 × 900 and 400 × 800 px; at 400 px
    the page is no wider than the screen (tables and figures scroll in their own boxes) and
    figures are not scaled down; screenshots land in reports/screenshots/."""
    from playwright.sync_api import sync_playwright

    _, out, _ = built
    url = (out / "report.html").as_uri()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as profile:
        browser = pw.chromium.launch_persistent_context(
            profile, executable_path=chromium, args=CHROMIUM_FLAGS, headless=True,
            viewport={"width": 1400, "height": 900}, offline=True)
        try:
            page = browser.new_page()
            problems, fetched = [], []
            page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: problems.append(str(e)))
            page.on("request", lambda r: fetched.append(r.url)
                    if not r.url.startswith(("file:", "data:")) else None)
            browser.route("**/*", lambda route: route.abort()
                          if not route.request.url.startswith(("file:", "data:"))
                          else route.continue_())
            page.goto(url, wait_until="load")
            assert problems == [] and fetched == []
            _check_sorting_and_filter(page)
            for width, height in ((1400, 900), (400, 800)):
                page.set_viewport_size({"width": width, "height": height})
                page.evaluate("window.scrollTo(0, 0)")
                _check_first_screen(page, width, height)
                page.screenshot(path=str(SCREENSHOTS / f"report-{width}px.png"))
            assert problems == [] and fetched == []
        finally:
            browser.close()
    assert (SCREENSHOTS / "report-400px.png").stat().st_size > 10_000


def _check_sorting_and_filter(page) -> None:
    tables = page.evaluate("Array.from(document.querySelectorAll('table.data'))"
                           ".map(t => Array.from(t.tHead.rows[0].cells).map(c => c.textContent))")
    t = next(i for i, cols in enumerate(tables) if "win_when_held" in cols)
    col = tables[t].index("rating")
    before = [float(v) for v in _rows(page, t, col)]
    head = page.locator("table.data").nth(t).locator("th").nth(col)
    head.click()
    up = [float(v) for v in _rows(page, t, col)]
    assert up == sorted(before) and up != before
    head.click()
    assert [float(v) for v in _rows(page, t, col)] == sorted(before, reverse=True)
    assert head.get_attribute("aria-sort") == "descending"
    page.locator("input.filter").nth(t).fill("mario")
    assert _rows(page, t, 0) == ["Mario"]
    page.locator("input.filter").nth(t).fill("")
    assert len(_rows(page, t, 0)) == len(before)


def _check_first_screen(page, width: int, height: int) -> None:
    box = page.locator("#summary").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, (width, box)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    scaled = page.evaluate("Array.from(document.images).filter(i => "
                           "Math.abs(i.getBoundingClientRect().width - i.width) > 1 || "
                           "i.width !== +i.getAttribute('width')).length")
    assert scaled == 0
    wide = page.evaluate("Array.from(document.querySelectorAll('.scroll'))"
                         ".filter(d => d.scrollWidth > d.clientWidth).length")
    assert width > 1000 or wide > 0   # at 400 px the 12-column combat table scrolls in its box


def test_report_players_say_whether_the_verdict_holds(capsys, tmp_path):
    """Issue #25 item 3 ("the report shows it"): `report --policies random` plays the fairness
    check again under random play (same seed) and the summary says whether the players agree;
    players.csv has each team's chance under each player."""
    import pandas as pd

    from tests._cli_kit import run

    code, _, _ = run(capsys, "report", "--out", tmp_path, "--rating-games", "0",
                     "--fairness-games", "32", "--policies", "random")
    assert code == 0
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    table = pd.read_csv(tmp_path / "players.csv")
    assert sorted(set(table["player"])) == ["greedy", "random"] and len(table) == 8
    said = set(table.groupby("player")["player_verdict"].first())
    agree = len(said) == 1 and said != {"inconclusive"}   # two unsettled checks agree on nothing
    contradict = {"fair", "unfair"} <= said
    assert ("Every player reaches the same verdict" in page) == agree
    assert ("The verdict depends on the players" in page) == contradict
    assert (("No player contradicts another" in page or "No player's check has settled" in page)
            == (not agree and not contradict))
