"""``--policy`` and ``--budget``: one spelling for every command that plays games.

Why shared: ``play``, ``run``, ``fairness``, ``rarity`` and ``drift`` all accept the same specs
(:mod:`sim.ai.spec`) and report a bad one the same way — one line, exit 2 — before any game is
played or anything compiled.
"""

from __future__ import annotations

import click

POLICY_HELP = ("Policy: random, greedy, greedy:weights=FILE (greedy with a weights file's "
               "weights), lookahead or lookahead:BUDGET (simulations per "
               "decision), lookahead[:BUDGET]:weights=FILE (the look-ahead over that greedy; "
               "see docs/ai.md), lookahead-rotation[:BUDGET][:weights=FILE] (every play-out a "
               "whole rotation, as lookahead played until 2026-12-02).")
BUDGET_HELP = "Budget of every lookahead policy that names none (default 32)."


def budget_option(f):
    from sim.ai.spec import MAX_BUDGET

    return click.option("--budget", type=click.IntRange(1, MAX_BUDGET), default=None,
                        help=BUDGET_HELP)(f)


def policy_label(policy: str, budget: int | None) -> str:
    """The spec label of ``--policy`` with ``--budget`` (BadParameter if either is wrong)."""
    from sim.runner.file_kinds import parse_policies

    try:
        return parse_policies([policy], budget)[0].label
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--policy/--budget") from None


def override(exp, policy: str | None, budget: int | None):
    """``exp`` with ``--policy`` in every seat and/or ``--budget`` applied (BadParameter)."""
    from sim.runner.experiment import with_policy

    try:
        return with_policy(exp, policy, budget)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--policy/--budget") from None


def policy_list(text: str, budget: int | None, hint: str, at_least: int = 1) -> list[str]:
    """Comma-separated specs (``random,greedy,lookahead:4``) as distinct labels (BadParameter)."""
    from sim.runner.file_kinds import parse_policies

    names = [p.strip() for p in text.split(",")]
    if "" in names:  # "greedy,,random": a player left out by mistake, not one fewer player
        raise click.BadParameter(f"{text!r}: an empty player between commas", param_hint=hint)
    try:
        labels = [s.label for s in parse_policies(names, budget)]
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint=hint) from None
    if len(labels) < at_least or len(set(labels)) != len(labels):
        raise click.BadParameter(f"at least {at_least} different players", param_hint=hint)
    return labels
