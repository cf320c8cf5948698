"""The lab's HTML report: what the shipped cards and rules imply, answers first.

A summary (fairness verdict and favoured team, confirmed swaps, rarity outliers named, drift),
then the sections in the order readers ask: team fairness (and, on request, swaps confirmed by
play), card ratings in play with their outliers and, on request, each outlier's remedy; the rarity
power curve; drift against a baseline and which house rulings matter, when given; then the combat
report of every card and the book's worked example exact against Monte Carlo. Each section also
lands as a CSV beside the page; the footer says where every number came from.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

from sim.analysis.fairness import FAIR
from sim.catalogue.power import POWER_CURVE_FILE, load_power_curve, power_score
from sim.catalogue.diagnostics import Problems
from sim.combat.matchup import card_matchup
from sim.combat.sampler import sample_damage

from sim.atomic import atomic_paths
from sim.runner import progress

from . import CSV_FLOAT
from .combat_report import combat_report
from .fairness_command import same_as_fairness, same_as_rarity
from .html import Page
from .plots import DPI, damage_overlay, interval_forest, png_bytes, rarity_power_curve
from .summary import cite_common, drift_section, outliers_answer, swaps_answer, swaps_section

# the book's worked example: "If Luffy (Schedule J) were to attack Mario"
EXAMPLE = ("Luffy", "Mario")


def power_table(catalogue, curve) -> pd.DataFrame:
    cards, rules = catalogue.cards, catalogue.rules
    score = power_score(cards, rules)
    lo, hi = curve.bands[cards.rarity, 0], curve.bands[cards.rarity, 1]
    return pd.DataFrame({
        "card": cards.names, "rarity": [rules.rarities[r] for r in cards.rarity],
        "power": np.round(score, 1), "band_low": lo, "band_high": hi,
        "in_band": (score >= lo) & (score <= hi)})


def rarity_summary(power: pd.DataFrame, rarities) -> tuple[pd.DataFrame, bool]:
    """Spread of power per rarity and whether the medians rise Bronze < ... < GOAT Series."""
    g = power.groupby("rarity", sort=False)["power"]
    table = pd.DataFrame({"cards": g.size(), "min": g.min(), "median": g.median(),
                          "max": g.max()}).reindex(list(rarities)).reset_index()
    table["median"] = table["median"].round(2)   # of powers in tenths: halves of a tenth at most
    medians = table["median"].to_numpy()
    return table, bool(np.all(np.diff(medians) > 0))


def fairness_section(page: Page, catalogue, teams, games: int, seed: int, policy: str = "greedy"):
    """Team win probabilities with intervals and the seat effect, from duplicate play; returns
    the table and the verdict (for the summary and the swap search)."""
    from sim.runner.fairness import check_fairness

    from .summary import fairness_answer

    rep = check_fairness(catalogue, teams, policy=policy, seed=seed, max_games=games,
                         round_games=games)
    v, s = rep.verdict, rep.seats
    fairness_answer(page, v, teams.names, policy)
    page.cite("fairness", f"{Path(teams.path).name}: policy {policy}, {v.design}, root seed "
                          f"{seed}")
    page.heading(f"Team fairness: {Path(teams.path).name}", "fairness")
    page.text(f"{rep.design} of duplicate play (intervals clustered by board). {v.text}")
    page.text(same_as_fairness(teams.path, seed, rep, policy, catalogue.root))
    page.image(png_bytes(interval_forest(teams.names, v.rate, v.lower, v.upper,
                                         "Chance to win, with simultaneous intervals",
                                         "win probability", reference=0.25)),
               "team win probabilities", DPI)
    lo, hi = s.seat_interval()
    page.image(png_bytes(interval_forest([f"seat {k + 1}" for k in range(4)], s.seat_rate, lo, hi,
                                         f"Seat (turn order) effect, p = {s.seat_pvalue:.3g}",
                                         "win probability of an average team", reference=0.25)),
               "seat effect", DPI)
    page.text(f"Seat effect: p = {s.seat_pvalue:.3g} is the chance of seat win rates at least "
              f"this uneven if the turn order gave no advantage (below 0.05: it does). The "
              f"chart's seat intervals are {100 * s.confidence:.4g} %, clustered by board.")
    table = pd.DataFrame({"team": teams.names, "win_probability": v.rate, "low": v.lower,
                          "high": v.upper, "variance_ratio_vs_unpaired": v.variance_ratio})
    page.table(table)
    balance_section(page, rep, teams.names)
    return table, v


def balance_section(page: Page, rep, names) -> None:
    """The pairwise differences (simultaneous intervals), the ranking where teams are told
    apart, and the balance metrics designers know (sim.analysis.balance)."""
    from sim.analysis.balance import balance_from_pairs, balance_lines, ranking_text

    pairs = list(rep.pairs)
    page.text(f"Differences between teams, simultaneous {100 * rep.pair_level:.2f} % intervals "
              f"(95 % for all six pairs together). {ranking_text(rep.verdict.rate, pairs, names)}")
    page.table(pd.DataFrame({"team_a": [names[p.a] for p in pairs],
                             "team_b": [names[p.b] for p in pairs],
                             "difference": [p.difference for p in pairs],
                             "low": [p.low for p in pairs], "high": [p.high for p in pairs],
                             "told_apart": [p.apart for p in pairs]}))
    bal, lo, hi = balance_from_pairs(pairs)
    page.text(f"Balance (1 - the largest gap between two teams' win rates): {bal:.3f} "
              f"({lo:.3f}–{hi:.3f}, simultaneous). " + " ".join(
                  line[0].upper() + line[1:] + "." for line in balance_lines(rep.balance, names,
                                                                           seat_rates=True))
              + " (The shares' intervals are 95 %, clustered by board.)")


def ratings_section(page: Page, catalogue, games: int, experiment: Path, *, curve=None,
                    remedy_games: int = 0) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """Card ratings in play (team-composition Plackett-Luce) as a forest plot, by rarity, with
    the outliers; with ``remedy_games`` (and the power ``curve`` holding ``[remedy]`` steps) also
    each outlier's remedy (:mod:`sim.runner.remedy`), as a second table."""
    from dataclasses import replace

    from sim.engine.state.fields import POLICY_IDS
    from sim.runner.experiment import load_experiment
    from sim.runner.rarity import play_pool, pool_boards, study

    exp = load_experiment(experiment, catalogue.cards, tuple(POLICY_IDS), games=games)
    exp = replace(exp, batch_size=min(exp.batch_size, games))
    seat_cards, winner = play_pool(catalogue, exp)
    rar = np.asarray(catalogue.cards.rarity, np.int64)
    st = study(seat_cards, winner, rar, len(catalogue.rules.rarities),
               boards=pool_boards(exp, len(winner)))
    order = np.lexsort((st.rating, rar))
    names, rarities = catalogue.cards.names, catalogue.rules.rarities
    outlier = np.select([st.outlier[order] < 0, st.outlier[order] > 0], ["weak", "strong"], "")
    held = np.maximum(st.held[order], 1)
    # an outlier's interval given its flag, which chose it for lying far out (rarity_flags)
    flagged = st.outlier != 0
    low = np.where(flagged, st.flag_low, st.rating_low)[order]
    high = np.where(flagged, st.flag_high, st.rating_high)[order]
    # and its held win rate's, simultaneous over the cards in play (rarity.held_win_given_flag)
    win_low = np.where(flagged, st.win_flag_low, st.win_low)[order]
    win_high = np.where(flagged, st.win_flag_high, st.win_high)[order]
    ratings = pd.DataFrame({"card": [names[i] for i in order],
                            "rarity": [rarities[rar[i]] for i in order],
                            "win_rate_held": st.wins[order] / held,
                            "win_low": win_low, "win_high": win_high,
                            "games": st.held[order].astype(int),
                            "plays_like": [rarities[r] for r in st.implied_rarity[order]],
                            "rating": st.rating[order], "low": low, "high": high,
                            "outlier": outlier, "verdict": st.verdict[order]})
    page.cite("card ratings", f"{experiment}: policy {', '.join(dict.fromkeys(exp.policies))}, "
                              f"{st.design}, "
                              f"root seed {exp.root_seed}")
    page.heading("Card ratings in play", "ratings")
    page.text(f"{st.design}, teams drawn from every card. Rating = the card's share of its "
              f"team's strength in a Plackett-Luce model of who wins; 95 % intervals, clustered "
              f"by board (an outlier's given its flag, which chose it for lying far out). By "
              f"median rating, the rarity order {_order_words(st, rarities)}; "
              f"{int(np.count_nonzero(st.outlier))} outlier(s) (shown outside their rarity's "
              f"band by one-sided tests, Holm-corrected over the cards in play), marked red "
              f"here and ⚠ in the table. The table leads with the designers' number: the win "
              f"rate of teams holding each card, with its 95 % interval (an outlier's "
              f"simultaneous over the {int((st.held > 0).sum())} cards in play, which holds "
              f"given its flag). {same_as_rarity(games, experiment, catalogue.root)}")
    page.image(png_bytes(interval_forest(
        [f"{names[i]} ({rarities[rar[i]]})" for i in order], st.rating[order],
        low, high, "Card ratings by rarity (outliers red)",
        "rating (log-strength, centred)", reference=0.0, marked=outlier != "")),
        "card rating forest plot", DPI)
    shown = ratings.drop(columns=["win_rate_held", "win_low", "win_high"])
    shown.insert(2, "win_when_held", [f"{100 * w:.1f} % ({100 * lo:.1f}–{100 * hi:.1f})"
                                      for w, lo, hi in zip(ratings["win_rate_held"],
                                                           ratings["win_low"],
                                                           ratings["win_high"])])
    page.table(shown, mark=outlier != "", why="rating outside its rarity's band")
    if not remedy_games or curve is None or curve.remedy is None:
        return ratings, None
    return ratings, _remedies(page, catalogue, exp, st, curve, remedy_games)


def _order_words(st, rarities) -> str:
    """The rarity order's three-way verdict (:func:`sim.analysis.rarity_order.order_test`) in words,
    with its level and, unless it holds, the pairs behind it."""
    if st.order is None:
        return "is not settled (no standard errors)"
    word = {"holds": "holds", "does not hold": "DOES NOT HOLD",
            "not settled": "is not settled"}[st.order_verdict]
    detail = "" if st.order_verdict == "holds" else f": {st.order.detail(list(rarities))}"
    return f"{word} ({st.order.level_words()}{detail})"


def _remedies(page, catalogue, exp, st, curve, remedy_games) -> pd.DataFrame:
    """Each outlier's remedy (:mod:`sim.runner.remedy`, measured on a base study of its own),
    as a table."""
    from sim.runner.remedy import remedies, remedy_records

    found = remedies(catalogue, exp, st, curve.remedy, remedy_games)
    fixes = pd.DataFrame(remedy_records(found, catalogue, curve.bands),
                         columns=["card", "rarity", "direction", "change", "power_delta",
                                  "power_before", "power_after", "power_in_band",
                                  "rating_before", "rating_after", "rating_after_low",
                                  "rating_after_high", "band_low", "band_high", "status",
                                  "by_ratings_only", "checks_run", "games_per_check",
                                  "games_replayed"])
    page.heading("Remedies for the outliers", "remedies")
    page.text(f"For each outlier, the smallest single-stat change (ranked by how much it moves the "
              f"power score; steps from [remedy] in {POWER_CURVE_FILE}) whose replayed games — "
              f"the card's games in a base study played afresh (the luck that flagged it does "
              f"not measure its fix; rating_before is the base study's), same seeds, at most "
              f"{remedy_games} per outlier — put its rating's whole 95 % "
              f"interval inside its rarity's band, and again on the card's next games (status "
              f"lands; the rating columns are that confirmation's); unsettled: inside but not "
              f"yet sure; overshoots / short show the nearest change checked, and "
              f"by_ratings_only True says its interval still reaches into the band (the games "
              f"have not shown it; more games could). A change whose "
              f"power_in_band is False takes the card's stats out of its rarity's power band "
              f"when power_before lay inside it: the power curve misjudges this card (often its "
              f"ability), so consider a new rarity or a different ability instead; when "
              f"power_before already lay outside it, the stats too say the card strays, and the "
              f"change is not enough by stats.")
    page.cite("remedies", f"at most {remedy_games:,} replayed games per outlier, same seeds")
    page.table(fixes if len(fixes) else pd.DataFrame({"remedy": ["none needed: no outlier"]}))
    return fixes


def combat_sections(page: Page, catalogue, seed: int, samples: int, flagged) -> pd.DataFrame:
    """Every card's attack star against a typical defender (``flagged`` cards marked), and the
    book's worked example drawn exact against Monte Carlo."""
    frame, typical = combat_report(catalogue)
    page.heading("Combat: every card's attack star", "combat")
    page.text(f"Mean damage of one attack action per star colour against a typical defender "
              f"(defense {typical['defense']}, {typical['health']} health: medians of the cards); "
              f"actions_to_kill = attack actions needed to kill it with at least even odds.")
    page.table(frame[["card", "rarity", "suit", "base_star", "base_mean", "base_actions_to_kill",
                      "red_star", "red_mean", "blue_star", "blue_mean", "green_star",
                      "green_mean"]], mark=frame["card"].isin(flagged),
               why="an outlier in play or outside its power band")
    a, d = (catalogue.cards.find(n) for n in EXAMPLE)
    m = card_matchup(catalogue, a, d)
    drawn = sample_damage(m.attacks, m.defense, m.tier, catalogue.rules, seed=seed, n=samples)
    page.cite("Monte Carlo", f"{samples:,} samples of the worked example, seed {seed}")
    page.heading("The book's worked example, exact against Monte Carlo", "example")
    page.text(f"{m.attacker} ({m.attacks} attacks, dice tier {m.tier}) on {m.defender} "
              f"(defense {m.defense}): hit chance {m.distribution.p_hit:.3f}, mean "
              f"{m.distribution.mean:.2f} exact, {drawn.damage.mean():.2f} ± "
              f"{drawn.damage.std(ddof=1) / np.sqrt(drawn.damage.size):.2f} sampled (± one "
              f"standard error; the book: \"Mario suffers roughly 26 damage\").")
    page.image(png_bytes(damage_overlay(m.distribution.pmf, drawn.damage,
                                        f"{m.attacker} attacks {m.defender}")),
               "damage distribution, exact and Monte Carlo", DPI)
    return frame


def power_section(page: Page, catalogue, curve) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The rarity power curve from card stats alone: the order of the medians, the strays."""
    power = power_table(catalogue, curve)
    summary, ordered = rarity_summary(power, catalogue.rules.rarities)
    page.heading("Rarity power curve", "power")
    page.text("Bronze < Silver < Gold < Diamond < Legendary < GOAT Series by median power: "
              + ("holds." if ordered else "DOES NOT HOLD.")
              + f" {int((~power['in_band']).sum())} card(s) outside their rarity's band "
              f"(cards/{POWER_CURVE_FILE}), drawn red and named. Power from card stats alone; "
              f"win-rate ratings come from experiments.")
    rarity = np.asarray(catalogue.cards.rarity, dtype=np.int64)
    page.image(png_bytes(rarity_power_curve(power["power"].to_numpy(), rarity,
                                            catalogue.rules.rarities, curve.bands,
                                            names=catalogue.cards.names)), "rarity power curve",
               DPI)
    page.table(summary)
    strays = power[~power["in_band"]]
    if len(strays):
        page.table(strays, mark=[True] * len(strays), why="power outside its rarity's band")
    return power, summary


def write_report(catalogue, out: Path, *, seed: int = 0, samples: int = 200_000, teams=None,
                 fairness_games: int = 512, rating_games: int = 0,
                 rating_experiment: Path | None = None, remedy_games: int = 0,
                 rulings: Path | None = None, policy: str = "greedy",
                 suggest: Callable[[], dict] | None = None, drift=None,
                 players: list[str] | None = None) -> Path:
    """Play what the report needs and write report.html and its CSVs into ``out``.

    ``suggest`` (the swap search, :func:`sim.cli._fairness_suggest._suggest` bound to its arguments) is
    called only when the teams do not play fair; ``drift`` is ``(GateResult, conclusion,
    baseline path)`` of a drift gate already run. Sections are in the order readers ask: the
    GM's fairness, the designer's cards, CI's drift, then the reference tables."""
    out = Path(out)
    problems = Problems()
    curve = load_power_curve(catalogue.root / POWER_CURVE_FILE, catalogue.rules, problems)
    if remedy_games and rating_games and curve is not None and curve.remedy is None:
        problems.add(catalogue.root / POWER_CURVE_FILE, None, "remedy",
                     "missing [remedy] table: the stats and steps the remedy search may try")
    problems.raise_if_any()
    page = Page("Board Wars Lab report")
    cite_common(page, catalogue)
    rated = bool(rating_games and rating_experiment is not None)
    # its parts, known before the first game (the fairness check with its players and swaps,
    # the ratings, the rest): counted, not timed, as they differ in length by minutes; the
    # stages inside give the games' and the sections' time left
    with progress.stage("building the report", (teams is not None) + rated + 1, unit="parts",
                        timed=False):
        tables = _fairness_sections(page, catalogue, teams, fairness_games, seed, policy,
                                    players, suggest)
        progress.advance(teams is not None)
        ratings = None
        if rated:
            ratings, fixes = ratings_section(page, catalogue, rating_games, rating_experiment,
                                             curve=curve, remedy_games=remedy_games)
            tables.append(("card_ratings.csv", ratings))
            if fixes is not None:
                tables.append(("rarity_remedies.csv", fixes))
            progress.advance()
        steps = 3 + (drift is not None) + (rulings is not None)  # power, combat, files: always
        with progress.stage("sections without games", steps, unit="sections"):
            tables += _sections_without_games(page, catalogue, curve, ratings, rating_games,
                                              drift, rulings, seed, samples)
            path = _write_files(page, out, tables)
            progress.advance()
        progress.advance()
    return path


def _sections_without_games(page, catalogue, curve, ratings, rating_games, drift, rulings,
                            seed: int, samples: int) -> list:
    """The sections that play no game (power curve, drift, rulings, combat), each a step of
    the progress line; the tables they add, as (file name, frame). Why steps: they took ~3.6 s
    after the last game with only "building the report (11 s so far)" on stderr (the audit of
    the progress gaps)."""
    tables = []
    power, summary = power_section(page, catalogue, curve)
    outliers_answer(page, ratings, power, rating_games)
    progress.advance()
    if drift is not None:
        tables.append(("drift.csv", drift_section(page, *drift)))
        progress.advance()
    else:
        page.answer("Drift", "Not checked: run `bwlab report --baseline reports/baseline.json`.",
                    "", "warn")
    if rulings is not None:  # a `bwlab rulings --out` file: shown, never replayed here
        from .rulings_section import rulings_section

        ranking, endings = rulings_section(page, rulings)
        tables.append(("rulings.csv", ranking))
        if endings is not None:
            tables.append(("rulings_endings.csv", endings))
        progress.advance()
    flagged = set(power.loc[~power["in_band"], "card"])
    if ratings is not None:
        flagged |= set(ratings.loc[ratings["outlier"] != "", "card"])
    frame = combat_sections(page, catalogue, seed, samples, flagged)
    progress.advance()
    return tables + [(name, table) for name, table in zip(ALWAYS_WRITTEN[1:],
                                                          (frame, power, summary))]


def _write_files(page, out: Path, tables: list) -> Path:
    """report.html and its CSV tables into ``out``, as one set (``atomic_paths``: all checked
    replaceable before any is written, all replaced together)."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / "report.html"
    # all or none written: the page and its tables replace the old ones together
    with atomic_paths([path] + [out / name for name, _ in tables]) as (page_tmp, *table_tmps):
        for tmp, (_, table) in zip(table_tmps, tables):
            table.to_csv(tmp, index=False, float_format=CSV_FLOAT)
        page_tmp.write_text(page.render(), encoding="utf-8")
    return path


# the files every report writes (report.html first), checked before any game is played
ALWAYS_WRITTEN = ("report.html", "combat_report.csv", "power_curve.csv", "rarity_summary.csv")


def _fairness_sections(page, catalogue, teams, games, seed, policy, players, suggest) -> list:
    """The GM's sections: fairness (and each player's verdict), then the swaps when the teams
    do not play fair; the tables they add, as (file name, frame)."""
    tables = []
    status = suggestion = None
    if teams is not None:
        table, verdict = fairness_section(page, catalogue, teams, games, seed, policy)
        tables.append(("fairness.csv", table))
        status = verdict.status
        if players:
            from .players_section import players_section

            tables.append(("players.csv", players_section(
                page, catalogue, teams, games, seed, policy, verdict, players)))
        if suggest is not None and status != FAIR:
            suggestion = suggest(verdict)  # the teams as measured: a worse swap is no advice
            tables.append(("swaps.csv", swaps_section(page, suggestion)))
    else:
        page.answer("Fairness", "Not checked: no teams (--teams).", "", "warn")
    swaps_answer(page, status, suggestion, suggest is not None)
    return tables
