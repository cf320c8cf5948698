"""The drift gate's suite file (``experiments/drift.toml``): its bounds (the paired test's
``delta_elo``, ``alpha``, ``beta``, the games per matchup) and the matchups it replays, each
checked as every experiment file is (one line per problem, naming file and key)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from sim.catalogue.diagnostics import InputError, Problems, read_text
from sim.catalogue.tomldoc import TomlDoc

from .drift_baseline import SUITE_RANGES
from .experiment import Experiment, load_experiment, resolved
from .file_kinds import misplaced

_SUITE_KEYS = {"delta_elo", "alpha", "beta", "max_games", "min_games", "round", "experiments"}


@dataclass(frozen=True)
class Suite:
    path: str
    delta_elo: float
    alpha: float
    beta: float
    max_games: int
    min_games: int
    round_games: int
    experiments: tuple[Experiment, ...]
    capped_by_flag: bool = False  # max_games (and maybe min_games) lowered by --games


# the suite's game counts, each whole duplicate blocks: (name, the file's key, lowest, fallback)
_GAME_COUNTS = (("max_games", "max_games", 4096), ("min_games", "min_games", 1024),
                ("round_games", "round", 128))


def _suite_numbers(doc: TomlDoc) -> dict:
    numbers = {key: doc.get((key,), SUITE_RANGES[key][0], lo=SUITE_RANGES[key][1],
                            hi=SUITE_RANGES[key][2], fallback=fallback)
               for key, fallback in (("delta_elo", 70.0), ("alpha", 0.05), ("beta", 0.05))}
    refused = set()  # counts already reported: their fallbacks are compared with nothing
    for name, key, fallback in _GAME_COUNTS:
        _, lo, hi = SUITE_RANGES[key]
        n = doc.get((key,), int, lo=lo, hi=hi, fallback=None)
        if n is not None and n % 4:
            doc.add((key,), f"{n} is not a multiple of 4 (duplicate blocks)")
            n = None  # reported once, here: not again by each matchup's games
        if n is None:
            refused.add(name)
        numbers[name] = fallback if n is None else n
    if not refused & {"min_games", "max_games"} and numbers["min_games"] > numbers["max_games"]:
        doc.add(("min_games",), f"{numbers['min_games']} is above max_games {numbers['max_games']}")
    return numbers


def load_suite(path: Path, cards, policy_names) -> Suite:
    """``experiments/drift.toml``: the gate's bounds and the matchups it replays."""
    path = Path(path)
    problems = Problems()
    doc = TomlDoc.load(path, problems)
    if doc is None:
        problems.raise_if_any()
    wrong = misplaced(doc.data, "a drift suite")
    if wrong:  # one line for the one mistake, not a line for each key
        problems.add(path, None, "file", wrong)
        problems.raise_if_any()
    doc.unknown_keys((), _SUITE_KEYS)
    numbers = _suite_numbers(doc)
    files = doc.get(("experiments",), list, fallback=None)
    if files == []:  # None: missing, not a list or a bad entry, said once already
        doc.add(("experiments",), "list at least one experiment file")
    files = files or []
    experiments, seen = [], set()
    for rel in files:
        target = doc.referenced_file(("experiments",), rel, path.parent, "experiment file",
                                     "this file")
        if target is None:
            continue
        if resolved(target) in seen:  # its metrics would be tested twice
            doc.add(("experiments",), f"{rel!r} is listed twice")
            continue
        seen.add(resolved(target))
        try:
            exp = load_experiment(target, cards, policy_names, games=numbers["max_games"])
        except InputError as exc:  # every problem of every file, each saying where it came in
            where = f"{path}:{_entry_line(path, doc.line(('experiments',)) or 1, rel)}"
            problems.extend(Problems([_came_in(q, target, rel, where) for q in exc.problems]))
            continue
        if exp.teams is None or exp.seating != "duplicate":
            doc.add(("experiments",), f"{rel}: the gate replays fixed teams in duplicate seating")
        if exp.boards < 2:
            doc.add(("experiments",), f"{rel}: boards = {exp.boards}; the gate needs at least 2 "
                                      f"(its variance is between boards)")
        if any(e.name == exp.name for e in experiments):  # the baseline keys games by name
            doc.add(("experiments",), f"{rel}: a second matchup named {exp.name!r}; the "
                                      "baseline keeps one matchup per name: rename one")
            continue
        experiments.append(exp)
    problems.raise_if_any()
    return Suite(str(path), experiments=tuple(experiments), **numbers)


def _came_in(problem, target: Path, rel: str, where: str):
    """``problem`` of a file the suite brings in, ending with the suite's line naming it, in the
    words of a weights file's named by an experiment (sim.runner.experiment). Why: a suite
    naming a broken matchup reported the matchup's line alone, and a CI log named neither the
    suite nor where it brought the file in (stop 77's audit); the file's own line stays first,
    where the fix goes. A file the matchup reads in turn (its teams) names the matchup too."""
    own = problem.file is not None and resolved(problem.file) == resolved(target)
    how = "a matchup" if own else f"read by the matchup {rel},"
    return replace(problem, message=f"{problem.message} ({how} named in experiments, {where})")


def _entry_line(path: Path, first: int, rel: str) -> int:
    """The suite's line, from ``first`` (the ``experiments`` key's) on, that holds ``rel``
    quoted: its own line in a list written an entry a line; else the key's."""
    text = read_text(path, Problems()) or ""
    lines = text.splitlines()
    for n in range(first, len(lines) + 1):
        if f'"{rel}"' in lines[n - 1] or f"'{rel}'" in lines[n - 1]:
            return n
    return first
