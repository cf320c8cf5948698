"""The pool experiment behind Power Levels, as ``cards/arena_budget.toml`` names it: found,
loaded and checked before any game, with each problem on one ``file:line: field`` line.

Why apart from :mod:`.budget`: ``bwlab validate`` checks this file on every card folder, and
:mod:`.budget` imports the statistics of the levels and the budget's validation (scipy.stats),
which took 0.9 s of validate's 1.9 s; the check itself needs none of them.
"""

from __future__ import annotations

from pathlib import Path

from sim.catalogue.diagnostics import InputError, Problem

__all__ = ["experiment_line", "levels_experiment"]


def levels_experiment(catalogue, spec, policy: str | None = "greedy",
                      games: int | None = None, games_flag: str = "--level-games"):
    """The pool experiment ``arena_budget.toml`` names, loaded and checked with ``games``
    (default: the file's) and ``policy`` (None: the file's players). Why apart: every command
    that fits levels loads it with its other inputs, so a missing or bad file is refused
    before any game (and ``bwlab validate`` checks it too)."""
    from sim.engine.state.fields import POLICY_IDS

    from .experiment import load_experiment, with_policy

    games = spec.games if games is None else games
    if spec.experiment_flag and not Path(spec.experiment).is_file():  # named by the flag
        raise InputError([Problem(str(spec.experiment), None, spec.experiment_flag,
                                  "no experiment file here (missing, or not a file)")])
    if not Path(spec.experiment).is_file():  # named where the file sets it, not only as a path
        raise InputError([Problem(spec.path or "arena_budget.toml", experiment_line(spec.path),
                                  "levels.experiment",
                                  f"no experiment file {spec.experiment} (a path relative to "
                                  f"the card folder's parent: copy experiments/ beside a copied "
                                  f"card folder, give an absolute path, or name one with "
                                  f"--levels-experiment)")])
    exp = load_experiment(spec.experiment, catalogue.cards, tuple(POLICY_IDS), games=games,
                          games_flag=games_flag)
    if exp.pool is None:
        raise _not_a_pool(spec)
    return with_policy(exp, policy)


def _not_a_pool(spec) -> InputError:
    """The one line for a levels experiment with fixed teams (``experiments/smoke.toml``). Why
    refused: the ratings fit the cards its teams play, so such a file left most cards unplayed,
    each given a level at rating +0.00, exit 0 (the audit of 2026-12). Named where it was given:
    the flag, or ``[levels] experiment`` of arena_budget.toml with its line, as ``bwlab rarity``
    names a file that is not a pool."""
    why = ("not a [pool] experiment: Power Levels are fitted on teams drawn from the cards "
           "(experiments/rarity.toml is one)")
    if spec.experiment_flag:
        return InputError([Problem(str(spec.experiment), None, spec.experiment_flag, why)])
    return InputError([Problem(spec.path or "arena_budget.toml", experiment_line(spec.path),
                               "levels.experiment", f"{spec.experiment} is {why}")])


def experiment_line(path: str) -> int | None:
    """The line of ``[levels] experiment`` in arena_budget.toml (its table's line when the key
    is left to its default; None for a file that cannot be read), so a missing experiment is
    one ``file:line: field: message`` line like every other designer mistake."""
    from sim.catalogue.diagnostics import Problems
    from sim.catalogue.tomldoc import TomlDoc

    if not path:
        return None
    doc = TomlDoc.load(Path(path), Problems())
    return None if doc is None else doc.line(("levels", "experiment"))
