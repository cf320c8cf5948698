"""Which kind of lab file a TOML document is, read from its top-level keys.

Why: a file given in the wrong place (a team file as an experiment, an experiment as the drift
suite) was one "unknown key" line for each of its keys and a "missing" line for each key the
loader needs, one of them echoing the whole teams table. The mistake is one: the file's kind.
Each loader asks :func:`misplaced` first and reports that line alone. The key sets stay with
their loaders (imported when asked: the loaders import this module).
"""

from __future__ import annotations


def _kinds():
    """(kind, where it goes, test on the document's top-level table) for each kind of file."""
    from .drift_suite import _SUITE_KEYS
    from .experiment import _KEYS
    from .rulings_data import TOP_KEYS

    return (
        ("a team file", "it goes where a team file goes: TEAMS, --teams, an experiment's teams",
         lambda d: set(d) == {"teams"} and isinstance(d["teams"], list)),
        ("an experiment", "it goes to bwlab run, or in a drift suite's experiments list",
         lambda d: set(d) <= _KEYS and "root_seed" in d),
        ("a drift suite", "it goes to bwlab drift --suite",
         lambda d: set(d) <= _SUITE_KEYS and "experiments" in d),
        ("a rulings study", "it goes to bwlab rulings --alternatives",
         lambda d: bool(d) and set(d) <= TOP_KEYS),
        ("a greedy weights file", "it goes in a player spec: greedy:weights=FILE",
         lambda d: bool(d) and all(k.startswith("greedy_") or k == "tuning" for k in d)),
    )


def misplaced(data, expected: str) -> str | None:
    """``"KIND, not EXPECTED (where it goes)"`` when ``data`` (a parsed TOML table) is another
    kind of lab file than ``expected`` (one of the kinds above), else None."""
    if not isinstance(data, dict):
        return None
    for kind, where, test in _kinds():
        if kind != expected and test(data):
            return f"{kind}, not {expected} ({where})"
    return None
