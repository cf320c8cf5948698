"""``bwlab rarity``: each card's strength in play, per rarity, with the outliers flagged and, with
``--remedy``, the smallest stat change that brings each outlier back (:mod:`sim.runner.remedy`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import click

from sim.runner.limits import MAX_GAMES

from ._json import json_text
from ._engine import ready_to_play
from ._paths import IN_FILE, OUT_FOLDER, cards_option, not_the_card_folder
from ._policy import POLICY_HELP, budget_option
from .rarity_output import card_answers, card_frame, json_doc, policy_frame, rarity_ranges
from .rarity_text import echo_table, not_remedied

if TYPE_CHECKING:  # numpy is imported when a command runs, not for --help
    import numpy as np

    from sim.runner.rarity_ablation import Ablation


@click.command()
@click.option("--experiment", type=IN_FILE,
              default=Path("experiments/rarity.toml"), show_default=True,
              help="A pool experiment (teams drawn from the cards).")
@click.option("--games", type=click.IntRange(8, MAX_GAMES), default=None,
              help="Override the games.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True,
              help="table: for reading; json: for scripts, on stdout only (the CSV goes to --out).")
@click.option("--out", type=OUT_FOLDER, default=Path("reports"),
              show_default=True, help="Folder for rarity_cards.csv.")
@click.option("--ablation", type=click.IntRange(0, None), default=100, show_default=True,
              help="Games per card replayed with the card swapped for its rarity's reference "
                   "card (0: skip the counterfactual ablation).")
@click.option("--remedy", is_flag=True, default=False,
              help="For each outlier, the smallest single-stat change (steps from [remedy] in "
                   "power_curve.toml) that brings it into its band, checked by replaying its "
                   "games.")
@click.option("--remedy-games", type=click.IntRange(1, MAX_GAMES), default=4000, show_default=True,
              help="Replay budget per outlier, split evenly over the most checks its search "
                   "can need (per stat: one, plus a bisection of its steps); never exceeded.")
@click.option("--remedy-card", "remedy_cards", multiple=True, metavar="NAME",
              help="Remedy only these outliers (repeatable; default: every outlier).")
@click.option("--card", "asked_cards", multiple=True, metavar="NAME",
              help="Say how this card plays (repeatable): its verdict, win rate when held and "
                   "rating against its rarity's band in play, and its power score against the "
                   "band by stats: the answer for a card just added or changed.")
@click.option("--policy", default=None, help=POLICY_HELP + " Replaces the experiment's policies.")
@click.option("--policies", default=None, metavar="SPEC,SPEC,...",
              help="Play the study once per player (e.g. random,greedy,lookahead:4; same seeds) "
                   "and report whether the rarity verdicts hold for each. The first is the main "
                   "study's player (ablation and remedies use it).")
@click.option("--correction", type=click.Choice(["holm", "bh", "none"]), default="holm",
              show_default=True,
              help="Multiple-comparison correction of the outlier flags over the cards in play: "
                   "Holm (family-wise), Benjamini-Hochberg (false discovery rate) or none.")
@click.option("--replicates", type=click.IntRange(1, 20), default=1, show_default=True,
              help="Play the study this many times from independent seeds and report how often "
                   "each outlier recurs (the first is the study itself).")
@budget_option
@cards_option()
def rarity(experiment, games, fmt, out, ablation, remedy, remedy_games, remedy_cards, asked_cards,
           policy, policies, correction, replicates, budget, cards):
    """Win rate when held, composition rating with intervals, rarity order and outliers; with
    --remedy, the smallest stat change that brings each outlier back into its band."""
    from sim.atomic import atomic_paths
    from sim.report import CSV_FLOAT

    players = None
    if policies is not None:
        if policy is not None:
            raise click.UsageError("give --policy or --policies, not both")
        from ._policy import policy_list

        players = policy_list(policies, budget, "--policies", at_least=2)
        policy = players[0]
    if remedy_cards and not remedy:
        raise click.UsageError("--remedy-card names outliers to remedy: give --remedy too")
    # --remedy-card and --card names are checked with the other inputs, before any game: every
    # problem at once (a bad --games once hid a mistyped --card until it was fixed)
    catalogue, exp, curve, named = _inputs(experiment, games, policy, budget, cards, remedy,
                                           bands=bool(asked_cards),
                                           names=(("--remedy-card", remedy_cards),
                                                  ("--card", asked_cards)))
    only = set(named["--remedy-card"]) if remedy_cards else None
    asked = list(dict.fromkeys(named["--card"]))
    not_the_card_folder(out, catalogue.root)
    written = ["rarity_cards.csv"] + (["rarity_policies.csv"] if len(players or ()) > 1 else [])
    ready_to_play([("--out", out / name) for name in written], catalogue.root)  # all or none
    run = _play(catalogue, exp, ablation, players, replicates, correction)
    if remedy:
        run.fixes = _remedies(catalogue, exp, run, curve, remedy_games, only)
    frame = card_frame(catalogue, run)
    tables = {"rarity_cards.csv": frame}
    if run.compared is not None:
        rules = catalogue.rules
        tables["rarity_policies.csv"] = policy_frame(run.compared, catalogue.cards.names,
                                                     [rules.rarities[r] for r in run.rar])
    # the tables replace the old ones together (atomic_paths): all or none
    with atomic_paths([out / name for name in tables]) as temps:
        for tmp, table in zip(temps, tables.values()):
            table.to_csv(tmp, index=False, float_format=CSV_FLOAT)
    per = rarity_ranges(run.s, run.rar, catalogue.rules.rarities)
    answers = card_answers(frame, catalogue, curve, asked) if asked else []
    if fmt == "json":
        doc = json_doc(frame, run, per, correction, remedy, catalogue, exp)
        if asked:
            doc["asked"] = answers
        if remedy and only:  # what the text says of a named card that got no remedy
            doc["not_remedied"] = not_remedied(run, catalogue.cards.names, sorted(only))
        click.echo(json_text(doc, "rarity", indent=2, ensure_ascii=False))
        return
    echo_table(frame, run, per, exp, catalogue, correction, out,
               (remedy_games, sorted(only or ())) if remedy else None, answers)


@dataclass
class RarityRun:
    """What one ``bwlab rarity`` played: the study and everything measured beside it."""
    s: object  # sim.runner.rarity.study's result
    rar: np.ndarray  # each card's rarity index
    balance: object  # sim.analysis.balance: how the study's games went
    per_card: np.ndarray  # damage dealt, taken, kills, survival per card
    reference: np.ndarray  # each card's rarity reference card (the ablation's swap)
    ablation: Ablation  # per card: effect, standard error, interval, games replayed
    compared: object = None  # the study under the other players (--policies)
    recur: object = None  # the replicates' recurrence (--replicates)
    seat_cards: np.ndarray = None
    winner: np.ndarray = None
    fixes: list = field(default_factory=list)  # --remedy's findings, the outliers' order


def _inputs(experiment, games, policy, budget, cards, remedy, bands=False, names=()):
    """The catalogue, the experiment (with --policy / --budget applied), with --remedy (or
    --card) the power curve, and the cards ``names`` gives per flag ((flag, names) pairs ->
    {flag: rows}): all checked before any game is played, every problem at once, so a typo
    costs nothing."""
    from sim.catalogue.diagnostics import InputError, Problem, Problems
    from sim.catalogue.loader import load_catalogue
    from sim.catalogue.power import POWER_CURVE_FILE, load_power_curve, score_weights
    from sim.engine.state.fields import POLICY_IDS
    from sim.runner.experiment import load_experiment

    from ._policy import override

    catalogue = load_catalogue(cards)
    problems = Problems()
    rows = {}
    for flag, given in names:
        rows[flag] = []
        for n in given:
            try:
                rows[flag].append(_card(catalogue, n, flag))
            except InputError as exc:
                problems.items.extend(exc.problems)
    try:
        exp = load_experiment(experiment, catalogue.cards, tuple(POLICY_IDS), games=games)
        exp = override(exp, policy, budget)  # --policy / --budget: every game of the study
    except InputError as exc:
        raise InputError(exc.problems + problems.items) from None
    if exp.pool is None:
        raise InputError([Problem(str(experiment), None, "pool",
                                  "the rarity study needs a [pool] experiment (teams drawn)")]
                         + problems.items)
    curve = None
    if remedy or bands:  # bands: --card's answer by stats needs the bands alone
        curve_path = catalogue.root / POWER_CURVE_FILE
        curve = load_power_curve(curve_path, catalogue.rules, problems)
        if remedy and curve is not None and curve.remedy is None:
            problems.add(curve_path, None, "remedy", "missing [remedy] table: the stats and steps "
                                                     "the remedy search may try")
    else:  # the study's reference cards read the power score: its [score] before any game
        try:
            score_weights(catalogue.rules)
        except InputError as exc:
            problems.items.extend(exc.problems)
    problems.raise_if_any()
    return catalogue, exp, curve, rows


def _play(catalogue, exp, ablation, players, replicates, correction) -> RarityRun:
    """The study, its ablation, and (when asked) the other players' studies and the replicates."""
    import numpy as np

    from sim.catalogue.power import power_score
    from sim.runner.rarity_ablation import Ablation, ablation as run_ablation
    from sim.runner.rarity import (card_records, play_pool, pool_balance, pool_boards,
                                   reference_cards, study)

    per_game: dict = {}
    seat_cards, winner, records = play_pool(catalogue, exp, records=True, games=per_game,
                                            label="the study")
    rules, n = catalogue.rules, len(catalogue.cards.names)
    rar = np.asarray(catalogue.cards.rarity, np.int64)
    s = study(seat_cards, winner, rar, len(rules.rarities), boards=pool_boards(exp, len(winner)),
              correction=correction)
    reference = reference_cards(power_score(catalogue.cards, rules), rar)
    run = RarityRun(s=s, rar=rar, balance=pool_balance(per_game, winner),
                    per_card=card_records(seat_cards, records, n), reference=reference,
                    ablation=(run_ablation(catalogue, exp, seat_cards, winner, reference, ablation)
                              if ablation else Ablation.skipped(n)),
                    seat_cards=seat_cards, winner=winner)
    if players is not None:  # the same study under the other players, same seeds
        from sim.runner.rarity_policies import agreement, play_studies

        others = play_studies(catalogue, exp, players[1:], rar, len(rules.rarities))
        run.compared = agreement(players, (s,) + others)
    if replicates > 1:
        from sim.runner.rarity_recurrence import recurrence

        run.recur = recurrence(catalogue, exp, s, replicates, correction=correction)
    return run


def _remedies(catalogue, exp, run, curve, remedy_games, only) -> list:
    """--remedy: each outlier's smallest stat change (``only``: these cards' rows, None: every
    outlier), checked by replaying its games in a base study of its own (the study's luck flagged
    it), in the outliers' order (rarity, then rating)."""
    from sim.runner.remedy import remedies, remedy_records

    found = remedies(catalogue, exp, run.s, curve.remedy, remedy_games, only=only,
                     correction=run.s.correction)
    rank = {r: i for i, r in enumerate(catalogue.rules.rarities)}
    return sorted(remedy_records(found, catalogue, curve.bands),
                  key=lambda f: (rank[f["rarity"]], f["rating_before"]))


def _card(catalogue, name: str, flag: str = "--remedy-card") -> int:
    """The card ``--remedy-card`` (or ``--card``) names; an unknown name is the flag's problem,
    not the card file's (the message keeps the suggestion)."""
    from sim.catalogue.diagnostics import InputError, Problem

    try:
        return catalogue.cards.find(name)
    except InputError as exc:
        raise InputError([Problem(flag, None, "name", exc.problems[0].message)]) from None
