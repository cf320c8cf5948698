"""``bwlab report``: write the self-contained HTML report (and its CSV tables) into reports/."""

from __future__ import annotations

from pathlib import Path

import click

from sim.runner.limits import MAX_GAMES

from ._numbers import ROOT_SEED
from ._paths import IN_FILE, OUT_FOLDER, cards_option, not_the_card_folder


@click.command()
@click.option("--out", type=OUT_FOLDER, default=Path("reports"),
              show_default=True, help="Folder for report.html and the CSV tables.")
@click.option("--seed", type=ROOT_SEED, default=0, show_default=True,
              help="Root seed of the fairness section (and --suggest, --policies), as "
                   "`bwlab fairness --seed`, and of the worked example's Monte Carlo samples. "
                   "The card ratings use their experiment's root_seed (as `bwlab rarity`), the "
                   "drift section the baseline's seeds.")
@click.option("--teams", "teams_file", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("experiments/teams/example.toml"), show_default=True,
              help="Teams for the fairness section ('' to skip).")
@click.option("--fairness-games", type=click.IntRange(8, MAX_GAMES), default=512, show_default=True,
              help="Games of the fairness section (a multiple of 4: duplicate blocks), all "
                   "played and looked at once: the numbers of `bwlab fairness TEAMS --seed S "
                   "--games N --round N` (its default --round stops earlier once settled).")
@click.option("--rating-games", type=click.IntRange(0, MAX_GAMES), default=2000, show_default=True,
              help="Games for the card-ratings section (0 to skip): the games of `bwlab "
                   "rarity --games N` on the same experiment, the same ratings.")
@click.option("--rating-experiment", type=IN_FILE,
              default=Path("experiments/rarity.toml"), show_default=True,
              help="The experiment whose games fit the card ratings.")
@click.option("--remedy-games", type=click.IntRange(0, MAX_GAMES), default=0, show_default=True,
              help="Replay budget per rating outlier for its remedy (the smallest stat change "
                   "that brings it into its band; 0 to skip, as it replays games).")
@click.option("--rulings", "rulings", type=IN_FILE,
              default=None, help="Results of `bwlab rulings --out FILE`: adds the section "
                                 "'Which house rulings matter' (nothing is replayed).")
@click.option("--suggest", "suggest_k", type=click.IntRange(0, 10), default=0, show_default=True,
              help="When the teams do not play fair: search up to K card swaps and confirm them "
                   "by duplicate play, as `bwlab fairness --suggest K` (0: not searched); "
                   "needs --rating-games 64 or more (the search's card ratings).")
@click.option("--baseline", type=IN_FILE, default=None,
              help="A drift baseline (e.g. reports/baseline.json): replays the drift suite "
                   "(experiments/drift.toml) and adds the drift section and its status.")
@click.option("--policies", "players", default=None, metavar="SPEC,SPEC,...",
              help="Also play the fairness check under these players (e.g. lookahead:16; same "
                   "seed) and show whether the verdict holds for each.")
@cards_option()
def report(out, seed, teams_file, fairness_games, rating_games, rating_experiment, remedy_games,
           rulings, suggest_k, baseline, players, cards):
    """Write reports/report.html: a summary of the answers (fairness verdict, confirmed swaps,
    rarity outliers, drift), then team fairness with the seat effect, (--suggest) swaps
    confirmed by play, card ratings in play, (--remedy-games) the outliers' remedies, the rarity
    power curve, (--baseline) drift, (--rulings) which house rulings matter, the combat tables
    and exact vs Monte Carlo; a provenance footer says where every number came from."""
    from sim.report.lab_report import write_report
    from ._engine import ready_to_play

    if fairness_games % 4:
        raise click.BadParameter("must be a multiple of 4", param_hint="--fairness-games")
    if suggest_k and rating_games < MIN_SUGGEST_RATING_GAMES:
        # the swap search needs card ratings: played anyway, they would contradict the
        # summary's "not measured (--rating-games)"
        raise click.UsageError(f"--suggest searches swaps by card ratings fitted on "
                               f"--rating-games games: give at least "
                               f"{MIN_SUGGEST_RATING_GAMES} (or drop --suggest)")
    labels = None
    if players is not None:
        from ._policy import policy_list

        labels = policy_list(players, None, "--policies")
    catalogue, teams, suggest, drift_inputs = _inputs(
        cards, teams_file, rulings, baseline, suggest_k, rating_experiment, rating_games,
        remedy_games, seed, fairness_games)
    written = _written(teams is not None, labels, suggest, rating_games, remedy_games,
                       baseline, rulings)
    not_the_card_folder(out, catalogue.root)
    # every input is read: no report file replaces one, and none is a folder or a device
    ready_to_play([("--out", Path(out) / name) for name in written], catalogue.root)
    drift = _drift(catalogue, *drift_inputs) if drift_inputs is not None else None
    # its stage, "building the report", counts the parts write_report knows (sim.runner.progress)
    path = write_report(catalogue, out, seed=seed, teams=teams, fairness_games=fairness_games,
                        rating_games=rating_games, rating_experiment=rating_experiment,
                        remedy_games=remedy_games, rulings=rulings, policy=POLICY,
                        suggest=suggest, drift=drift, players=labels)
    click.echo(f"Report: {path.resolve()}")


def _inputs(cards, teams_file, rulings, baseline, suggest_k, rating_experiment, rating_games,
            remedy_games, seed, fairness_games) -> tuple:
    """Every file the report reads, loaded and checked before any game (the rating experiment
    was once read after the fairness games, the power curve after the drift gate's): the
    catalogue, the teams (None: no fairness section), the swap search and the drift gate's
    (baseline, its path, the suite) or None."""
    from sim.catalogue.loader import load_catalogue
    from sim.runner.file_kinds import load_team_file

    catalogue = load_catalogue(cards)
    if rulings is not None:
        from sim.report.rulings_section import load_results

        load_results(rulings)
    given = str(teams_file) not in ("", ".")
    teams = load_team_file(teams_file, catalogue.cards) if given else None
    if suggest_k and teams is None:
        raise click.UsageError("--suggest searches swaps for the teams of --teams: give a team "
                               "file (--teams \"\" leaves the fairness section out)")
    suggest = None
    if suggest_k and teams is not None:
        suggest = _suggester(catalogue, teams, suggest_k, rating_experiment, seed, fairness_games,
                             rating_games)
    if rating_games:
        from sim.engine.state.fields import POLICY_IDS
        from sim.runner.experiment import load_experiment

        exp = load_experiment(rating_experiment, catalogue.cards, tuple(POLICY_IDS),
                              games=rating_games, games_flag="--rating-games")
        if exp.pool is None:  # as `bwlab rarity`: fixed teams rate only their own cards
            from sim.catalogue.diagnostics import InputError, Problem

            raise InputError([Problem(str(rating_experiment), None, "pool",
                                      "--rating-experiment: the card ratings need a [pool] "
                                      "experiment (teams drawn)")])
    _power_curve(catalogue, bool(remedy_games and rating_games))
    drift_inputs = _drift_inputs(catalogue, baseline) if baseline is not None else None
    return catalogue, teams, suggest, drift_inputs


def _power_curve(catalogue, remedy: bool) -> None:
    """The power curve the report reads (with ``[remedy]`` when remedies are asked for)."""
    from sim.catalogue.diagnostics import Problems
    from sim.catalogue.power import POWER_CURVE_FILE, load_power_curve

    problems = Problems()
    path = catalogue.root / POWER_CURVE_FILE
    curve = load_power_curve(path, catalogue.rules, problems)
    if remedy and curve is not None and curve.remedy is None:
        problems.add(path, None, "remedy",
                     "missing [remedy] table: the stats and steps the remedy search may try")
    problems.raise_if_any()


def _written(teams, players, suggest, rating_games, remedy_games, baseline, rulings) -> list:
    """The files this report will write into --out (sim.report.lab_report)."""
    from sim.report.lab_report import ALWAYS_WRITTEN

    optional = (("fairness.csv", teams), ("players.csv", teams and players),
                ("swaps.csv", suggest is not None), ("card_ratings.csv", rating_games),
                ("rarity_remedies.csv", rating_games and remedy_games),
                ("drift.csv", baseline is not None), ("rulings.csv", rulings is not None),
                ("rulings_endings.csv", rulings is not None))
    return list(ALWAYS_WRITTEN) + [name for name, written in optional if written]


POLICY = "greedy"   # the player of the report's fairness check and swap search
MIN_SUGGEST_RATING_GAMES = 64   # as `bwlab fairness --rating-games`: the fewest to fit ratings on


def _suggester(catalogue, teams, k, rating_experiment, seed, games, rating_games):
    """The swap search of `bwlab fairness --suggest K`, bound to the report's check: the report
    calls it with the teams' verdict, only when they do not play fair (a proposal no closer to
    fair than the teams as measured is no advice). The pool experiment is read now, so a bad
    file fails before any game is played."""
    from ._fairness_suggest import _pool_experiment, _suggest

    from sim.report.fairness_command import same_as_swaps

    _pool_experiment(catalogue, rating_experiment, POLICY)
    command = same_as_swaps(teams.path, seed, games, k, rating_games, rating_experiment,
                            catalogue.root)

    def suggest(verdict) -> dict:
        found = _suggest(catalogue, teams, k, 8, rating_games, rating_experiment, POLICY, seed,
                         games, games, 256, 0.05, gap_as_given=verdict.largest_gap,
                         proposals_option="--proposals (bwlab fairness)")
        return {**found, "command": command}

    return suggest


def _drift_inputs(catalogue, baseline: Path) -> tuple:
    """The drift gate's inputs (as `bwlab drift --baseline FILE`): the baseline, read and
    checked against the shipped suite before any game (the gate's own check, its advice naming
    `bwlab drift --games`: sim.cli.drift.check_for_gate), its path and the suite."""
    from sim.engine.state.fields import POLICY_IDS
    from sim.runner.drift import load_suite

    from .drift import SUITE, _load_baseline, check_for_gate

    base = _load_baseline(baseline)
    spec = load_suite(SUITE, catalogue.cards, tuple(POLICY_IDS))
    check_for_gate(catalogue, spec, base, baseline, "report")
    return base, baseline, spec


def _drift(catalogue, base: dict, baseline: Path, spec):
    """The drift gate on the shipped suite: its result, its conclusion in words, and the
    baseline's path, for the report's drift section."""
    from sim.runner.drift import run_gate

    from .drift import _conclusion, rule_words

    result = run_gate(catalogue, spec, base, baseline)  # progress: sim.runner.progress
    # what the verdict rests on, as `bwlab drift` prints it (the report audit of stop 78: "no
    # win rate moved by the gate's delta" never said the delta)
    rests = f" The gate: {rule_words(spec, result)}, clustered by board."
    return result, _conclusion(result), baseline, rests
