"""``bwlab power-levels``: Arena: The Contest's Power Level (1-4) for every card, from simulation.

With ``--validate-budget [K]`` it also measures how well Arena's team budget predicts fairness:
K seeded game sets played in duplicate, the budget's predictions scored against the simulated
win rates (``sim.runner.budget``). Rulings and a sample: docs/rulings-peers.md.
"""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import click

from sim.runner.limits import MAX_GAMES

from ._json import json_text
from ._paths import OUT_FILE_IN_NEW_FOLDER, cards_option, levels_experiment_option
from ._policy import POLICY_HELP, budget_option, policy_label

# The bound of [validate] sets in cards/arena_budget.toml (sim.catalogue.arena_budget): the flag
# asked for more and died allocating the sets' teams after the level games were played.
MAX_SETS = 100_000

COLUMNS = ("card", "rarity", "level", "level_low", "level_high", "rating", "rating_low",
           "rating_high", "games_held")


@click.command("power-levels")
@click.option("--games", type=click.IntRange(64, MAX_GAMES), default=None,
              help="Games of the pool experiment behind the ratings (default: "
                   "cards/arena_budget.toml [levels] games).")
@click.option("--policy", default="greedy", show_default=True, help=POLICY_HELP)
@budget_option
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True,
              help="table: for reading; json: for scripts, on stdout only (the CSV goes to --out).")
@click.option("--out", type=OUT_FILE_IN_NEW_FOLDER,
              default=Path("reports/power_levels.csv"), show_default=True,
              help="CSV of every card's level (written atomically).")
@click.option("--validate-budget", "sets", type=click.IntRange(0, MAX_SETS), default=None,
              is_flag=False, flag_value=0,
              help="Also score the team budget against full simulation over K >= 2 game sets "
                   "(the flag alone or K = 0: [validate] sets of the file; at most "
                   "100000, as there).")
@click.option("--team-budget", type=click.IntRange(5, 20), default=None,
              help="Budget to validate (default: [budget] team of the file). Not --budget, "
                   "which is the look-ahead's simulations per decision.")
@cards_option()
@levels_experiment_option
def power_levels(games, policy, budget, fmt, out, sets, team_budget, cards, levels_file):
    """Each card's Power Level 1-4 (Arena's scale) from its rating in simulated play."""
    from sim.catalogue.arena_budget import load_arena_budget
    from sim.catalogue.loader import load_catalogue
    from sim.runner.budget import power_levels as fit_levels, validate_budget
    from sim.runner.levels_input import levels_experiment

    from ._engine import ready_to_play

    _check_flags(sets, team_budget)
    policy = policy_label(policy, budget)
    catalogue = load_catalogue(cards)
    spec = load_arena_budget(catalogue.root, experiment_file=levels_file)
    exp = levels_experiment(catalogue, spec, policy, games, games_flag="--games")
    ready_to_play({"--out": out}, catalogue.root)  # all inputs read: --out is none of them
    table = fit_levels(catalogue, spec, policy, games, exp=exp)
    names = catalogue.cards.names
    rows = _rows(catalogue, table)
    _write_csv(out, rows)
    data = {"games": table.games, "policy": table.policy, "experiment": table.experiment,
            "rule": spec.rule, "cuts": [float(x) for x in table.cuts], "budget": spec.budget,
            "counts": {str(k): int((table.level == k).sum()) for k in range(1, 5)},
            "cards": rows, "csv": str(out), "games_balance": table.balance.as_dict(),
            "rating_interval": {"confidence": table.confidence, "clustered_by": "board"}}
    check = None
    if sets is not None:
        check = validate_budget(catalogue, spec, table, sets=sets or spec.sets,
                                policy=policy, budget=team_budget)
        data["validation"] = validation_dict(check, names)
        data["validation"]["conclusion"] = budget_conclusion(check)
    if fmt == "json":
        click.echo(json_text(data, "power-levels", indent=2))
        return
    if check is not None:  # the answer first, the statistics after
        click.echo(data["validation"]["conclusion"])
        click.echo("")
    _echo_levels(spec, table, rows)
    click.echo(f"wrote {out}")
    if check is not None:
        click.echo("")
        for line in validation_lines(check):
            click.echo(line)


def _check_flags(sets, team_budget) -> None:
    """Refuse a flag combination that cannot mean anything, before any file is read."""
    if sets == 1:
        raise click.BadParameter("at least 2 game sets", param_hint="--validate-budget")
    if team_budget is not None and sets is None:
        raise click.UsageError("--team-budget is the budget --validate-budget scores: give "
                               "--validate-budget too")


def _write_csv(out: Path, rows: list[dict]) -> None:
    """The level table as CSV, written atomically (a reader never sees half a file)."""
    from sim.atomic import write_text

    buf = io.StringIO()
    writer = csv.DictWriter(buf, COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    write_text(out, buf.getvalue())


def _echo_levels(spec, table, rows: list[dict]) -> None:
    """The table for reading: the cards by level, strongest first, then the games' balance."""
    from sim.analysis.balance import balance_lines

    click.echo(f"Power Levels ({spec.rule} rule, cuts {', '.join(f'{x:+.3f}' for x in table.cuts)})"
               f" from {table.games} games of {Path(table.experiment).name}, policy {table.policy}")
    click.echo(f"rating: the card's share of its team's strength (Plackett–Luce, 0 = an average "
               f"card, +0.29 = odds × 4/3), with its {100 * table.confidence:.0f} % interval "
               f"clustered by board; the games' shares below at 95 %")
    for k in range(4, 0, -1):
        members = sorted((r for r in rows if r["level"] == k), key=lambda r: -r["rating"])
        click.echo(f"level {k} ({len(members)} cards):")
        for r in members:
            unsure = "" if r["level_low"] == r["level_high"] else \
                f"  (levels {r['level_low']}–{r['level_high']} within its interval)"
            click.echo(f"  {r['card'][:26]:<27}{r['rarity']:<12}{r['rating']:+.2f} "
                       f"({r['rating_low']:+.2f} – {r['rating_high']:+.2f}){unsure}")
    for line in balance_lines(table.balance, [f"seat {k + 1}" for k in range(4)]):
        click.echo(line)


def _rows(catalogue, table) -> list[dict]:
    """Each card's level and rating (the CSV's rows, the JSON's cards)."""
    names, rarities = catalogue.cards.names, catalogue.rules.rarities
    return [{"card": names[c], "rarity": rarities[int(catalogue.cards.rarity[c])],
             "level": int(table.level[c]), "level_low": int(table.level_low[c]),
             "level_high": int(table.level_high[c]), "rating": round(float(table.rating[c]), 4),
             "rating_low": round(float(table.rating_low[c]), 4),
             "rating_high": round(float(table.rating_high[c]), 4),
             "games_held": int(table.held[c])} for c in range(len(names))]


def _points(d) -> str:
    return (f"difference of the fair shares {100 * d[1]:+.0f} to {100 * d[2]:+.0f} points"
            if not math.isnan(d[1]) else "")


def _settled(s, where: str, games: int) -> str:
    """One group's sets by their own verdicts, and the share of fair sets that allows."""
    return (f"{s.fair} of {s.n} sets {where} were settled fair by their own {games} games and "
            f"{s.unfair} unfair, so {100 * s.low:.0f}–{100 * s.high:.0f} % of such sets are fair")


def budget_conclusion(v) -> str:
    """Does the team budget predict fairness? One sentence (issue #21: "The team budget does not
    predict fairness here: 4 of 4 budget-built sets were unfair"), whose answer is what the
    intervals show (:func:`sim.analysis.power_level.budget_verdict`) on the share of *truly*
    fair sets, bounded from each set's own verdict (fair, unfair, or not settled by its games:
    :func:`sim.analysis.budget_fairness.fair_shares`). Why not the sets whose simulated rates
    fell in the band: the dice push fair sets out of it, and "does not predict" was said of a
    budget whose sets were all fair in 21.5 % of planted validations
    (docs/power-levels-audit.md). When the sets' own games settle too few of them, the sentence says
    so and asks for more games a set or more sets ("-66 to +66 points" once read "does not
    predict")."""
    from sim.analysis.power_level import budget_verdict

    w, o, d = v.fair_within, v.fair_over, v.fair_difference
    k, g = v.built.size, v.set_games
    kind = budget_verdict(w, o, d)
    if kind == "untested":
        return (f"The team budget could not be tested: none of the {k} sets was "
                f"within a budget of {v.budget}.")
    within = _settled(w, f"within budget {v.budget}", g)
    over = (f"{o.fair} fair and {o.unfair} unfair of {o.n} over it "
            f"({100 * o.low:.0f}–{100 * o.high:.0f} %)") if o.n else ""
    against = f", against {over}" if o.n else ", and no set was over it to compare"
    diff = f"; {_points(d)}" if _points(d) else ""
    if kind == "predicts":
        return f"The team budget predicts fairness here: {within}{against}{diff}."
    if kind == "helps":
        return (f"The team budget helps but does not make games fair here: {within}"
                f"{against}{diff}.")
    if kind == "helps_open":
        return (f"The team budget helps here (its sets are fair more often), but whether most "
                f"of its sets are fair is not settled with {k} sets: {within}{against}{diff}; "
                f"run more sets.")
    if kind == "does_not" and w.high < 0.5:
        return (f"The team budget does not predict fairness here: {w.unfair} of {w.n} sets "
                f"within budget {v.budget} were settled unfair by their own {g} games (a "
                f"team's chance outside 25 % ± {100 * v.tolerance:.0f}), so at most "
                f"{100 * w.high:.0f} % of such sets are fair{against}{diff}.")
    if kind == "does_not":
        return (f"The team budget does not predict fairness here: the sets over it are fair "
                f"more often: {within}{against}{diff}.")
    more = (f"more games a set ([validate] games) or more sets: {w.unsettled + o.unsettled} of "
            f"{k} sets were not settled by their own games" if w.unsettled + o.unsettled
            else "more sets")
    return (f"Not settled with {k} sets of {g} games whether the team budget predicts "
            f"fairness: {within}{against}{diff}; run {more}.")


def _share(s) -> dict:
    return {"k": s.k, "n": s.n, "rate": s.rate, "low": s.low, "high": s.high}


def _fair_share(s) -> dict:
    return {"settled_fair": s.fair, "settled_unfair": s.unfair, "not_settled": s.unsettled,
            "n": s.n, "low": s.low, "high": s.high, "in_band_estimates": s.estimate}


def validation_dict(v, names) -> dict:
    from sim.analysis.power_level import budget_verdict

    return {
        "sets": int(v.built.size), "budget_built": int(v.built.sum()), "games_per_set": v.set_games,
        "budget": v.budget, "tolerance": v.tolerance, "policy": v.policy,
        "seconds": round(v.seconds, 2),
        "rank_correlation_levels": vars(v.rho_levels),
        "rank_correlation_ratings": vars(v.rho_ratings),
        "favourite_agreement_levels": _share(v.fav_levels),
        "favourite_agreement_ratings": _share(v.fav_ratings),
        "spread_vs_largest_gap": dict(zip(("rho", "low", "high", "n"), v.spread_gap)),
        "agreement_with": f"simulated win rates of {v.set_games} games a set",
        "halves": {"games_each": v.halves.games, "rank_correlation": vars(v.halves.rho),
                   "favourite_agreement": _share(v.halves.favourite),
                   "largest_gap": dict(zip(("rho", "low", "high", "n"), v.halves.gap))},
        "fair_share_of": "truly fair sets, bounded from each set's own verdict",
        "fair_within_budget": _fair_share(v.fair_within),
        "fair_over_budget": _fair_share(v.fair_over),
        "fair_difference": dict(zip(("estimates_difference", "low", "high"),
                                    v.fair_difference)),
        "verdict": budget_verdict(v.fair_within, v.fair_over, v.fair_difference),
        "confidence": v.confidence,
        "boards_per_set": v.boards_per_set, "sets_share_boards": False,
        "levels_taken_as_given": True, "cards_in_play": v.cards_in_play,
        "levels_uncertain": v.levels_uncertain,
        "game_sets": [{"built_under_budget": bool(v.built[g]), "within_budget": bool(v.within[g]),
                       "totals": v.totals[g].tolist(), "win_probability": v.rate[g].tolist(),
                       "simulation_verdict": str(v.status[g]), "fair_estimate": bool(v.fair[g]),
                       "teams": [[names[c] for c in t] for t in v.teams[g]]}
                      for g in range(v.built.size)],
    }


def _pct(s) -> str:
    if not s.n:
        return "no such sets"
    return f"{100 * s.rate:5.1f} % ({100 * s.low:.1f}–{100 * s.high:.1f}), {s.k} of {s.n}"


def _rho(mean: float, low: float, high: float, why: str,
         none: str = "no set ranks the teams") -> str:
    """A correlation with its interval, or with the reason it has none (``none``: why there is
    no correlation at all)."""
    if math.isnan(mean):
        return f"none ({none})"
    if math.isnan(low):
        return f"{mean:+.2f} (no interval: {why})"
    return f"{mean:+.2f} ({low:+.2f} – {high:+.2f})"


def _fair_line(s, where: str) -> str:
    if not s.n:
        return f"{where}: no such sets"
    return (f"{where}: {s.fair} settled fair, {s.unfair} settled unfair, {s.unsettled} not "
            f"settled of {s.n}; truly fair {100 * s.low:.0f}–{100 * s.high:.0f} %")


def _halves_line(v) -> str:
    """The dice's ceiling: the same statistics between two halves of each set's games."""
    h = v.halves
    fav = f"{100 * h.favourite.rate:.0f} % ({100 * h.favourite.low:.0f}–" \
          f"{100 * h.favourite.high:.0f})" if h.favourite.n else "none"
    return (f"  the dice alone, for scale: two halves of each set's games ({h.games} each) agree "
            f"at rank correlation {_rho(h.rho.mean, h.rho.low, h.rho.high, 'every set alike')}, "
            f"favourite {fav}, largest gap "
            f"{_rho(h.gap[0], h.gap[1], h.gap[2], 'fewer than 10 sets', 'no gap to rank')}; "
            f"agreement with the teams' true chances is not measured")


def validation_lines(v) -> list[str]:
    """The report in plain words, each number with its interval and what it is about: the
    agreement lines are with the simulated rates of ``set_games`` games (they rise with more
    games a set: 0.67 at 256 and 0.82 at 4,096 in the audit's plant), shown beside the same
    statistics between two halves of each set's games; the fair shares are of truly fair sets,
    bounded from each set's verdict (:mod:`sim.analysis.budget_fairness`)."""
    from sim.analysis.power_level import SPEARMAN_MIN_PAIRS

    rl, rr, sg = v.rho_levels, v.rho_ratings, v.spread_gap
    d = v.fair_difference

    def alike(r) -> str:
        return "every set alike" if r.n >= 2 else "fewer than 2 sets"

    few = f"fewer than {SPEARMAN_MIN_PAIRS} sets"
    diff = ("no difference: a group has no sets" if math.isnan(d[1]) else
            f"difference of the fair shares {100 * d[1]:+.0f} to {100 * d[2]:+.0f} points")
    conf = f"{100 * getattr(v, 'confidence', 0.95):.0f} %"
    tol = f"25 % ± {100 * v.tolerance:.0f}"
    return [
        f"Budget vs full simulation: {v.built.size} game sets ({int(v.built.sum())} drafted under "
        f"budget {v.budget} by random players, the rest random teams), {v.set_games} games each "
        f"in duplicate play on {v.boards_per_set} boards of its own, policy {v.policy}, "
        f"{v.seconds:.0f} s",
        f"  agreement with the simulated win rates of {v.set_games} games a set (the dice "
        f"included: more games a set raise these figures):",
        f"  rank correlation within a set, level totals vs those rates: "
        f"{_rho(rl.mean, rl.low, rl.high, alike(rl))}; {rl.n} sets, "
        f"{rl.undefined} with equal totals",
        f"  the same for the ratings the levels quantise (reference): "
        f"{_rho(rr.mean, rr.low, rr.high, alike(rr))}",
        f"  budget's favourite (single highest total) has those rates' highest: "
        f"{_pct(v.fav_levels)}; ratings' favourite: {_pct(v.fav_ratings)}; chance 25 %",
        f"  spread of totals vs largest simulated gap from 25 % (Spearman over sets): "
        f"{_rho(sg[0], sg[1], sg[2], few, 'fewer than two sets, or no spread to rank')}",
        _halves_line(v),
        f"  fair sets by each set's own verdict (every team {tol}, {conf} simultaneous over its "
        f"teams, from its {v.set_games} games):",
        "  " + _fair_line(v.fair_within, "within budget"),
        "  " + _fair_line(v.fair_over, "over budget") + f"; {diff}",
        f"  point estimates (a description, not fairness: the dice push fair sets out of the "
        f"band): {v.fair_within.estimate} of {v.fair_within.n} sets within budget and "
        f"{v.fair_over.estimate} of {v.fair_over.n} over it have every simulated rate within "
        f"{tol}",
        f"  (intervals {conf} over sets, which are independent given the levels (each on its "
        f"own boards and dice): fair shares from Clopper–Pearson bounds on the settled counts, "
        f"each set's own error rate allowed for, and their difference from the two groups' "
        f"bounds; Wilson for favourites; t over sets, widened to hold Hall's skewness-corrected "
        f"t; Fisher z from {SPEARMAN_MIN_PAIRS} sets)",
        f"  levels taken as given: the answer is about this level table, fitted on other games; "
        f"{v.levels_uncertain} of {v.cards_in_play} cards in play could sit at another level "
        f"within their rating's interval, which these intervals do not count",
    ]
