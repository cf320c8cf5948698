"""Which kind of lab file a TOML document is, read from its top-level keys.

Why: a file given in the wrong place (a team file as an experiment, an experiment as the drift
suite) was one "unknown key" line for each of its keys and a "missing" line for each key the
loader needs, one of them echoing the whole teams table. The mistake is one: the file's kind.
Each loader asks :func:`misplaced` first and reports that line alone; ``bwlab validate`` asks
:func:`kind_of` which loader reads a file it is given. The key sets stay with their loaders
(imported when asked: the loaders import this module).
"""

from __future__ import annotations


def _kinds():
    """(kind, where it goes, its keys, the keys that mark it) for each kind of file, in the
    order a document is tried (a team file's ``teams`` is a table list, an experiment's a path)."""
    from .drift_suite import _SUITE_KEYS
    from .experiment import _KEYS
    from .rulings_data import TOP_KEYS

    return (
        ("a rulings study", "it goes to bwlab rulings --alternatives", TOP_KEYS, TOP_KEYS),
        ("a drift suite", "it goes to bwlab drift --suite", _SUITE_KEYS,
         {"delta_elo", "experiments"}),
        ("a team file", "it goes where a team file goes: TEAMS, --teams, an experiment's teams",
         {"teams"}, {"teams"}),
        ("an experiment", "it goes to bwlab run, or in a drift suite's experiments list", _KEYS,
         {"root_seed"}),
    )


def kind_of(data, *, strict: bool = True) -> str | None:
    """The kind of lab file ``data`` (a parsed TOML table) is: the first whose marking key it
    holds and, when ``strict``, all of whose keys are that kind's (a file with a misspelt key
    still reads as its kind when not strict, so its loader names the typo). None when none."""
    if not isinstance(data, dict) or not data:
        return None
    keys = set(data)
    if all(k.startswith("greedy_") or k == "tuning" for k in keys):
        return "a greedy weights file"
    for kind, _, known, markers in _kinds():
        if kind == "a team file" and not isinstance(data.get("teams"), list):
            continue
        if keys & markers and (not strict or keys <= known):
            return kind
    return None


def misplaced(data, expected: str) -> str | None:
    """``"KIND, not EXPECTED (where it goes)"`` when ``data`` is another kind of lab file than
    ``expected`` (one of the kinds above), else None."""
    kind = kind_of(data)
    if kind is None or kind == expected:
        return None
    where = dict((k, w) for k, w, _, _ in _kinds()).get(
        kind, "it goes in a player spec: greedy:weights=FILE")
    return f"{kind}, not {expected} ({where})"


def load_team_file(path, cards):
    """:func:`sim.catalogue.teams.load_teams`, but another kind of lab file given as a team file
    (``bwlab fairness experiments/smoke.toml``) is one line saying which kind it is and where it
    goes, not a line for each of its keys (nine, "name: unknown key" to "teams: expected a list").
    The kind is asked only once the team loader has refused the file, so a file read once (a
    named pipe, process substitution) is read once when it is a team file."""
    import tomllib
    from pathlib import Path

    from sim.catalogue.diagnostics import InputError, Problems
    from sim.catalogue.teams import load_teams

    try:
        return load_teams(path, cards)
    except InputError:
        try:
            p = Path(path)
            data = tomllib.loads(p.read_text(encoding="utf-8")) if p.is_file() else None
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
            data = None
        wrong = misplaced(data, "a team file")
        if wrong is None:
            raise
        problems = Problems()
        problems.add(path, None, "file", wrong)
        problems.raise_if_any()
        raise
