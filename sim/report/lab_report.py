"""The lab's HTML report: what the shipped cards and rules imply, section by section.

Sections now: the combat report of every card (per star colour, against a typical defender),
the book's worked example drawn exact against Monte Carlo, the rarity power curve with the
cards that stray from their band, team fairness, card ratings in play with their outliers and,
on request, each outlier's remedy. Each section also lands as a CSV beside the page.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from sim.catalogue.power import POWER_CURVE_FILE, load_power_curve, power_score
from sim.catalogue.diagnostics import Problems
from sim.combat.matchup import card_matchup
from sim.combat.sampler import sample_damage

from sim.atomic import atomic_path
from .combat_report import combat_report
from .html import Page
from .plots import damage_overlay, interval_forest, png_bytes, rarity_power_curve

EXAMPLE = ("Luffy", "Mario")  # the book's worked example: "If Luffy (Schedule J) were to attack Mario"


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
    medians = table["median"].to_numpy()
    return table, bool(np.all(np.diff(medians) > 0))


def fairness_section(page: Page, catalogue, teams, games: int, seed: int) -> pd.DataFrame:
    """Team win probabilities with intervals and the seat effect, from duplicate play."""
    from sim.runner.fairness import check_fairness

    rep = check_fairness(catalogue, teams, seed=seed, max_games=games, round_games=games)
    v, s = rep.verdict, rep.seats
    page.heading(f"Team fairness: {Path(teams.path).name}")
    page.text(f"{rep.design} of duplicate play (intervals clustered by board). {v.text}")
    page.image(png_bytes(interval_forest(teams.names, v.rate, v.lower, v.upper,
                                         "Chance to win, with simultaneous intervals",
                                         "win probability", reference=0.25)),
               "team win probabilities")
    lo, hi = s.seat_interval()
    page.image(png_bytes(interval_forest([f"seat {k + 1}" for k in range(4)], s.seat_rate, lo, hi,
                                         f"Seat (turn order) effect, p = {s.seat_pvalue:.3g}",
                                         "win probability of an average team", reference=0.25)),
               "seat effect")
    table = pd.DataFrame({"team": teams.names, "win_probability": v.rate, "low": v.lower,
                          "high": v.upper, "variance_ratio_vs_unpaired": v.variance_ratio})
    page.table(table)
    balance_section(page, rep, teams.names)
    return table


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
              f"({lo:.3f}–{hi:.3f}). " + " ".join(
                  line[0].upper() + line[1:] + "." for line in balance_lines(rep.balance, names,
                                                                           seat_rates=True)))


def ratings_section(page: Page, catalogue, games: int, experiment: Path, *, curve=None,
                    remedy_games: int = 0) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """Card ratings in play (team-composition Plackett-Luce) as a forest plot, by rarity, with
    the outliers; with ``remedy_games`` (and the power ``curve`` holding ``[remedy]`` steps) also
    each outlier's remedy (:mod:`sim.runner.remedy`), as a second table."""
    from dataclasses import replace

    from sim.engine.layout import POLICY_IDS
    from sim.runner.experiment import load_experiment
    from sim.runner.rarity import play_pool, pool_boards, study

    exp = load_experiment(experiment, catalogue.cards, tuple(POLICY_IDS), games=games)
    exp = replace(exp, batch_size=min(exp.batch_size, games))
    seat_cards, winner = play_pool(catalogue, exp)
    rar = np.asarray(catalogue.cards.rarity, np.int64)
    st = study(seat_cards, winner, rar, len(catalogue.rules.rarities),
               boards=pool_boards(exp, len(winner)))
    order = np.lexsort((st.rating, rar))
    labels = [f"{catalogue.cards.names[i]} ({catalogue.rules.rarities[rar[i]]})" for i in order]
    page.heading("Card ratings in play")
    page.text(f"{st.design}, teams drawn from every card. Rating = the card's share of its "
              f"team's strength in a Plackett-Luce model of who wins; 95 % intervals, clustered "
              f"by board. By median rating, the rarity order "
              f"{'holds' if st.ordered else 'DOES NOT HOLD'}; "
              f"{int(np.count_nonzero(st.outlier))} outlier(s) (shown outside their rarity's "
              f"band by one-sided tests, Holm-corrected over the cards in play). The table leads "
              f"with the win rate of teams holding each card. See `bwlab rarity` for the full "
              f"study.")
    page.image(png_bytes(interval_forest(labels, st.rating[order], st.rating_low[order],
                                         st.rating_high[order], "Card ratings by rarity",
                                         "rating (log-strength, centred)", reference=0.0)),
               "card rating forest plot")
    held = np.maximum(st.held[order], 1)
    ratings = pd.DataFrame({"card": [catalogue.cards.names[i] for i in order],
                            "win_rate_held": st.wins[order] / held,
                            "win_low": st.win_low[order], "win_high": st.win_high[order],
                            "games": st.held[order].astype(int),
                            "plays_like": [catalogue.rules.rarities[r]
                                           for r in st.implied_rarity[order]],
                            "rating": st.rating[order], "low": st.rating_low[order],
                            "high": st.rating_high[order],
                            "outlier": np.select([st.outlier[order] < 0, st.outlier[order] > 0],
                                                 ["weak", "strong"], "")})
    if not remedy_games or curve is None or curve.remedy is None:
        return ratings, None
    from sim.runner.remedy import remedies, remedy_records

    found = remedies(catalogue, exp, seat_cards, winner, st, curve.remedy, remedy_games)
    fixes = pd.DataFrame(remedy_records(found, catalogue, curve.bands),
                         columns=["card", "rarity", "direction", "change", "power_delta",
                                  "rating_before", "rating_after", "rating_after_low",
                                  "rating_after_high", "band_low", "band_high", "status",
                                  "games_replayed"])
    page.heading("Remedies for the outliers")
    page.text(f"For each outlier, the smallest single-stat change (ranked by how much it moves the "
              f"power score; steps from [remedy] in {POWER_CURVE_FILE}) whose replayed games — "
              f"same seeds, at most {remedy_games} per outlier — put its rating inside its "
              f"rarity's band (status lands); overshoots / short show the nearest change checked.")
    page.table(fixes if len(fixes) else pd.DataFrame({"remedy": ["none needed: no outlier"]}))
    return ratings, fixes


def write_report(catalogue, out: Path, *, seed: int = 0, samples: int = 200_000, teams=None,
                 fairness_games: int = 512, rating_games: int = 0,
                 rating_experiment: Path | None = None, remedy_games: int = 0,
                 rulings: Path | None = None) -> Path:
    out = Path(out)
    problems = Problems()
    curve = load_power_curve(catalogue.root / POWER_CURVE_FILE, catalogue.rules, problems)
    if remedy_games and rating_games and curve is not None and curve.remedy is None:
        problems.add(catalogue.root / POWER_CURVE_FILE, None, "remedy",
                     "missing [remedy] table: the stats and steps the remedy search may try")
    problems.raise_if_any()
    page = Page("Board Wars Lab report")
    page.text(f"Cards and rules from {catalogue.root}. Every number here is reproducible: exact "
              f"tables, and Monte Carlo from seed {seed}.")

    frame, typical = combat_report(catalogue)
    page.heading("Combat: every card's attack star")
    page.text(f"Mean damage of one attack action per star colour against a typical defender "
              f"(defense {typical['defense']}, {typical['health']} health: medians of the cards); "
              f"actions_to_kill = attack actions needed to kill it with at least even odds.")
    page.table(frame[["card", "rarity", "suit", "base_star", "base_mean", "base_actions_to_kill",
                      "red_star", "red_mean", "blue_star", "blue_mean", "green_star",
                      "green_mean"]])

    a, d = (catalogue.cards.find(n) for n in EXAMPLE)
    m = card_matchup(catalogue, a, d)
    drawn = sample_damage(m.attacks, m.defense, m.tier, catalogue.rules, seed=seed, n=samples)
    page.heading("The book's worked example, exact against Monte Carlo")
    page.text(f"{m.attacker} ({m.attacks} attacks, dice tier {m.tier}) on {m.defender} "
              f"(defense {m.defense}): hit chance {m.distribution.p_hit:.3f}, mean "
              f"{m.distribution.mean:.2f} exact, {drawn.damage.mean():.2f} sampled "
              f"(the book: \"Mario suffers roughly 26 damage\").")
    page.image(png_bytes(damage_overlay(m.distribution.pmf, drawn.damage,
                                        f"{m.attacker} attacks {m.defender}")),
               "damage distribution, exact and Monte Carlo")

    power = power_table(catalogue, curve)
    summary, ordered = rarity_summary(power, catalogue.rules.rarities)
    page.heading("Rarity power curve")
    page.text("Bronze < Silver < Gold < Diamond < Legendary < GOAT Series by median power: "
              + ("holds." if ordered else "DOES NOT HOLD.")
              + f" {int((~power['in_band']).sum())} card(s) outside their rarity's band "
              f"(cards/{POWER_CURVE_FILE}). Power from card stats alone; win-rate ratings come "
              f"from experiments.")
    rarity = np.asarray(catalogue.cards.rarity, dtype=np.int64)
    page.image(png_bytes(rarity_power_curve(power["power"].to_numpy(), rarity,
                                            catalogue.rules.rarities, curve.bands,
                                            names=catalogue.cards.names)), "rarity power curve")
    page.table(summary)
    strays = power[~power["in_band"]]
    if len(strays):
        page.table(strays)

    tables = [("combat_report.csv", frame), ("power_curve.csv", power),
              ("rarity_summary.csv", summary)]
    if teams is not None:
        tables.append(("fairness.csv", fairness_section(page, catalogue, teams, fairness_games,
                                                        seed)))
    if rating_games and rating_experiment is not None:
        ratings, fixes = ratings_section(page, catalogue, rating_games, rating_experiment,
                                         curve=curve, remedy_games=remedy_games)
        tables.append(("card_ratings.csv", ratings))
        if fixes is not None:
            tables.append(("rarity_remedies.csv", fixes))
    if rulings is not None:  # a `bwlab rulings --out` file: shown, never replayed here
        from .rulings_section import rulings_section

        tables.append(("rulings.csv", rulings_section(page, rulings)))
    out.mkdir(parents=True, exist_ok=True)
    for name, table in tables:
        with atomic_path(out / name) as tmp:
            table.to_csv(tmp, index=False)
    path = out / "report.html"
    page.write(path)
    return path
