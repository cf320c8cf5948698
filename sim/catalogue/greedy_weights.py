"""A greedy weights file (``greedy:weights=FILE``): a player with greedy weights of its own.

Why a file: greedy's weights are the rules' ``greedy_*`` keys (``cards/rules.toml`` ``[game]``),
which every greedy team shares. A tuned weight set (``benchmarks/tune_greedy.py`` writes
``experiments/greedy_tuned.toml``) must sit beside the rules' one in the same game to be judged
by duplicate play, so it lives in a file of its own, named by the player's spec, and checked like
every data file: one ``file:line: field: problem`` line per mistake (exit 2).

The file holds any of the ``greedy_*`` keys (a key left out keeps the rules' value) and an
optional ``[tuning]`` table that records how the weights were found (read by nobody but people).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .diagnostics import Problems
from .game_rules import GREEDY_KEYS, MAX_WEIGHT
from .tomldoc import TomlDoc

# a user who copied the rules' [game] whole (a weights file takes its greedy_* keys): stop 77's
# audit found "game: unknown key" said nothing of what a weights file holds
GAME_HINT = ("[game] is the rules' section (cards/rules.toml), not a greedy weights file's: a "
             "greedy weights file holds greedy_* keys at its top level, under no section header, "
             "and an optional [tuning] table (docs/ai.md)")


def load_greedy_weights(path: Path | str, problems: Problems | None = None) -> np.ndarray:
    """``float64[len(GREEDY_KEYS)]`` in ``GREEDY_KEYS`` order, NaN where the file gives no value
    (the rules' weight applies); raises InputError listing every problem."""
    # counted before the file is read: its scan reports NaN, infinity or a NUL as it loads
    before = len(problems) if problems is not None else 0
    doc = TomlDoc.load_or_raise(Path(path), problems)
    own = doc.problems
    doc.unknown_keys((), {*GREEDY_KEYS, "tuning", "game"})
    if "game" in doc.data:  # not "unknown key": say what this file holds instead
        doc.add(("game",), GAME_HINT)
    if "tuning" in doc.data and not isinstance(doc.data["tuning"], dict):
        doc.add(("tuning",), "expected a table [tuning]")
    given = [k for k in GREEDY_KEYS if k in doc.data]
    if not given and len(own) == before:
        doc.add((), f"no greedy weight given (keys: {', '.join(GREEDY_KEYS)})")
    weights = np.full(len(GREEDY_KEYS), np.nan)
    for i, key in enumerate(GREEDY_KEYS):
        if key in doc.data:
            value = doc.get((key,), (int, float), lo=0.0, hi=MAX_WEIGHT)
            if value is not None:
                weights[i] = float(value)
    if len(own) > before:
        own.raise_if_any()
    return weights


def format_greedy_weights(weights, tuning: dict | None = None) -> str:
    """The TOML text of a weights file (every key, ``GREEDY_KEYS`` order) and its ``[tuning]``
    record: what :func:`load_greedy_weights` reads back to the same values (``repr`` floats)."""
    lines = ["# Greedy weights of a player of their own: bwlab ladder --players "
             "greedy,greedy:weights=THIS_FILE", "# (docs/ai.md; keys as cards/rules.toml [game])"]
    lines += [f"{k} = {float(w)!r}" for k, w in zip(GREEDY_KEYS, weights)]
    if tuning:
        lines += ["", "[tuning]"]
        for k, v in tuning.items():
            text = f'"{v}"' if isinstance(v, str) else repr(v)
            lines.append(f"{k} = {text}")
    return "\n".join(lines) + "\n"
