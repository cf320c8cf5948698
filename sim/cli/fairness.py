"""``bwlab fairness TEAMS.toml``: each team's chance to win, the seat effect, and a verdict."""

from __future__ import annotations

from pathlib import Path

import click

from sim.runner.limits import MAX_BOARDS, MAX_GAMES

from ._fairness_suggest import _no_swap_needed, _pool_experiment, _suggest
from ._numbers import ROOT_SEED, FiniteFloatRange
from ._json import json_text
from ._paths import IN_FILE, cards_option, levels_experiment_option
from ._policy import POLICY_HELP, budget_option, policy_label


def _given(name: str) -> bool:
    """Whether the user typed option ``name`` (not its default)."""
    source = click.get_current_context().get_parameter_source(name)
    return source is not click.core.ParameterSource.DEFAULT


@click.command()
@click.argument("teams_file", type=IN_FILE)
@click.option("--games", type=click.IntRange(8, MAX_GAMES), default=4000, show_default=True,
              help="Most games to play (a multiple of 4); stops earlier once settled.")
@click.option("--round", "round_games", type=click.IntRange(8, MAX_GAMES), default=256,
              show_default=True, help="Games between two looks at the verdict (multiple of 4).")
@click.option("--tolerance", type=FiniteFloatRange(0.0, 0.25, min_open=True), default=0.05,
              show_default=True, help="Fair band: 25 % ± this.")
@click.option("--policy", default="greedy", show_default=True,
              help=POLICY_HELP + " Every team plays it.")
@budget_option
@click.option("--seed", type=ROOT_SEED, default=0, show_default=True,
              help="Root seed: every game's dice and board come from it.")
# default: sim.runner.fairness.DEFAULT_BOARDS (not imported here, so that --help stays fast)
@click.option("--boards", type=click.IntRange(2, MAX_BOARDS), default=256, show_default=True,
              help="Distinct generated boards, reused in turn (built as the rounds reach "
                   "them). The intervals count boards, not games, as the independent draws: "
                   "past about 4 blocks per board, more boards narrow them more than more games.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True, help="table: for reading; json: for scripts, on stdout only.")
@click.option("--suggest", "suggest_k", type=click.IntRange(0, 10), default=0,
              help="Propose up to K card swaps that make the game fairest, confirmed by simulation.")
@click.option("--proposals", type=click.IntRange(1, 50), default=8, show_default=True,
              help="With --suggest: the surrogate's proposals judged by duplicate play at most "
                   "(--games each); the first one play calls fair is the advice.")
@click.option("--rating-games", type=click.IntRange(64, MAX_GAMES), default=2000, show_default=True,
              help="Games to fit the card ratings the --suggest search uses.")
@click.option("--rating-experiment", type=IN_FILE,
              default=Path("experiments/rarity.toml"), show_default=True,
              help="Pool experiment whose games fit those ratings.")
@click.option("--team-budget", type=click.IntRange(5, 20), default=None,
              help="Arena's team budget: each team's total Power Level (bwlab power-levels) "
                   "against N (Arena: 10), beside the simulation. Not --budget: that is the "
                   "look-ahead's simulations per decision on every command that takes it.")
@click.option("--level-games", type=click.IntRange(64, MAX_GAMES), default=None,
              help="Games behind the Power Levels (default: cards/arena_budget.toml).")
@click.option("--policies", "players", default=None, metavar="SPEC,SPEC,...",
              help="Play the check once per player (e.g. greedy,lookahead:16; same seed) and "
                   "print the verdicts side by side, flagging a disagreement (fair under one, "
                   "unfair under another); exit 3 then, and when some player has not settled. "
                   "The first is the main report's player; replaces --policy.")
@cards_option()
@levels_experiment_option
def fairness(teams_file, games, round_games, tolerance, policy, budget, seed, boards, fmt,
             suggest_k, proposals, rating_games, rating_experiment, team_budget, level_games,
             players, cards, levels_file):
    """Is this game fair? Duplicate play of the four teams in TEAMS_FILE, settled sequentially.

    Exit code: 0 fair, 1 unfair, 3 inconclusive (2: bad input), so a script can gate on it."""
    from sim.analysis.fairness import EXIT_CODES, FAIR, conclusion
    from sim.catalogue.loader import load_catalogue
    from sim.runner.file_kinds import load_team_file
    from sim.runner.fairness import check_fairness

    if games % 4 or round_games % 4:
        raise click.BadParameter("--games and --round must be multiples of 4 (duplicate blocks)")
    if round_games > games and _given("round_games"):  # (the default round is cut to --games)
        raise click.BadParameter(f"--round ({round_games}) is more than --games ({games}): "
                                 "the verdict is looked at every --round games, up to --games")
    _read_only_with(suggest_k, team_budget)
    policy, labels = _players(policy, budget, players)
    catalogue = load_catalogue(cards)
    teams = load_team_file(teams_file, catalogue.cards)
    levels = _other_inputs(catalogue, policy, suggest_k, rating_experiment, team_budget,
                           level_games, levels_file)
    from contextlib import nullcontext

    from sim.runner.progress import stage

    # with --policies every player's check is a named step, the first too (progress audit 82:
    # only the second was named, so nothing told the two counts apart)
    with stage(f"the check under {labels[0]}") if labels is not None else nullcontext():
        report = check_fairness(catalogue, teams, policy=policy, seed=seed, max_games=games,
                                round_games=round_games, boards=boards, tolerance=tolerance)
    v = report.verdict
    data = report_data(report, teams, catalogue.cards.names, tolerance, policy, seed)
    data["conclusion"] = conclusion(v, tolerance, names=teams.names)
    data["exit_code"] = EXIT_CODES[v.status]
    # what was asked, beside what was played ("games", "boards"): the check stops once settled
    # and builds boards as it reaches them, so 256 games on 64 boards did not show the defaults
    # (4,000 games, --round 256, 256 boards) it ran with (the consistency audit of 2026-12-06)
    # the card folder played: a house rule's run (--cards) and the book's, saved side by side,
    # could not be told apart (the GM audit of stop 81)
    data["settings"] = {"max_games": games, "round": min(round_games, games), "boards": boards,
                        "tolerance": tolerance, "seed": seed, "policy": policy,
                        "cards": str(catalogue.root)}
    if suggest_k:
        data["suggestion"] = (_no_swap_needed(data) if v.status == FAIR else
                              _suggest(catalogue, teams, suggest_k, proposals, rating_games,
                                       rating_experiment, policy, seed, games, round_games,
                                       boards, tolerance,
                                       gap_as_given=v.largest_gap))
    if team_budget is not None:
        data["team_budget"] = _team_budget(catalogue, teams, team_budget, levels, v)
    if labels is not None:
        _by_player(data, labels, catalogue, teams, seed, games, round_games, boards, tolerance)
    if fmt == "json":
        click.echo(json_text(data, "fairness", indent=2))
        return data["exit_code"]
    _echo_table(data, report)
    return data["exit_code"]


def _players(policy, budget, players):
    """The main player and --policies' labels; both flags name the player, so both is refused."""
    policy = policy_label(policy, budget)
    labels = None
    if players is not None:
        from ._policy import policy_list

        if click.get_current_context().get_parameter_source("policy").name == "COMMANDLINE":
            raise click.UsageError("give --policy or --policies, not both")
        labels = policy_list(players, budget, "--policies", at_least=2)
        policy = labels[0]
    return policy, labels


def _echo_table(data: dict, report) -> None:
    """The text report: the sections the flags asked for, then every conclusion together last."""
    from ._fairness_text import echo_report, echo_suggestion

    echo_report(data, report)
    if "team_budget" in data:
        _echo_team_budget(data["team_budget"])
    if "suggestion" in data:
        echo_suggestion(data["suggestion"], data)
    if "by_player" in data:
        from ._fairness_players import echo_players

        echo_players(data["by_player"])
    click.echo("")
    click.echo(data["conclusion"])
    if "suggestion" in data:
        click.echo(data["suggestion"]["conclusion"])
    if "by_player" in data:
        click.echo(data["by_player"]["conclusion"])


def _by_player(data, labels, catalogue, teams, seed, games, round_games, boards, tolerance):
    """The same check under every other player (same seed); ``data`` gains ``by_player`` and
    the exit code becomes the players' shared one (3 when they contradict or one has not
    settled)."""
    from sim.analysis.fairness import conclusion
    from sim.runner.fairness import check_by_player

    from ._fairness_players import players_doc

    per = {labels[0]: data}
    reports = check_by_player(catalogue, teams, labels[1:], seed=seed, max_games=games,
                              round_games=round_games, boards=boards, tolerance=tolerance)
    for label, r in reports.items():
        per[label] = report_data(r, teams, catalogue.cards.names, tolerance, label, seed)
        per[label]["conclusion"] = conclusion(r.verdict, tolerance, names=teams.names)
    data["by_player"] = doc = players_doc(per)
    data["exit_code"] = doc["exit_code"]


def report_data(report, teams, names, tolerance, policy, seed) -> dict:
    """The check as plain data: the JSON document, and what the table prints."""
    from sim.analysis.balance import balance_from_pairs, ranking_text

    v, s = report.verdict, report.seats
    seat_lo, seat_hi = s.seat_interval()
    bal, bal_lo, bal_hi = balance_from_pairs(list(report.pairs))
    return {
        "verdict": v.status, "text": v.text, "games": report.games, "rounds": report.rounds,
        "seconds": round(report.seconds, 2), "tolerance": tolerance, "policy": policy,
        "seed": seed, "interval_level": v.level, "design": v.design, "boards": report.boards,
        "interval_df": report.boards - 1, "needs_more_boards": v.needs_boards,
        "teams": [{"team": k + 1, "name": teams.names[k],
                   "cards": [names[c] for c in teams.cards[k]],
                   "win_probability": float(v.rate[k]), "low": float(v.lower[k]),
                   "high": float(v.upper[k]), **_given_call(v, k),
                   "expected_surviving_health": float(report.health[k]),
                   "variance_ratio_vs_unpaired": float(v.variance_ratio[k]),
                   "board_floor": float(v.board_floor[k])} for k in range(4)],
        "pairwise": [{"team_a": p.a + 1, "team_b": p.b + 1, "difference": p.difference,
                      "low": p.low, "high": p.high, "told_apart": p.apart}
                     for p in report.pairs],
        "pairwise_level": report.pair_level,
        "ranking": ranking_text(v.rate, list(report.pairs), teams.names),
        "balance": {"balance": bal, "low": bal_lo, "high": bal_hi,
                    "largest_gap": 1.0 - bal},
        "seats": [{"seat": k + 1, "win_probability": float(s.seat_rate[k]),
                   "low": float(seat_lo[k]), "high": float(seat_hi[k])} for k in range(4)],
        "seat_effect_pvalue": s.seat_pvalue,
        "advantage_p1": float(s.seat_rate[0]),
        "seat_spread": float(s.seat_rate.max() - s.seat_rate.min()),
        "outcomes": report.outcomes,
        "games_balance": report.balance.as_dict(),
    }


# each flag that only an optional part of the check reads, and the flag that asks for that part
_READ_ONLY_WITH = (("--rating-experiment", "rating_experiment", "--suggest"),
                   ("--rating-games", "rating_games", "--suggest"),
                   ("--proposals", "proposals", "--suggest"),
                   ("--levels-experiment", "levels_file", "--team-budget"),
                   ("--level-games", "level_games", "--team-budget"))


def _read_only_with(suggest_k, team_budget) -> None:
    """Refuse a flag typed without the flag whose part reads it, as power-levels refuses
    --team-budget without --validate-budget: a missing --rating-experiment was passed over in
    silence without --suggest (exit 3 after the whole check; the hostile audit of stop 80)."""
    asked = {"--suggest": bool(suggest_k), "--team-budget": team_budget is not None}
    for flag, name, needs in _READ_ONLY_WITH:
        if _given(name) and not asked[needs]:
            raise click.UsageError(f"{flag} is read only with {needs}; give {needs} too, or "
                                   f"leave {flag} out")


def _other_inputs(catalogue, policy, suggest_k, rating_experiment, team_budget, level_games,
                  levels_file=None):
    """Read every other input before the compile and any game, then compile if need be: the
    pool experiment of --suggest, and for --team-budget ``arena_budget.toml`` with the pool
    experiment it names, or ``--levels-experiment`` (a missing one was found after the whole
    fairness check). Returns
    (spec, experiment) of the levels, or None without --team-budget."""
    from ._engine import ready_to_play

    if suggest_k:
        _pool_experiment(catalogue, rating_experiment, policy)
    levels = None
    if team_budget is not None:
        from sim.catalogue.arena_budget import load_arena_budget
        from sim.runner.levels_input import levels_experiment

        spec = load_arena_budget(catalogue.root, experiment_file=levels_file)
        levels = spec, levels_experiment(catalogue, spec, policy, level_games)
    ready_to_play((), catalogue.root)  # every input checked: now the compile and the games
    return levels


def _team_budget(catalogue, teams, n, levels, verdict) -> dict:
    """Arena's check beside the simulation: "The total power level of each team must equal 10 or
    less." Budget verdict: within (every team at most N) or over; it agrees with the simulation
    when within meets fair or over meets unfair (an open simulation decides nothing)."""
    from sim.analysis.fairness import FAIR, OPEN
    from sim.analysis.power_level import budget_check
    from sim.runner.budget import power_levels

    spec, exp = levels
    table = power_levels(catalogue, spec, exp.policies[0], exp.games, exp=exp)
    check = budget_check(teams.cards, table.level, n, teams.names)
    if verdict.status == OPEN:
        agree = None
    else:
        agree = check.within == (verdict.status == FAIR)
    favourite = int(verdict.rate.argmax())
    over, called = _named_teams(teams.names, check.excess, verdict)
    return {
        "budget": n, "level_games": table.games, "verdict": "within" if check.within else "over",
        "text": check.text, "simulation_verdict": verdict.status, "agree": agree,
        # the budget's too-strong teams against the teams play calls favoured (null: open)
        "teams_agree": None if agree is None else over == called["favoured"],
        "over_teams": over, "called_teams": called,
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
    if tb["agree"] and tb.get("teams_agree") is False:
        from ._fairness_text import other_teams_words

        agree = other_teams_words(tb)
    click.echo(f"budget check: {tb['verdict']} budget; simulation: {tb['simulation_verdict']}; "
               f"{agree}. Highest total: "
               + (f"team {fav}" if fav is not None else "shared")
               + f"; simulation's favourite: team {tb['simulation_favourite']}.")
    click.echo(tb["text"])


def _named_teams(names, excess, verdict) -> tuple[list, dict]:
    """The teams the budget puts over it, and those play calls favoured / disadvantaged."""
    called = getattr(verdict, "called", None)
    side = [0] * len(names) if called is None else [int(c) for c in called]
    return ([names[k] for k in range(len(names)) if excess[k] > 0],
            {"favoured": [names[k] for k in range(len(names)) if side[k] > 0],
             "disadvantaged": [names[k] for k in range(len(names)) if side[k] < 0]})


def _given_call(v, k: int) -> dict:
    """A team's call ("favoured", "disadvantaged" or null) and its interval given that call
    (null where not called; sim/analysis/fairness_call.py): ``low``/``high`` stay the
    simultaneous interval, which made the call but does not cover given it near the edge."""
    side = 0 if v.called is None else int(v.called[k])
    word = {1: "favoured", -1: "disadvantaged"}.get(side)
    return {"called": word,
            "low_given_call": float(v.call_lower[k]) if side else None,
            "high_given_call": float(v.call_upper[k]) if side else None}
