"""The report's answers (the summary at the top), its drift section and its provenance footer.

Why here and not in each section: the summary speaks to three readers at once (the GM: is it
fair, which swap fixes it; the designer: which cards stray; CI: did win rates drift), in the same
words whichever sections ran, and says plainly when a question was not asked (and how to ask it)
rather than leaving it out. The footer is what makes a mailed report checkable: which player,
how many games on how many boards, which seeds, which card files (by digest), which version, when.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from sim import __version__

TOLERANCE = 0.05   # the fair band of the report's fairness check: 25 % ± this


def _pct(p: float) -> str:
    return f"{100 * p:.1f}"


def fairness_answer(page, verdict, names, policy: str, tolerance: float = TOLERANCE) -> None:
    """The GM's answer: the verdict in the words of `bwlab fairness` (which teams are outside
    the fair band, and on how many games and boards), then the teams shown favoured (their
    interval clears the band), or the highest estimate, said not to be shown favoured. Why not
    "Favoured: <the highest estimate>": one of four equal teams always has it, and the report
    named a favoured team in 200 of 200 planted checks of four equal teams (the second selection
    audit, tests/test_selection_calibration_more.py)."""
    from sim.analysis.fairness import FAIR, UNFAIR, conclusion

    k = int(np.argmax(verdict.rate))
    tone = {FAIR: "ok", UNFAIR: "bad"}.get(verdict.status, "warn")
    # the report's own option for games; boards and tolerance are bwlab fairness's (the report
    # audit of stop 78: it advised --games and "widen the tolerance", which report lacks)
    said = conclusion(verdict, tolerance, names=names, games_option="--fairness-games",
                      elsewhere="bwlab fairness ")
    shown = np.flatnonzero(np.asarray(verdict.lower) > 1.0 / len(verdict.rate) + tolerance)
    top = np.flatnonzero(np.asarray(verdict.rate) == verdict.rate[k])
    # tied estimates are all named: one of two at 34.4 % was singled out (report audit, stop 78)
    highest = (f"the highest estimate is {names[k]}'s, {_pct(verdict.rate[k])} % to win "
               f"({_pct(verdict.lower[k])}–{_pct(verdict.upper[k])} %)" if top.size == 1 else
               "the highest estimates are tied: " + ", ".join(
                   f"{names[j]} {_pct(verdict.rate[j])} % ({_pct(verdict.lower[j])}–"
                   f"{_pct(verdict.upper[j])} %)" for j in top))
    favoured = (f"Favoured: {', '.join(names[j] for j in shown)}." if shown.size else
                f"No team is shown favoured; {highest}.")
    page.answer("Fairness", f"{said} {favoured} Every team played by {policy}.", "fairness", tone)


def swaps_answer(page, status: str | None, suggestion: dict | None, searched: bool) -> None:
    """Confirmed swaps: the first proposal play called fair, or "none confirmed"."""
    from sim.analysis.fairness import FAIR

    if status is None:
        page.answer("Swaps", "Not searched: no fairness check (--teams).")
    elif status == FAIR:
        page.answer("Swaps", "None needed: the teams play fair.", "fairness", "ok")
    elif not searched:
        page.answer("Swaps", "Not searched: run `bwlab report --suggest 3` (or `bwlab fairness "
                             "TEAMS --suggest 3`) for swaps confirmed by play.", "fairness", "warn")
    elif suggestion["confirmed"] is not None:
        page.answer("Swaps", suggestion["conclusion"], "swaps", "ok")
    else:
        page.answer("Swaps", "None confirmed. " + suggestion["conclusion"], "swaps", "bad")


def swaps_section(page, suggestion: dict) -> pd.DataFrame:
    """Each proposal judged by play: its swaps, verdict and measured largest gap from 25 %
    (``largest_gap_from_25``; it was ``measured_gap``, renamed so that it is not read as
    Balance's gap between two teams)."""
    rows = [{"proposal": i + 1, "swaps": "; ".join(f"{s['card_a']} (team {s['team_a']}) ↔ "
                                                   f"{s['card_b']} (team {s['team_b']})"
                                                   for s in t["swaps"]),
             "verdict": t["verdict"], "largest_gap_from_25": t["largest_gap_from_25"],
             "games": t["games"]}
            for i, t in enumerate(suggestion.get("tried", []))]
    table = pd.DataFrame(rows, columns=["proposal", "swaps", "verdict", "largest_gap_from_25",
                                        "games"])
    page.heading("Card swaps, confirmed by play", "swaps")
    page.text(f"Swaps proposed by the card-rating surrogate ({suggestion['rating_games']:,} "
              f"games), each replayed in duplicate play until play calls it fair or unfair; only "
              f"a fair one is advice. {suggestion['conclusion']}"
              + (f" {suggestion['command']}" if suggestion.get("command") else ""))
    page.table(table, mark=table["verdict"] == "fair", why="confirmed fair")
    return table


def outliers_answer(page, ratings: pd.DataFrame | None, power: pd.DataFrame,
                    rating_games: int) -> None:
    """The designer's answer: cards whose play strays from their rarity, named, and the cards
    whose stats alone fall outside their band."""
    strays = power.loc[~power["in_band"], "card"].tolist()
    stats = (f"By stats alone, {len(strays)} card(s) outside their power band"
             + (f": {', '.join(strays)}." if strays else "."))
    if ratings is None:
        page.answer("Rarity outliers", f"In play: not measured (--rating-games). {stats}",
                    "power", "bad" if strays else "warn")
        return
    out = ratings[ratings["outlier"] != ""]
    named = [f"{r.card} ({r.rarity}, {r.outlier}: plays like {r.plays_like}, wins "
             f"{_pct(r.win_rate_held)} % when held)" for r in out.itertuples()]
    # "none shown to stray" alone read as "every card fine" where every card was undecided
    # (128 games: 72 of 72; the report audit of stop 78): the undecided are counted beside it
    verdict = ratings["verdict"]
    open_ = int((verdict == "undecided").sum())
    played = int((verdict != "not played").sum())
    left = f"; {open_} of {played} in play undecided (more --rating-games)" if open_ else ""
    play = (f"In play ({rating_games:,} games): " + ("; ".join(named) if named else
                                                     "none shown to stray from its rarity")
            + left + ".")
    page.answer("Rarity outliers", f"{play} {stats}", "ratings",
                "bad" if named else ("warn" if strays or open_ else "ok"))


def drift_section(page, result, conclusion: str, baseline: Path, rests: str = "") -> pd.DataFrame:
    """The CI gate's result (``sim.runner.drift.run_gate``) as a section and a summary line;
    ``rests``: what the verdict rests on (the test, its delta and error rates), in the section
    only, where the summary must fit the first screen."""
    rows = [{"metric": m.name, "before": m.test.before, "now": m.test.after,
             "elo_change": m.test.elo_change, "low": m.test.elo_interval[0],
             "high": m.test.elo_interval[1], "games": m.test.games, "decision": m.decision}
            for m in result.metrics]
    table = pd.DataFrame(rows, columns=["metric", "before", "now", "elo_change", "low", "high",
                                        "games", "decision"])
    tone = {0: "ok", 1: "bad"}.get(result.exit_code, "warn")
    page.answer("Drift", f"{conclusion} Against {baseline}.", "drift", tone)
    page.heading("Drift against the baseline", "drift")
    page.text(f"{conclusion}{rests} {result.provenance[0].upper()}{result.provenance[1:]} "
              f"Each team's win rate replayed on the baseline's seeds, paired game by game, "
              f"tested on the Elo scale (low/high: its 95 % interval given the gate's call: "
              f"over the runs calling the metric drift for a metric called drift, over the runs "
              f"not calling it for the others); see docs/drift.md.")
    page.table(table, mark=table["decision"].isin(["drift_up", "drift_down"]), why="drifted")
    for line in result.combat:
        page.text(f"Combat table changed: {line}")
    for b in getattr(result, "balance", ()):
        page.text(drift_balance_text(b))
    return table


def drift_balance_text(b: dict) -> str:
    """One matchup's balance metrics beside the gate (informational): how games end now and
    their paired change against the baseline's games (issue #21 item 3)."""
    from sim.analysis.balance_change import ENDING_WORDS

    g = b["now"]["games"]
    now = "; ".join(f"{ENDING_WORDS.get(k, k)} {100 * x['share']:.1f} %"
                    for k, x in g["outcomes"].items())
    head = (f"Balance metrics of {b['matchup']} ({b['games']:,} games; {b['note']}): {now}; "
            f"no winner {100 * g['drawishness']['share']:.1f} %; median length "
            f"{g['duration_rotations']['median']:g} rotations; balance "
            f"{b['now']['balance']['balance']:.3f}.")
    if b["change"] is None:
        return head + f" The baseline's: {b.get('before_missing', 'not recorded')}."
    moved = set(b.get("endings_changed", ()))  # Holm over the matchups (drift_balance)
    moves = "; ".join(f"{ENDING_WORDS.get(k, k)} {100 * c['change']:+.1f} "
                      f"[{100 * c['low']:+.1f}, {100 * c['high']:+.1f}]"
                      + (" (moved)" if k in moved else "")
                      for k, c in b["change"]["endings"].items())
    return head + (f" Change against the baseline's games (points, paired, 95 % clustered by "
                   f"board): {moves}; mean length {b['change']['rotations']['change']:+.2f} "
                   f"rotations.")


def card_digests(root: Path) -> str:
    """Every card file with the first 12 hex digits of its sha256 (the drift gate's digests)."""
    from sim.runner.drift_baseline import card_digests

    return ", ".join(f"{name} {digest[:12]}" for name, digest in card_digests(root).items())


def cite_common(page, catalogue) -> None:
    """The provenance every report has: version, engine, date, cards."""
    from sim.runner.drift_baseline import engine_digest

    from .clock import generated_at

    page.cite("bwlab", f"{__version__}, engine source sha256 {engine_digest()[:12]}")
    page.cite("generated", generated_at().strftime("%Y-%m-%d %H:%M UTC"))  # report/clock.py
    page.cite("cards", str(catalogue.root))
    page.cite("card digests", card_digests(catalogue.root))
