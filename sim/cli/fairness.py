"""``bwlab fairness TEAMS.toml``: each team's chance to win, the seat effect, and a verdict."""

from __future__ import annotations

import json
from pathlib import Path

import click

from sim.runner.limits import MAX_BOARDS, MAX_GAMES

from ._policy import POLICY_HELP, budget_option, policy_label


@click.command()
@click.argument("teams_file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--games", type=click.IntRange(8, MAX_GAMES), default=4000, show_default=True,
              help="Most games to play (a multiple of 4); stops earlier once settled.")
@click.option("--round", "round_games", type=click.IntRange(8, MAX_GAMES), default=256,
              show_default=True, help="Games between two looks at the verdict (multiple of 4).")
@click.option("--tolerance", type=click.FloatRange(0.0, 0.25, min_open=True), default=0.05,
              show_default=True, help="Fair band: 25 % ± this.")
@click.option("--policy", default="greedy", show_default=True,
              help=POLICY_HELP + " Every team plays it.")
@budget_option
@click.option("--seed", type=click.IntRange(0, None), default=0, show_default=True)
# default: sim.runner.fairness.DEFAULT_BOARDS (not imported here, so that --help stays fast)
@click.option("--boards", type=click.IntRange(2, MAX_BOARDS), default=256, show_default=True,
              help="Distinct generated boards, reused in turn (built as the rounds reach "
                   "them). The intervals count boards, not games, as the independent draws: "
                   "past about 4 blocks per board, more boards narrow them more than more games.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True)
@click.option("--suggest", "suggest_k", type=click.IntRange(0, 10), default=0,
              help="Propose up to K card swaps that make the game fairest, confirmed by simulation.")
@click.option("--rating-games", type=click.IntRange(64, MAX_GAMES), default=2000, show_default=True,
              help="Games to fit the card ratings the --suggest search uses.")
@click.option("--rating-experiment", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("experiments/rarity.toml"), show_default=True,
              help="Pool experiment whose games fit those ratings.")
@click.option("--team-budget", type=click.IntRange(5, 20), default=None,
              help="Arena's team budget: each team's total Power Level (bwlab power-levels) "
                   "against N (Arena: 10), beside the simulation. Not --budget: that is the "
                   "look-ahead's simulations per decision on every command that plays games.")
@click.option("--level-games", type=click.IntRange(64, MAX_GAMES), default=None,
              help="Games behind the Power Levels (default: cards/arena_budget.toml).")
@click.option("--cards", "cards", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Card folder (default: ./cards or $BWLAB_CARDS).")
def fairness(teams_file, games, round_games, tolerance, policy, budget, seed, boards, fmt,
             suggest_k, rating_games, rating_experiment, team_budget, level_games, cards):
    """Is this game fair? Duplicate play of the four teams in TEAMS_FILE, settled sequentially."""
    from sim.catalogue.loader import load_catalogue
    from sim.runner.team_names import load_checked_teams as load_teams
    from sim.runner.fairness import check_fairness

    if games % 4 or round_games % 4:
        raise click.BadParameter("--games and --round must be multiples of 4 (duplicate blocks)")
    policy = policy_label(policy, budget)
    catalogue = load_catalogue(cards)
    teams = load_teams(teams_file, catalogue.cards)
    report = check_fairness(catalogue, teams, policy=policy, seed=seed, max_games=games,
                            round_games=round_games, boards=boards, tolerance=tolerance)
    suggestion = None
    if suggest_k:
        suggestion = _suggest(catalogue, teams, suggest_k, rating_games, rating_experiment,
                              policy, seed, games, round_games, boards, tolerance)
    v, s = report.verdict, report.seats
    data = _report_data(report, teams, catalogue.cards.names, tolerance, policy, seed)
    if suggestion is not None:
        data["suggestion"] = suggestion
    if team_budget is not None:
        data["team_budget"] = _team_budget(catalogue, teams, team_budget, level_games, policy, v)
    if fmt == "json":
        click.echo(json.dumps(data, indent=2))
        return
    click.echo(f"{v.design} ({report.rounds} rounds of duplicate play, policy {policy}, "
               f"seed {seed}) in {report.seconds:.1f} s")
    click.echo(f"{'team':<28}{'win %':>7}{'interval':>17}{'health left':>13}{'var. ratio':>12}")
    for t in data["teams"]:
        click.echo(f"{t['team']} {t['name'][:25]:<26}{100 * t['win_probability']:7.1f}"
                   f"{100 * t['low']:8.1f} –{100 * t['high']:5.1f}"
                   f"{t['expected_surviving_health']:13.1f}{t['variance_ratio_vs_unpaired']:12.2f}")
    click.echo("seat effect (an average team's win % by turn order): "
               + ", ".join(f"seat {x['seat']} {100 * x['win_probability']:.1f}" for x in data["seats"])
               + f"; p = {s.seat_pvalue:.3g} for no seat effect")
    click.echo("games ended by: " + ", ".join(f"{k} {100 * p:.0f} %"
                                             for k, p in report.outcomes.items()))
    click.echo(f"(intervals at {100 * v.level:.2f} %: 95 % overall after correcting for "
               f"4 teams and repeated looks; clustered by board, t on {report.boards - 1} df: the "
               f"{report.boards} boards are the independent draws; var. ratio < 1 = duplicate "
               f"play saved games)")
    click.echo(v.text)
    if team_budget is not None:
        _echo_team_budget(data["team_budget"])
    if suggestion is not None:
        click.echo(f"\nSuggested swaps (surrogate: card ratings from {rating_games} games):")
        for sw in suggestion["swaps"]:
            click.echo(f"  swap {sw['card_a']} (team {sw['team_a']}) <-> {sw['card_b']} "
                       f"(team {sw['team_b']}): predicted largest gap {100 * sw['gap_after']:.1f} points")
        click.echo(f"{'team':<8}{'before %':>10}{'after %':>10}   cards after")
        for k, t in enumerate(suggestion["after"]["teams"]):
            click.echo(f"{k + 1:<8}{100 * data['teams'][k]['win_probability']:10.1f}"
                       f"{100 * t['win_probability']:10.1f}   {', '.join(t['cards'])}")
        click.echo(f"after the swaps ({suggestion['after']['games']} games): "
                   f"{suggestion['after']['text']}")


def _report_data(report, teams, names, tolerance, policy, seed) -> dict:
    """The check as plain data: the JSON document, and what the table prints."""
    v, s = report.verdict, report.seats
    seat_lo, seat_hi = s.seat_interval()
    return {
        "verdict": v.status, "text": v.text, "games": report.games, "rounds": report.rounds,
        "seconds": round(report.seconds, 2), "tolerance": tolerance, "policy": policy,
        "seed": seed, "interval_level": v.level, "design": v.design, "boards": report.boards,
        "interval_df": report.boards - 1, "needs_more_boards": v.needs_boards,
        "teams": [{"team": k + 1, "name": teams.names[k],
                   "cards": [names[c] for c in teams.cards[k]],
                   "win_probability": float(v.rate[k]), "low": float(v.lower[k]),
                   "high": float(v.upper[k]),
                   "expected_surviving_health": float(report.health[k]),
                   "variance_ratio_vs_unpaired": float(v.variance_ratio[k]),
                   "board_floor": float(v.board_floor[k])} for k in range(4)],
        "seats": [{"seat": k + 1, "win_probability": float(s.seat_rate[k]),
                   "low": float(seat_lo[k]), "high": float(seat_hi[k])} for k in range(4)],
        "seat_effect_pvalue": s.seat_pvalue,
        "outcomes": report.outcomes,
    }


def _suggest(catalogue, teams, k, rating_games, rating_experiment, policy, seed, games,
             round_games, boards, tolerance) -> dict:
    """Search swaps with the rating surrogate, then confirm the new teams by simulation."""
    from sim.catalogue.teams import Teams
    from sim.engine.layout import POLICY_IDS
    from sim.runner.experiment import load_experiment, with_policy
    from sim.runner.fairness import check_fairness
    from sim.runner.suggest import card_ratings, suggest_swaps

    names = catalogue.cards.names
    # the ratings behind the swaps come from the same player as the check
    pool_exp = with_policy(load_experiment(rating_experiment, catalogue.cards, tuple(POLICY_IDS)),
                           policy)
    rating = card_ratings(catalogue, pool_exp, rating_games)
    new_cards, swaps = suggest_swaps(teams.cards, rating, k)
    after = check_fairness(catalogue, Teams(teams.names, new_cards, teams.path), policy=policy,
                           seed=seed, max_games=games, round_games=round_games, boards=boards,
                           tolerance=tolerance)
    return {
        "swaps": [{"team_a": s.team_a + 1, "card_a": names[s.card_a], "team_b": s.team_b + 1,
                   "card_b": names[s.card_b], "gap_after": s.gap_after} for s in swaps],
        "after": {"verdict": after.verdict.status, "text": after.verdict.text,
                  "games": after.games, "design": after.verdict.design,
                  "teams": [{"cards": [names[c] for c in new_cards[t]],
                             "win_probability": float(after.verdict.rate[t]),
                             "low": float(after.verdict.lower[t]),
                             "high": float(after.verdict.upper[t])} for t in range(4)]},
    }


def _team_budget(catalogue, teams, n, level_games, policy, verdict) -> dict:
    """Arena's check beside the simulation: "The total power level of each team must equal 10 or
    less." Budget verdict: within (every team at most N) or over; it agrees with the simulation
    when within meets fair or over meets unfair (an open simulation decides nothing)."""
    from sim.analysis.fairness import FAIR, OPEN
    from sim.analysis.power_level import budget_check
    from sim.catalogue.arena_budget import load_arena_budget
    from sim.runner.budget import power_levels

    spec = load_arena_budget(catalogue.root)
    table = power_levels(catalogue, spec, policy, level_games)
    check = budget_check(teams.cards, table.level, n, teams.names)
    if verdict.status == OPEN:
        agree = None
    else:
        agree = check.within == (verdict.status == FAIR)
    favourite = int(verdict.rate.argmax())
    return {
        "budget": n, "level_games": table.games, "verdict": "within" if check.within else "over",
        "text": check.text, "simulation_verdict": verdict.status, "agree": agree,
        "budget_favourite": check.favourite + 1 if check.favourite >= 0 else None,
        "simulation_favourite": favourite + 1, "spread": check.spread,
        "teams": [{"team": k + 1, "name": teams.names[k],
                   "levels": [int(table.level[c]) for c in teams.cards[k]],
                   "total": int(check.totals[k]), "excess": int(check.excess[k]),
                   "win_probability": float(verdict.rate[k])} for k in range(len(teams.names))],
    }


def _echo_team_budget(tb: dict) -> None:
    click.echo(f"\nTeam budget {tb['budget']} (Arena: \"The total power level of each team must "
               f"equal 10 or less\"; Power Levels from {tb['level_games']} games):")
    click.echo(f"{'team':<28}{'win %':>7}   {'levels':<12}{'total':>6}   vs budget")
    for t in tb["teams"]:
        e = t["excess"]
        word = f"over by {e}" if e > 0 else ("at the budget" if e == 0 else f"under by {-e}")
        click.echo(f"{t['team']} {t['name'][:25]:<26}{100 * t['win_probability']:7.1f}   "
                   f"{'+'.join(map(str, t['levels'])):<12}{t['total']:>6}   {word}")
    fav = tb["budget_favourite"]
    agree = {True: "they agree", False: "they disagree",
             None: "the simulation has not settled"}[tb["agree"]]
    click.echo(f"budget check: {tb['verdict']} budget; simulation: {tb['simulation_verdict']}; "
               f"{agree}. Highest total: "
               + (f"team {fav}" if fav is not None else "shared")
               + f"; simulation's favourite: team {tb['simulation_favourite']}.")
    click.echo(tb["text"])
