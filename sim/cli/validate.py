"""``bwlab validate [PATH] [--teams F] [--experiment F] [--weights F] [--pool F] [--baseline F]
[--suite F] [--rulings-results F]``: check everything a command loads, report every problem at
once.

Why through the commands' own loaders: a check of its own would drift from what ``play``,
``run`` and ``report`` read, and a file could pass here and fail there (issue #22: ``validate``
once skipped ``apocalypses.toml`` and ``[game]``). Each loader collects its problems; this
command gathers them all before it prints, so one run lists every mistake in every file.
"""

from __future__ import annotations

from pathlib import Path

import click

from ._paths import IN_FILE, CardFolder, check_default_cards, refuse_empty


def _gather(problems, loader, *args):
    """``loader(*args)``, its problems (raised as InputError) added to ``problems``; None then."""
    from sim.catalogue.diagnostics import InputError

    try:
        return loader(*args)
    except InputError as exc:
        problems.items.extend(exc.problems)
        return None


@click.command()
@click.argument("path", required=False, type=click.Path())
@click.option("--cards", "cards", type=CardFolder(), default=None,
              help="The card folder, as every other command takes it (the same as PATH).")
@click.option("--teams", "teams_files", multiple=True, type=IN_FILE,
              help="A team file to check against the cards too (repeatable).")
@click.option("--experiment", "experiments", multiple=True, type=IN_FILE,
              help="An experiment file to check too, with its team files: a run, rarity or report "
                   "experiment, a drift suite or a rulings study (repeatable).")
@click.option("--weights", "weights_files", multiple=True, type=IN_FILE,
              help="A greedy weights file to check too (greedy:weights=FILE, docs/ai.md; "
                   "repeatable).")
@click.option("--pool", "pool_files", multiple=True, type=IN_FILE,
              help="A draft pool file to check too (bwlab draft --pool; repeatable).")
@click.option("--baseline", "baselines", multiple=True, type=IN_FILE,
              help="A drift baseline to check too, against the suite as bwlab drift --baseline "
                   "checks it (repeatable).")
@click.option("--suite", type=IN_FILE, default=None,
              help="The drift suite each --baseline is checked against, as bwlab drift --suite "
                   "(default: experiments/drift.toml, drift's).")
@click.option("--rulings-results", "rulings_results", multiple=True,
              type=IN_FILE,
              help="A results file of bwlab rulings --out to check too (bwlab report --rulings; "
                   "repeatable).")
def validate(path: str | None, teams_files: tuple[Path, ...], experiments: tuple[Path, ...],
             weights_files: tuple[Path, ...] = (), pool_files: tuple[Path, ...] = (),
             baselines: tuple[Path, ...] = (), rulings_results: tuple[Path, ...] = (),
             cards: Path | None = None, suite: Path | None = None):
    """Check the card folder PATH or --cards DIR (default: $BWLAB_CARDS, else ./cards): every
    file any command loads (cards, abilities, tiles, items, entities, rules with its [game]
    section, apocalypses, power curve, peers and arena budget (a warning when either is
    absent)), and the given team, experiment, greedy weights, draft pool, drift baseline and
    rulings results files. A baseline is checked against the drift suite (--suite, else drift's
    default) as the gate checks it. Exit 2 with one line per problem (file:line: field: message).

    Cards whose power falls outside their rarity's band (cards/power_curve.toml) are listed as
    warnings: a balance question for the designer, not broken data.
    """
    from sim.catalogue.diagnostics import Problems
    from sim.catalogue.loader import default_cards_dir
    from sim.catalogue.power import POWER_CURVE_FILE, load_power_curve

    # --cards DIR, as every other command spells it (and as the "no ./cards here" notice
    # advises): validate took PATH only, and "No such option '--cards'" was exit 2
    if cards is not None:
        if path is not None and Path(path).resolve() != cards.resolve():
            raise click.UsageError("give the card folder once: PATH or --cards, not both")
        path = str(cards)
    if suite is not None and not baselines:  # read for nothing: the user meant something else
        raise click.UsageError("--suite names the suite a --baseline is checked against; give "
                               "--baseline too (a suite alone: --experiment)")
    if path is not None:  # Path("") is the working folder: four "not found" lines, unnamed
        refuse_empty(path, "PATH", "a folder")
    else:
        check_default_cards()  # a ./cards that cannot be read is not passed over
    root = Path(path) if path is not None else default_cards_dir()
    if not root.is_dir():
        raise click.BadParameter(f"{root} is not a folder", param_hint="PATH")
    problems = Problems()
    catalogue, apocalypses = _card_folder(problems, root)
    curve = None
    if catalogue is not None:
        curve = load_power_curve(root / POWER_CURVE_FILE, catalogue.rules, problems)
    absent = _optional_files(problems, root, catalogue)
    _given_files(problems, catalogue, teams_files, experiments, weights_files, pool_files,
                 baselines, rulings_results, suite)
    problems.raise_if_any()
    checked = [str(f) for f in (*teams_files, *experiments, *weights_files, *pool_files,
                                *baselines, *rulings_results)]
    _echo_ok(root, catalogue, apocalypses, curve, absent, checked)


def _card_folder(problems, root: Path):
    """The files every command loads from the card folder ``root``: the catalogue, the rules'
    [game] and the Apocalypses, their problems added to ``problems``; (catalogue, Apocalypses),
    None where one did not load."""
    from sim.catalogue.apocalypses import load_apocalypses
    from sim.catalogue.game_rules import load_game_rules
    from sim.catalogue.loader import load_catalogue

    catalogue = _gather(problems, load_catalogue, root)
    _gather(problems, load_game_rules, root)
    return catalogue, _gather(problems, load_apocalypses, root)


def card_folder_problems(root: Path) -> list:
    """The problems of the files every command loads from the card folder ``root``, read as
    this command reads them (:func:`_card_folder`): what a problem found before the command
    ran (a bad ``--out``) is reported with."""
    from sim.catalogue.diagnostics import Problems

    problems = Problems()
    _card_folder(problems, root)
    return list(problems.items)


def _optional_files(problems, root: Path, catalogue) -> list[str]:
    """Peers and arena budget: checked when present, else a warning (few commands need them)."""
    from sim.catalogue.arena_budget import ARENA_BUDGET_FILE, load_arena_budget
    from sim.catalogue.peers import PEERS_FILE, load_peers

    absent = []  # optional files: only the commands named need them
    if (root / PEERS_FILE).exists():  # the peer games' house values (bwlab compare-systems)
        _gather(problems, load_peers, root)
    else:
        absent.append(f"no {PEERS_FILE}: compare-systems and combat --system need it")
    if (root / ARENA_BUDGET_FILE).exists():  # Arena's Power Levels and budget (power-levels)
        spec = _gather(problems, load_arena_budget, root)
        if spec is not None and catalogue is not None:
            absent += _levels_experiment(problems, catalogue, spec)
    else:
        absent.append(f"no {ARENA_BUDGET_FILE}: power-levels and draft need it")
    return absent


def _given_files(problems, catalogue, teams_files, experiments, weights_files, pool_files,
                 baselines, rulings_results, suite=None) -> None:
    """The files named on the command line, each through its own command's loader (``suite``:
    the --suite the baselines are checked against)."""
    from sim.runner.file_kinds import load_team_file, load_weights_file

    if catalogue is not None:
        for f in teams_files:
            _gather(problems, load_team_file, f, catalogue.cards)
        for f in experiments:
            _gather(problems, _load_experiment, f, catalogue)
    for f in weights_files:  # they need no cards
        _gather(problems, load_weights_file, f)
    _other_files(problems, catalogue, pool_files, baselines, rulings_results, suite)
    if catalogue is None and (teams_files or experiments or pool_files):
        # echoed now, while the problems are printed by main after the command: "below"
        click.echo("team and experiment files not checked: the card folder must load first "
                   "(its problems below)", err=True)


def _echo_ok(root: Path, catalogue, apocalypses, curve, absent: list[str],
             checked: list[str]) -> None:
    """A folder without problems: its warnings, then one line of everything checked."""
    from sim.catalogue.diagnostics import Problems
    from sim.catalogue.power import check_bands

    warnings = Problems()
    check_bands(catalogue.cards, catalogue.rules, curve, warnings)
    for warning in warnings.items:
        click.echo(f"warning: {warning}", err=True)
    for missing in absent:
        click.echo(f"warning: {root}: {missing}", err=True)
    click.echo(f"{root}: ok — {len(catalogue.cards)} cards, {len(catalogue.abilities.types)} "
               f"ability types, {len(catalogue.rules.suits)} suits, {len(catalogue.tiles)} tiles, "
               f"{len(catalogue.items)} items, {len(apocalypses.names)} Apocalypses"
               + (f"; {len(warnings)} card(s) outside their rarity band" if warnings else "")
               + (f"; also ok: {', '.join(checked)}" if checked else ""))


def _levels_experiment(problems, catalogue, spec) -> list[str]:
    """The pool experiment ``arena_budget.toml`` names, read as power-levels reads it (a bad one
    is a problem). A missing one is a warning, as a missing arena_budget.toml is: only
    power-levels, draft and fairness --team-budget read it, and a card folder copied elsewhere
    to try a change leaves the experiments behind. The warning names the file and field."""
    from sim.catalogue.arena_budget import ARENA_BUDGET_FILE
    from sim.runner.levels_input import experiment_line, levels_experiment

    if not Path(spec.experiment).is_file():
        line = experiment_line(spec.path)
        return [f"{ARENA_BUDGET_FILE}{'' if line is None else f':{line}'}: levels.experiment: "
                f"no experiment file {spec.experiment} "
                f"(relative to the card folder's parent): power-levels, draft and fairness "
                f"--team-budget refuse this folder unless --levels-experiment names one"]
    _gather(problems, levels_experiment, catalogue, spec, None)
    return []


def _other_files(problems, catalogue, pool_files, baselines, rulings_results, suite) -> None:
    """The files other commands read, through those commands' own loaders: draft pools (with
    the cards), drift baselines (with the cards and a drift suite, :func:`_baselines`) and
    rulings results (without). Each loader is imported only
    when its file is given: the rulings results' brings pandas (0.3 s of every validate)."""
    if catalogue is not None and pool_files:
        from sim.runner.draft import load_pool

        for f in pool_files:
            _gather(problems, load_pool, f, catalogue.cards)
    _baselines(problems, catalogue, baselines, suite)
    if rulings_results:
        from sim.report.rulings_section import load_results

        for f in rulings_results:
            _gather(problems, load_results, Path(f))


def _baselines(problems, catalogue, baselines, suite: Path | None) -> None:
    """Each drift baseline as ``bwlab drift --baseline F --suite S`` takes it before any game:
    the file field by field, then against the suite (its matchups, teams, players and floor of
    games), through drift's own functions. Why the suite: a baseline is sound only for the gate
    it feeds, and the file alone passed here with 512 games the gate refused (audit 78). The
    suite is drift's default unless --suite names one; without the cards, or without the
    default suite (validate run outside the lab's folder), the file alone is checked: a
    warning says so."""
    if not baselines:
        return
    from .drift import SUITE, _load_baseline, check_for_gate

    path = SUITE if suite is None else Path(suite)
    spec = None
    if catalogue is not None and path.is_file():
        spec = _gather(problems, _load_suite, path, catalogue)
    for f in baselines:
        base = _gather(problems, _load_baseline, Path(f))
        if base is not None and spec is not None:
            _gather(problems, check_for_gate, catalogue, spec, base, Path(f), "validate")
        elif base is not None and catalogue is not None and not path.is_file():
            click.echo(f"warning: {f}: checked alone, not against a drift suite: no {path} here "
                       f"(bwlab drift --baseline reads it; --suite names another)", err=True)


def _load_suite(path: Path, catalogue):
    """The drift suite at ``path``, as ``bwlab drift --suite`` reads it."""
    from sim.engine.state.fields import POLICY_IDS
    from sim.runner.drift_suite import load_suite

    return load_suite(path, catalogue.cards, tuple(POLICY_IDS))


def _load_experiment(path: Path, catalogue):
    """The file as the command it is written for reads it: a drift suite (``bwlab drift``:
    ``delta_elo``/``experiments``), a rulings study (``bwlab rulings``: ``[[alternatives]]``), else
    an experiment (``bwlab run``, ``rarity``, ``report``: sim/runner/experiment.py)."""
    import tomllib

    from sim.engine.state.fields import POLICY_IDS
    from sim.runner.experiment import load_experiment, resolved
    from sim.runner.file_kinds import kind_of
    from sim.runner.rulings_data import load_rulings

    path = resolved(path)
    try:
        if not path.is_file():  # a pipe would be waited on for ever; a device never ends
            raise OSError
        kind = kind_of(tomllib.loads(path.read_text(encoding="utf-8")), strict=False)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        kind = None  # the experiment loader reports what is wrong with the file
    if kind == "a rulings study":
        rulings = load_rulings(path)
        _check_alternatives(rulings, catalogue.root)
        _check_study(rulings, catalogue)
        return rulings
    if kind == "a drift suite":
        return _load_suite(path, catalogue)
    return load_experiment(path, catalogue.cards, tuple(POLICY_IDS))


def _check_study(rulings, catalogue) -> None:
    """The files a rulings study names, read as ``bwlab rulings`` reads them: its team file, and
    its rating experiment when the study plays rating games. Why: validate said "ok" of a study
    whose team file named an unknown card, and the command then refused it."""
    from sim.catalogue.diagnostics import Problems
    from sim.runner.file_kinds import load_team_file
    from sim.engine.state.fields import POLICY_IDS
    from sim.runner.experiment import load_experiment
    from sim.runner.rulings import StudyConfig

    cfg = StudyConfig.from_file(rulings)
    problems = Problems()
    _gather(problems, load_team_file, cfg.teams, catalogue.cards)
    if cfg.rating_games > 0:
        _gather(problems, lambda: load_experiment(cfg.rating_experiment, catalogue.cards,
                                                  tuple(POLICY_IDS), games=cfg.rating_games))
    problems.raise_if_any()


def _check_alternatives(rulings, cards: Path) -> None:
    """Each alternative applied to a copy of the cards and loaded, as ``bwlab rulings`` does
    before its first game (a value out of range, a key or file that is not there); every
    alternative's problem is listed, and the copies go with the temporary folder."""
    import tempfile

    from sim.catalogue.diagnostics import Problems
    from sim.runner.rulings_data import prepare

    problems = Problems()
    with tempfile.TemporaryDirectory(prefix="bwlab-validate-") as tmp:
        for alt in rulings.alternatives:
            _gather(problems, prepare, alt, cards, Path(tmp) / f"alternative-{alt.index}",
                    rulings.path)
    problems.raise_if_any()
