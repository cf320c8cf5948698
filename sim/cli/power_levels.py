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
@click.option("--validate-budget", "sets", type=click.IntRange(0, None), default=None,
              is_flag=False, flag_value=0,
              help="Also score the team budget against full simulation over K >= 2 game sets "
                   "(the flag alone or K = 0: [validate] sets of the file).")
@click.option("--team-budget", type=click.IntRange(5, 20), default=None,
              help="Budget to validate (default: [budget] team of the file). Not --budget, "
                   "which is the look-ahead's simulations per decision.")
@cards_option()
@levels_experiment_option
def power_levels(games, policy, budget, fmt, out, sets, team_budget, cards, levels_file):
    """Each card's Power Level 1-4 (Arena's scale) from its rating in simulated play."""
    from sim.catalogue.arena_budget import load_arena_budget
    from sim.catalogue.loader import load_catalogue
    from sim.runner.budget import levels_experiment, power_levels as fit_levels, validate_budget

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
            "cards": rows, "csv": str(out), "games_balance": table.balance.as_dict()}
    check = None
    if sets is not None:
        check = validate_budget(catalogue, spec, table, sets=sets or spec.sets,
                                policy=policy, budget=team_budget)
        data["validation"] = validation_dict(check, names)
        data["validation"]["conclusion"] = budget_conclusion(check)
    if fmt == "json":
        click.echo(json_text(data, indent=2))
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
    return (f"difference {100 * d[0]:+.0f} points ({100 * d[1]:+.0f} to {100 * d[2]:+.0f})"
            if not math.isnan(d[0]) else "")


def budget_conclusion(v) -> str:
    """Does the team budget predict fairness? One sentence (issue #21: "The team budget does not
    predict fairness here: 4 of 4 budget-built sets were unfair"), whose answer is what the
    intervals show (:func:`sim.analysis.power_level.budget_verdict`): it predicts fairness when
    the sets within the budget are fair more often than those over it (the interval of the
    difference above 0) and most of them are fair (their share's interval above 50 %); it helps
    without making games fair when only the first is shown; it does not predict fairness when
    most sets within it are shown unfair or those over it are shown fairer; otherwise the answer
    is not settled with the sets played ("-66 to +66 points" once read "does not predict")."""
    from sim.analysis.power_level import budget_verdict

    w, o, d = v.fair_within, v.fair_over, v.fair_difference
    k = v.built.size
    tol = f"25 % ± {100 * v.tolerance:.0f}"
    kind = budget_verdict(w, o, d)
    if kind == "untested":
        return (f"The team budget could not be tested: none of the {k} sets was "
                f"within a budget of {v.budget}.")
    share = f"{100 * w.low:.0f}–{100 * w.high:.0f} %"
    within = (f"{w.k} of {w.n} sets within budget {v.budget} were fair (every team {tol}; "
              f"{share})")
    over = f"{o.k} of {o.n} over it" if o.n else "no set was over it"
    diff = f"; {_points(d)}" if _points(d) else ""
    if kind == "predicts":
        return f"The team budget predicts fairness here: {within}, against {over}{diff}."
    if kind == "helps":
        return (f"The team budget helps but does not make games fair here: only {within}, "
                f"against {over}{diff}.")
    if kind == "helps_open":
        return (f"The team budget helps here (its sets are fair more often), but whether most "
                f"of its sets are fair is not settled with {k} sets: {within}, against "
                f"{over}{diff}; run more sets.")
    if kind == "does_not" and w.high < 0.5:
        settled = getattr(v, "unfair_within", None)
        settled = (f", {settled.k} of them settled unfair" if settled is not None and settled.n
                   else "")
        compared = f"{over} were fair" if o.n else "and no set was over it to compare"
        return (f"The team budget does not predict fairness here: {w.n - w.k} of {w.n} sets "
                f"within budget {v.budget} were not fair (a team's simulated chance outside "
                f"{tol}{settled}; fair {share}), {compared}{diff}.")
    if kind == "does_not":
        return (f"The team budget does not predict fairness here: the sets over it were fair "
                f"more often: {within}, against {over}{diff}.")
    return (f"Not settled with {k} sets whether the team budget predicts fairness: {within}, "
            f"{over if o.n else 'and no set was over it to compare'}"
            f"{' were fair' if o.n else ''}{diff}; run more sets.")


def _share(s) -> dict:
    return {"k": s.k, "n": s.n, "rate": s.rate, "low": s.low, "high": s.high}


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
        "fair_within_budget": _share(v.fair_within), "fair_over_budget": _share(v.fair_over),
        "fair_difference": dict(zip(("difference", "low", "high"), v.fair_difference)),
        "settled_unfair_within_budget": _share(v.unfair_within),
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


def validation_lines(v) -> list[str]:
    """The agreement report in plain words, each number with its interval."""
    from sim.analysis.power_level import SPEARMAN_MIN_PAIRS

    rl, rr, sg = v.rho_levels, v.rho_ratings, v.spread_gap
    d = v.fair_difference
    def alike(r) -> str:
        return "every set alike" if r.n >= 2 else "fewer than 2 sets"

    few = f"fewer than {SPEARMAN_MIN_PAIRS} sets"
    diff = ("no difference: a group has no sets" if math.isnan(d[0]) else
            f"difference {100 * d[0]:+.1f} points ({100 * d[1]:+.1f} – {100 * d[2]:+.1f})")
    conf = f"{100 * getattr(v, 'confidence', 0.95):.0f} %"
    return [
        f"Budget vs full simulation: {v.built.size} game sets ({int(v.built.sum())} drafted under "
        f"budget {v.budget} by random players, the rest random teams), {v.set_games} games each "
        f"in duplicate play on {v.boards_per_set} boards of its own, policy {v.policy}, "
        f"{v.seconds:.0f} s",
        f"  rank correlation within a game, level totals vs simulated win rates: "
        f"{_rho(rl.mean, rl.low, rl.high, alike(rl))}; {rl.n} sets, "
        f"{rl.undefined} with equal totals",
        f"  the same for the ratings the levels quantise (reference): "
        f"{_rho(rr.mean, rr.low, rr.high, alike(rr))}",
        f"  budget's favourite (single highest total) is the simulation's: {_pct(v.fav_levels)}"
        f"; ratings' favourite: {_pct(v.fav_ratings)}; chance 25 %",
        f"  spread of totals vs largest simulated gap from 25 % (Spearman over sets): "
        f"{_rho(sg[0], sg[1], sg[2], few, 'fewer than two sets, or no spread to rank')}",
        f"  within budget and fair by simulation (every team 25 % ± {100 * v.tolerance:.0f}): "
        f"{_pct(v.fair_within)}",
        f"  over budget and fair by simulation: {_pct(v.fair_over)}; {diff}",
        f"  within budget but settled unfair by the simulation's verdict: {_pct(v.unfair_within)}",
        f"  (fair = point estimate of each set; intervals {conf} over sets, which are independent "
        f"given the levels (each on its own boards and dice): Clopper–Pearson for shares of sets "
        f"and, squared and added, their difference; Wilson for favourites; t over sets, with "
        f"Hall's skewness correction; Fisher z from {SPEARMAN_MIN_PAIRS} sets)",
        f"  levels taken as given: the answer is about this level table, fitted on other games; "
        f"{v.levels_uncertain} of {v.cards_in_play} cards in play could sit at another level "
        f"within their rating's interval, which these intervals do not count",
    ]
