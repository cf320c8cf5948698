"""Which kind of lab file a TOML document is, read from its top-level keys.

Why: a file given in the wrong place (a team file as an experiment, an experiment as the drift
suite) was one "unknown key" line for each of its keys and a "missing" line for each key the
loader needs, one of them echoing the whole teams table. The mistake is one: the file's kind.
Each loader asks :func:`misplaced` first and reports that line alone (the team and greedy
weights loaders, below the runner, through :func:`kind_checked`: :func:`load_team_file`,
:func:`load_weights_file`, and :func:`parse_policy` for a player's ``weights=FILE``); ``bwlab
validate`` asks :func:`kind_of` which loader reads a file it is given. The key sets stay with
their loaders (imported when asked: the loaders import this module).
"""

from __future__ import annotations

from contextlib import contextmanager


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
        ("an experiment", "it goes to bwlab run, bwlab rarity --experiment (teams drawn from "
                          "the cards), or in a drift suite's experiments list", _KEYS,
         {"root_seed"}),
        ("a draft pool", "it goes to bwlab draft --pool", {"cards"}, {"cards"}),
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


def _toml_of(path):
    """The parsed TOML of ``path`` when it is a regular file that parses, else None (a named
    pipe is never read twice; a file that does not parse is its loader's to describe)."""
    import tomllib
    from pathlib import Path

    try:
        p = Path(path)
        return tomllib.loads(p.read_text(encoding="utf-8")) if p.is_file() else None
    except (OSError, TypeError, ValueError, RecursionError):  # UnicodeDecodeError, TOML's too
        return None


def _collapsed(exc, expected: str):
    """``exc`` (an InputError) with the problems of each file that is another kind of lab file
    than ``expected`` replaced by one line saying so (:func:`misplaced`); None when no file of
    its problems is."""
    from sim.catalogue.diagnostics import InputError, Problem

    wrong = {f: misplaced(_toml_of(f), expected) for f in dict.fromkeys(q.file for q in
                                                                         exc.problems)}
    if not any(wrong.values()):
        return None
    kept, said = [], set()
    for q in exc.problems:
        if not wrong[q.file]:
            kept.append(q)
        elif q.file not in said:
            said.add(q.file)
            kept.append(Problem(q.file, None, "file", wrong[q.file]))
    return InputError(kept)


@contextmanager
def kind_checked(expected: str):
    """Around a loader of ``expected`` files (one of the kinds above) that cannot ask
    :func:`misplaced` itself (the team and greedy weights loaders live below the runner): a
    file of another kind it refused is one line saying which kind and where it goes, not a line
    for each of its keys. The kind is asked only once the loader has refused the file, so a
    file read once (a named pipe, process substitution) is read once when it is sound."""
    from sim.catalogue.diagnostics import InputError

    try:
        yield
    except InputError as exc:
        one = _collapsed(exc, expected)
        if one is None:
            raise
        raise one from None


def load_team_file(path, cards):
    """:func:`sim.catalogue.teams.load_teams`, but another kind of lab file given as a team file
    (``bwlab fairness experiments/smoke.toml``) is one line saying which kind it is and where it
    goes, not a line for each of its keys (nine, "name: unknown key" to "teams: expected a
    list")."""
    from sim.catalogue.teams import load_teams

    with kind_checked("a team file"):
        return load_teams(path, cards)


def load_weights_file(path):
    """:func:`sim.catalogue.greedy_weights.load_greedy_weights`, another kind of lab file one
    line (``bwlab validate --weights experiments/smoke.toml`` was nine)."""
    from sim.catalogue.greedy_weights import load_greedy_weights

    with kind_checked("a greedy weights file"):
        return load_greedy_weights(path)


def parse_policy(text: str, budget: int | None = None):
    """:func:`sim.ai.spec.parse_policy`, a ``weights=FILE`` of another kind one line (``play
    --policy greedy:weights=experiments/smoke.toml`` was nine: the file's keys, one each)."""
    from sim.ai import spec

    with kind_checked("a greedy weights file"):
        return spec.parse_policy(text, budget)


def parse_policies(texts, budget: int | None = None):
    """:func:`sim.ai.spec.parse_policies`, a ``weights=FILE`` of another kind one line."""
    from sim.ai import spec

    with kind_checked("a greedy weights file"):
        return spec.parse_policies(texts, budget)
