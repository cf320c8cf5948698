"""``bwlab report``: write the self-contained HTML report (and its CSV tables) into reports/."""

from __future__ import annotations

from pathlib import Path

import click

from sim.runner.limits import MAX_GAMES

from ._paths import OUT_FOLDER, cards_option, outputs_clear


@click.command()
@click.option("--out", type=OUT_FOLDER, default=Path("reports"),
              show_default=True, help="Folder for report.html and the CSV tables.")
@click.option("--seed", type=click.IntRange(0, None), default=0, show_default=True,
              help="Seed of the Monte Carlo samples drawn in the report.")
@click.option("--teams", "teams_file", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("experiments/teams/example.toml"), show_default=True,
              help="Teams for the fairness section ('' to skip).")
@click.option("--fairness-games", type=click.IntRange(8, MAX_GAMES), default=512, show_default=True,
              help="Games of the fairness section (a multiple of 4: duplicate blocks).")
@click.option("--rating-games", type=click.IntRange(0, MAX_GAMES), default=2000, show_default=True,
              help="Games for the card-ratings section (0 to skip).")
@click.option("--rating-experiment", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("experiments/rarity.toml"), show_default=True,
              help="The experiment whose games fit the card ratings.")
@click.option("--remedy-games", type=click.IntRange(0, MAX_GAMES), default=0, show_default=True,
              help="Replay budget per rating outlier for its remedy (the smallest stat change "
                   "that brings it into its band; 0 to skip, as it replays games).")
@click.option("--rulings", "rulings", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Results of `bwlab rulings --out FILE`: adds the section "
                                 "'Which house rulings matter' (nothing is replayed).")
@click.option("--suggest", "suggest_k", type=click.IntRange(0, 10), default=0, show_default=True,
              help="When the teams do not play fair: search up to K card swaps and confirm them "
                   "by duplicate play, as `bwlab fairness --suggest K` (0: not searched); "
                   "needs --rating-games 64 or more (the search's card ratings).")
@click.option("--baseline", type=click.Path(dir_okay=False, path_type=Path), default=None,
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
    from sim.catalogue.loader import load_catalogue
    from sim.catalogue.teams import load_teams
    from sim.report.lab_report import write_report
    from sim.runner.progress import stage

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
    from sim.report.lab_report import ALWAYS_WRITTEN

    # a folder or a device in the way fails before the games
    outputs_clear([("--out", Path(out) / name) for name in ALWAYS_WRITTEN])
    catalogue = load_catalogue(cards)
    if rulings is not None:  # a bad file fails before the report's games are played
        from sim.report.rulings_section import load_results

        load_results(rulings)
    teams = load_teams(teams_file, catalogue.cards) if str(teams_file) not in ("", ".") else None
    if suggest_k and teams is None:
        raise click.UsageError("--suggest searches swaps for the teams of --teams: give a team "
                               "file (--teams \"\" leaves the fairness section out)")
    suggest = None
    if suggest_k and teams is not None:
        suggest = _suggester(catalogue, teams, suggest_k, rating_experiment, seed, fairness_games,
                             rating_games)
    drift = _drift(catalogue, baseline) if baseline is not None else None
    with stage("building the report"):  # its games' stages count inside (sim.runner.progress)
        path = write_report(catalogue, out, seed=seed, teams=teams,
                            fairness_games=fairness_games, rating_games=rating_games,
                            rating_experiment=rating_experiment, remedy_games=remedy_games,
                            rulings=rulings, policy=POLICY, suggest=suggest, drift=drift,
                            players=labels)
    click.echo(f"Report: {path.resolve()}")


POLICY = "greedy"   # the player of the report's fairness check and swap search
MIN_SUGGEST_RATING_GAMES = 64   # as `bwlab fairness --rating-games`: the fewest to fit ratings on


def _suggester(catalogue, teams, k, rating_experiment, seed, games, rating_games):
    """The swap search of `bwlab fairness --suggest K`, bound to the report's check: the report
    calls it only when the teams do not play fair. The pool experiment is read now, so a bad
    file fails before any game is played."""
    from .fairness import _pool_experiment, _suggest

    _pool_experiment(catalogue, rating_experiment, POLICY)
    return lambda: _suggest(catalogue, teams, k, 8, rating_games, rating_experiment, POLICY, seed,
                            games, games, 256, 0.05)


def _drift(catalogue, baseline: Path):
    """The drift gate on the shipped suite (as `bwlab drift --baseline FILE`): its result, its
    conclusion in words, and the baseline's path, for the report's drift section."""
    from sim.engine.state.fields import POLICY_IDS
    from sim.runner.drift import load_suite, run_gate

    from .drift import _conclusion, _load_baseline

    base = _load_baseline(baseline)
    spec = load_suite(Path("experiments/drift.toml"), catalogue.cards, tuple(POLICY_IDS))
    result = run_gate(catalogue, spec, base, baseline)  # progress: sim.runner.progress
    return result, _conclusion(result), baseline
