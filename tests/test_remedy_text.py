"""What `bwlab rarity --remedy` says about a remedy it cannot confirm, and about a card
--remedy-card names that is not an outlier. The rule (README, "For GMs, designers and CI"): every
verdict must be what it claims; docs/power-curve.md, "Reading a remedy": "`unsettled`: the
rating is inside but its interval is not yet, or the search's landing did not land again on its
own games; the line says how many replayed games per check would settle it ... when that alone
is too wide, no number of replays settles it and the line asks for a longer study, more
`--games`"; docs/advice.md, "Verdicts that hold": a card neither shown out nor in is
"undecided", and its absence from the flags is no claim."""

from __future__ import annotations

import numpy as np

from sim.cli.rarity_text import echo_remedies
from sim.runner.remedy import Candidate, Check, Remedy, remedy_records
from tests._report_kit import RecordingPage


def _record(**over) -> dict:
    """A remedy record as remedy_records makes it (Pixel Paladin, `bwlab rarity --remedy
    --remedy-card "Pixel Paladin" --remedy-games 200000 --ablation 0`, d3240dd's successor)."""
    f = {"card": "Pixel Paladin", "rarity": "Legendary", "direction": "nerf",
         "status": "unsettled", "change": "max_health 275 → 195", "power_before": 131.0,
         "power_after": 110.4, "power_delta": -20.7, "power_band_low": 115.0,
         "power_band_high": 155.0, "power_in_band": False, "rating_before": 0.631,
         "rating_after": 0.227, "rating_after_low": 0.102, "rating_after_high": 0.352,
         "band_low": 0.032, "band_high": 0.363, "win_change": -0.071, "candidates": 40,
         "checks_run": 16, "games_per_check": 2296, "confirmation_games": 0,
         "replays_needed": -1, "card_games": 2296}
    f.update(over)
    return f


def _text(capsys, fixes, asked=()) -> str:
    echo_remedies(fixes, 4000, list(asked))
    return " ".join(capsys.readouterr().out.split())


def test_a_landing_left_without_games_to_confirm_it_is_not_called_too_wide(capsys):
    """The search's checks took every game of the card (a large --remedy-games), so the landing
    has no games of its own to be confirmed on: its interval, printed inside the band, is not
    "not yet" inside, and the study's own interval is not "too wide"; the card's games are too
    few, so the line asks for more --games (or a smaller --remedy-games)."""
    text = _text(capsys, [_record()])
    assert "[+0.102, +0.352] vs band [+0.032, +0.363]" in text
    assert "its interval is not yet" not in text and "too wide" not in text
    assert "none of the card's 2,296 games in the study was left to confirm it" in text
    assert "more --games" in text and "lower --remedy-games" in text


def test_replays_the_card_does_not_have_are_asked_of_a_longer_study(capsys):
    """`--remedy-games 60000`: checks of 2,000 games left 296 for the confirmation, which
    missed; 1,231 games per check would settle it, but a check and its confirmation need 2,462
    of the card's 2,296: raising --remedy-games cannot give them, a longer study can."""
    text = _text(capsys, [_record(confirmation_games=296, replays_needed=1231,
                                  games_per_check=2000, rating_after=0.177,
                                  rating_after_low=-0.055, rating_after_high=0.408)])
    assert "not on 296 games of its own" in text and "about 1,231 replayed games" in text
    assert "raise --remedy-games" not in text
    assert "holds 2,296 games of this card" in text and "more --games" in text
    # with games enough for both, the replays are what it takes
    text = _text(capsys, [_record(confirmation_games=296, replays_needed=1231,
                                  games_per_check=2000, card_games=9000, rating_after=0.177,
                                  rating_after_low=-0.055, rating_after_high=0.408)])
    assert "about 1,231 replayed games per check would settle it (raise --remedy-games" in text


def test_the_records_carry_the_card_s_games_in_the_study():
    """`card_games` in --format json and what the text reads: the games the search and its
    confirmation share."""
    from types import SimpleNamespace

    cand = Candidate("max_health", 275, 195, 131.0, 110.4)
    check = Check(0, cand, 0.227, 0.102, 0.352, -0.07, 2296)
    r = Remedy(0, -1, "unsettled", check, (check,), 40, 0.032, 0.363, 0.631, 0.536, 0.727, -1,
               None, 2296)
    catalogue = SimpleNamespace(cards=SimpleNamespace(names=["Pixel Paladin"],
                                                      rarity=np.array([4])),
                                rules=SimpleNamespace(rarities=["Bronze", "Silver", "Gold",
                                                                "Diamond", "Legendary",
                                                                "GOAT Series"]))
    (row,) = remedy_records([r], catalogue, np.tile([[0.0, 500.0]], (6, 1)))
    assert row["card_games"] == 2296 and row["confirmation_games"] == 0


def test_a_named_card_that_is_not_shown_out_is_not_said_to_need_no_remedy(capsys):
    """--remedy-card Mario on a small study: Mario is undecided (neither shown out nor in), so
    "no remedy needed" would claim what the study has not shown; only a card shown inside its
    band needs none."""
    text = _text(capsys, [], [("Mario", "undecided"), ("Luffy", "in band"),
                              ("Folio Dragon", "not played")])
    assert "Mario: not an outlier at this many games, but not shown inside its band" in text
    assert "Mario is not an outlier: no remedy needed" not in text
    assert "Luffy: shown inside its band: no remedy needed" in text
    assert "Folio Dragon: not in play in this study" in text


def _catalogue():
    from types import SimpleNamespace

    return SimpleNamespace(cards=SimpleNamespace(names=["Relay Brothers"], rarity=np.array([2])),
                           rules=SimpleNamespace(rarities=["Bronze", "Silver", "Gold", "Diamond",
                                                           "Legendary", "GOAT Series"]))


def _stat_band_breaking_remedy() -> Remedy:
    """Relay Brothers (Gold) at 8,000 games: max_health 130 → 65 moves power 77.5 → 54.8, below
    the Gold power band 64-86 (`bwlab rarity --remedy` prints "OUTSIDE it")."""
    cand = Candidate("max_health", 130, 65, 77.5, 54.8)
    check = Check(0, cand, -0.181, -0.528, 0.167, -0.062, 210)
    return Remedy(0, -1, "unsettled", check, (check,), 29, -0.241, -0.083, 0.239, 0.122, 0.356,
                  -1, None, 2124)


POWER_BANDS = np.array([[30, 47], [47, 64], [64, 86], [86, 115], [115, 155], [155, 210]], float)


def test_the_report_and_the_csv_say_when_a_remedy_leaves_the_power_band(monkeypatch):
    """docs/power-curve.md, "Reading a remedy": "OUTSIDE it" would mean the fix breaks the stat
    band ... consider a new rarity or a different ability instead. `bwlab rarity` prints it; the
    report's remedies table (and rarity_remedies.csv) and the remedy_* columns of
    rarity_cards.csv carry it too, so the same remedy is not plain advice in one and qualified
    in the other."""
    from types import SimpleNamespace

    import sim.runner.remedy
    from sim.cli.rarity_output import remedy_columns
    from sim.report import lab_report
    from sim.report.glossary import explain

    monkeypatch.setattr(sim.runner.remedy, "remedies",
                        lambda *a, **k: [_stat_band_breaking_remedy()])
    page, catalogue = RecordingPage(), _catalogue()
    curve = SimpleNamespace(remedy=object(), bands=POWER_BANDS)
    fixes = lab_report._remedies(page, catalogue, None, None, curve, 4000)
    row = fixes.set_index("card").loc["Relay Brothers"]
    assert row["power_after"] == 54.8 and not row["power_in_band"]
    assert "power_in_band is False" in " ".join(page.texts)
    assert "by_ratings_only" in fixes.columns and "not shown" in explain("by_ratings_only")
    assert "power band" in explain("power_in_band")
    (record,) = remedy_records([_stat_band_breaking_remedy()], catalogue, POWER_BANDS)
    cols = remedy_columns([record], catalogue.cards.names)
    assert cols["remedy_power_in_band"] == [False]
    assert cols["remedy_by_ratings_only"] == [False]  # unsettled: no short or overshoots claim


def test_the_remedy_table_s_band_is_the_rating_band_not_power_curve_toml():
    """The remedies table's band_low / band_high are ratings (-0.241, -0.083 for Gold), not
    the power curve's 64-86: their column key must not send the reader to power_curve.toml
    alone."""
    from sim.report.glossary import explain

    assert "rating" in explain("band_low") and "rating" in explain("band_high")
    assert "halfway" in explain("band_low")


def _petal(status: str, rating: float, low: float, high: float) -> dict:
    """Petal Storm Girl (Silver, band [-0.349, -0.241]) whose nearest change, speed 5 → 8 (133
    replayed games), rates ``rating`` [``low``, ``high``]: the record remedy_records makes."""
    from types import SimpleNamespace

    check = Check(0, Candidate("speed", 5, 8, 51.1, 54.9), rating, low, high, 0.03, 133)
    remedy = Remedy(0, 1, status, check, (check,), 40, -0.349, -0.241, -0.555, -0.7, -0.41,
                    None, None, 2144)
    catalogue = SimpleNamespace(cards=SimpleNamespace(names=["Petal Storm Girl"],
                                                      rarity=np.array([1])),
                                rules=_catalogue().rules)
    (record,) = remedy_records([remedy], catalogue, POWER_BANDS)
    return record


def test_short_and_overshoots_are_claimed_only_when_the_interval_shows_them(capsys):
    """`bwlab rarity --remedy` on the shipped cards: Petal Storm Girl's nearest change (speed 5
    → 8, 133 replayed games) rates -0.373 [-0.714, -0.033] against the band [-0.349, -0.241].
    Its rating is below the band, its interval reaches far into it: "even the largest allowed
    change stays outside the band" (docs: "short (no allowed change reaches it: more steps, or
    a new rarity)") is not what the simulation showed, so the record says it is by the ratings
    only (by_ratings_only, in the CSVs and the report too) and so does the line. An interval
    wholly outside the band keeps the plain verdict."""
    record = _petal("short", -0.373, -0.714, -0.033)
    assert record["by_ratings_only"]
    text = _text(capsys, [record])
    assert "stays outside the band" not in text
    assert "short by the ratings only" in text and "falling short is not shown" in text
    record = _petal("short", -0.373, -0.714, -0.36)
    assert not record["by_ratings_only"]
    assert "short: even the largest allowed change stays outside the band" in _text(capsys,
                                                                                    [record])
    record = _petal("overshoots", -0.2, -0.3, -0.1)
    assert record["by_ratings_only"]
    text = _text(capsys, [record])
    assert "overshoots by the ratings only" in text and "jumps past it; nearest" not in text
    record = _petal("overshoots", -0.2, -0.23, -0.1)
    assert not record["by_ratings_only"]
    assert "overshoots: every change that reaches the band jumps past it" in _text(capsys,
                                                                                   [record])
    assert not _petal("lands", -0.3, -0.34, -0.25)["by_ratings_only"]
