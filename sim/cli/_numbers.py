"""Numeric option types that refuse what no option means: NaN and infinities; and counts in words.

Why: click's ``FloatRange`` compares the value with its bounds, and every comparison with NaN is
false, so ``--tolerance nan`` passed and a fairness check ran with "25 % ± nan points"
(issue #22: "Every number is finite and within a stated range"). :func:`counted` because a
study of one round printed "1 rounds of duplicate play".
"""

from __future__ import annotations

import math

import click


class FiniteFloatRange(click.FloatRange):
    """``click.FloatRange`` that also refuses NaN and infinities."""

    name = "finite float range"

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


def counted(n: int, word: str, plural: str | None = None) -> str:
    """``n`` and the noun it counts, in the singular for exactly one: "1 round", "2,048 games"."""
    return f"{n:,} {word if n == 1 else (plural or word + 's')}"
