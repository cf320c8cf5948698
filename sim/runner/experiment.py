"""Experiment files (``experiments/NAME.toml``): what to play, how often, from which seed.

Why a file: a designer's or CI's run must be repeatable from its definition alone — teams (or a
card pool and how teams are drawn), policies, seating, boards, number of games and the root seed.
Validated like every designer file: one ``file:line: field: message`` per problem, exit 2.

Format::

    name = "baseline"                  # default: the file's stem
    description = "..."
    games = 4000                       # >= 1
    root_seed = 20261130
    batch_size = 500                   # games per task (and per Parquet file)
    boards = 100                       # distinct generated boards, reused in turn
    policies = ["greedy"]              # one for every seat, or four (seat 1 .. seat 4):
                                       # random, greedy, lookahead[:BUDGET]; greedy and
                                       # lookahead take a :weights=FILE (docs/ai.md),
                                       # relative to this file as teams are
    seating = "duplicate"              # "fixed" | "rotate" | "duplicate"
    teams = "teams/example.toml"       # fixed teams (relative to this file) ...
    [pool]                             # ... or teams drawn from a pool for every block of games
    cards = "all"                      # or a list of card names (>= 20)
    draw = "random"

Seating: "fixed" — team t always in seat t; "rotate" — game i shifts the teams by i mod 4;
"duplicate" — games come in blocks of four on one board and one draw of teams, the teams rotated
through all four seats (duplicate play: the seat effect cancels and variance drops).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from sim.catalogue.diagnostics import InputError, Problems, suggest
from sim.catalogue.teams import CARDS_PER_TEAM, TEAMS
from sim.catalogue.tomldoc import MISSING, TomlDoc

from .file_kinds import load_team_file, misplaced
from .limits import GAMES_WHY, MAX_BATCHES, MAX_GAMES

SEATINGS = ("fixed", "rotate", "duplicate")
DRAWS = ("random",)
MAX_SEED = 2**63 - 1  # a root seed (SeedSequence entropy) fits an int64 column: the highest
_KEYS = {"name", "description", "games", "root_seed", "batch_size", "boards", "policies",
         "seating", "teams", "pool"}


@dataclass(frozen=True)
class Experiment:
    name: str
    description: str
    games: int
    root_seed: int
    batch_size: int
    boards: int
    policies: tuple[str, ...]       # four: the policy spec in each seat (sim.ai.spec labels)
    seating: str
    teams: np.ndarray | None        # int64[4, 5] fixed teams, or None with a pool
    team_names: tuple[str, ...]
    pool: np.ndarray | None         # int64[k] card indices to draw from
    draw: str
    path: str
    digest: str                     # sha256 of the file's bytes (old drift baselines hold it)
    # sha256 of the file's parsed values: a resumed run and a drift baseline must match it (a
    # comment may change)
    content_digest: str = ""

    @property
    def n_batches(self) -> int:
        return -(-self.games // self.batch_size)

    def batch_range(self, b: int) -> tuple[int, int]:
        """Games ``[start, stop)`` of batch ``b``."""
        start = b * self.batch_size
        return start, min(self.games, start + self.batch_size)


def load_experiment(path: Path, cards, policy_names, *, games: int | None = None,
                    games_flag: str = "--games") -> Experiment:
    """Parse and check ``path`` against the card catalogue; InputError listing every problem.

    ``games`` overrides the file (``--games``); ``policy_names`` are the policies the engine knows.
    ``games_flag``: the option the user typed ``games`` as, named in its problems (``report
    --rating-games 10`` was refused as "--games: games: 10 games cannot be played in duplicate
    blocks of 4", a flag the user never gave).
    """
    path = Path(path)
    problems = Problems()
    doc = TomlDoc.load(path, problems)
    if doc is None:
        problems.raise_if_any()
    wrong = misplaced(doc.data, "an experiment")
    if wrong:  # one line for the one mistake, not a line for each key
        problems.add(path, None, "file", wrong)
        problems.raise_if_any()
    doc.unknown_keys((), _KEYS)
    name = _file_name(doc, doc.get(("name",), str, default=path.stem, fallback=path.stem))
    description = doc.get(("description",), str, default="", fallback="")
    n_games = doc.get(("games",), int, lo=1, fallback=TEAMS)  # TEAMS: no second problem
    if n_games > MAX_GAMES:
        doc.add(("games",), f"{n_games} is above the maximum {MAX_GAMES} ({GAMES_WHY})")
        n_games = TEAMS  # checked no further: one line for one mistake
    if games is not None:
        if not 1 <= games <= MAX_GAMES:
            problems.add(games_flag, None, "games", f"{games} out of range [1, {MAX_GAMES}]"
                         + (f" ({GAMES_WHY})" if games > MAX_GAMES else ""))
        n_games = games if 1 <= games <= MAX_GAMES else TEAMS
    root_seed = doc.get(("root_seed",), int, lo=0, hi=MAX_SEED, fallback=0)
    batch_size = doc.get(("batch_size",), int, lo=1, hi=1_000_000, default=1000, fallback=1000)
    boards = doc.get(("boards",), int, lo=1, hi=100_000, default=1, fallback=1)
    seating = doc.get(("seating",), str, choices=SEATINGS, default="duplicate", fallback="fixed")
    policies = _policies(doc, policy_names)
    teams, team_names, pool, draw = _teams_or_pool(doc, path, cards, problems)
    if -(-n_games // batch_size) > MAX_BATCHES:
        doc.add(("batch_size",), f"{n_games} games in batches of {batch_size} are "
                                 f"{-(-n_games // batch_size)} files; at most {MAX_BATCHES} "
                                 f"(one folder, each checked on --resume): raise batch_size")
    if seating == "duplicate" and n_games % TEAMS:
        blocks = (f"{n_games} games cannot be played in duplicate blocks of {TEAMS}; "
                  f"use a multiple of {TEAMS}")
        if games is not None:  # the count the user typed, not the file's line, is the mistake
            problems.add(games_flag, None, "games", f"{blocks} ({path} seats in duplicate)")
        else:
            doc.add(("games",), blocks)
    problems.raise_if_any()
    return Experiment(name, description, n_games, root_seed, batch_size, boards, policies, seating,
                      teams, team_names, pool, draw, str(path),
                      hashlib.sha256(path.read_bytes()).hexdigest(), content_digest(doc.data))


def resolved(path) -> Path:
    """``path`` with its links and ``..`` resolved, or, when the system refuses to resolve it
    (a loop of links, a name too long), made absolute as it is: the loader that reads it then
    says why in one line ("cannot be read: Too many levels of symbolic links"). Why:
    ``Path.resolve()`` raises RuntimeError on a loop (Python 3.11), so ``bwlab run LOOP`` and
    ``validate --experiment LOOP`` printed a traceback, exit 1."""
    try:
        return Path(path).resolve()
    except (RuntimeError, OSError):
        return Path(os.path.abspath(path))


def content_digest(data: dict) -> str:
    """sha256 of a document's values, keys sorted (a parsed TOML file's; a run's identity,
    :func:`sim.runner.store.identity_digest`; dates as text). Why an experiment counts by its
    values, not its bytes: a run resumed after a comment or a blank line was edited plays the
    very same games, and was refused."""
    import json

    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


def _file_name(doc: TomlDoc, name: str) -> str:
    """The experiment's name, which names its result folder (reports/runs/NAME): a file name,
    never a path, so that ``name = "../../escaped"`` cannot write outside reports/runs."""
    bad = (not name.strip() or name in (".", "..") or name.startswith(".")
           or any(c in name for c in "/\\:") or not name.isprintable() or len(name) > 100)
    if bad:
        doc.add(("name",), f"{name!r} is not a file name (printable, at most 100 characters, "
                           "no / \\ or :, not starting with .)")
        return doc.path.stem
    return name


def _policies(doc: TomlDoc, known) -> tuple[str, ...]:
    """Policy specs (``lookahead:16``) checked and spelled canonically: a stored result names
    the exact player, budget included. A ``weights=FILE`` is relative to this file, as
    ``teams`` is (:func:`_weights_here`)."""
    from .file_kinds import parse_policy

    listed = doc.get(("policies",), list, default=["greedy"], fallback=["greedy"])
    if len(listed) not in (1, TEAMS):
        doc.add(("policies",), f"expected 1 or {TEAMS} policies (one per seat), got {len(listed)}")
        return ("greedy",) * TEAMS
    labels = []
    for p in listed:
        try:
            text = _weights_here(doc, p)
            spec = parse_policy(text) if text is not None else None
        except ValueError as exc:
            doc.add(("policies",), str(exc))
            spec = None
        except InputError as exc:  # the weights file's own lines, and where it is named
            where = f"{doc.path}:{doc.line(('policies',))}"
            doc.problems.extend(Problems([replace(q, message=f"{q.message} (a weights file named "
                                                             f"in policies, {where})")
                                          for q in exc.problems]))
            spec = None
        if spec is not None and spec.name not in known:
            doc.add(("policies",), f"unknown policy {p!r}; choose from {', '.join(known)}")
        labels.append("greedy" if spec is None else spec.label)
    return tuple(labels) * (TEAMS // len(listed))


def _weights_here(doc: TomlDoc, text) -> str | None:
    """``text`` with its ``weights=FILE`` found relative to the experiment file (as ``teams``),
    named from the working folder (absolute outside it), so the stored spec finds it from any
    worker; None after one problem on the policies line when there is no such file. Why: it was
    found from the working folder, and a missing or broken file did not name the experiment."""
    raw = str(text)
    at = raw.lower().find("weights=")  # the spec's keys are case-blind (sim.ai.spec)
    if at < 0:
        return raw
    head, sep, rel = raw[:at], raw[at:at + len("weights=")], raw[at + len("weights="):]
    if not rel.strip() or Path(rel.strip()).is_absolute():
        return raw
    target = doc.referenced_file(("policies",), rel.strip(), Path(doc.path).parent,
                                 "weights file", "this file")
    if target is None:
        return None
    named = os.path.relpath(target)
    return head + sep + (named if not named.startswith("..") else str(resolved(target)))


def with_policy(exp: Experiment, policy: str | None = None, budget: int | None = None
                ) -> Experiment:
    """``exp`` with ``--policy`` in every seat and/or ``--budget`` for every budgeted policy
    (ValueError, one line, on a bad spec or a budget no seat can use)."""
    from .file_kinds import parse_policies, parse_policy

    if policy is None and budget is None:
        return exp
    if policy is not None:
        label = parse_policies([policy], budget)[0].label
        return replace(exp, policies=(label,) * TEAMS)
    current = [parse_policy(p) for p in exp.policies]
    specs = parse_policies([s.name for s in current], budget)  # checks a seat takes a budget
    return replace(exp, policies=tuple(n.label if n.budget else c.label
                                       for c, n in zip(current, specs)))


def _teams_or_pool(doc: TomlDoc, path: Path, cards, problems: Problems):
    has_teams = doc.lookup(("teams",)) is not MISSING
    has_pool = doc.lookup(("pool",)) is not MISSING
    if has_teams == has_pool:
        doc.add(("teams",), "give exactly one of `teams = FILE` and a [pool] table")
        return None, (), None, "random"
    if has_teams:
        rel = doc.get(("teams",), str, fallback=None)
        if rel is None:
            return None, (), None, "random"
        team_file = doc.referenced_file(("teams",), rel, path.parent, "team file", "this file")
        if team_file is None:
            return None, (), None, "random"
        try:
            teams = load_team_file(team_file, cards)
        except InputError as exc:
            problems.extend(Problems(list(exc.problems)))
            return None, (), None, "random"
        return teams.cards, teams.names, None, "random"
    doc.unknown_keys(("pool",), {"cards", "draw"})
    draw = doc.get(("pool", "draw"), str, choices=DRAWS, default="random", fallback="random")
    listed = doc.get(("pool", "cards"), (str, list), default="all", fallback="all")
    if listed == "all":
        pool = np.arange(len(cards), dtype=np.int64)  # in name order (sim.catalogue.cards)
    elif isinstance(listed, str):
        doc.add(("pool", "cards"), f"expected \"all\" or a list of card names, got {listed!r}")
        return None, (), None, draw
    else:
        lowered = {n.lower(): i for i, n in enumerate(cards.names)}
        idx, unknown = [], False
        for name in listed:
            if not isinstance(name, str) or name.strip().lower() not in lowered:
                doc.add(("pool", "cards"), f"unknown card {name!r}{suggest(str(name), list(cards.names))}")
                unknown = True
                continue
            idx.append(lowered[name.strip().lower()])
        pool = np.unique(np.asarray(idx, np.int64))  # distinct, in index (= name) order
        if unknown:  # the count short by a misspelt card is not a second problem (stop 80)
            return None, (), pool, draw
    if pool.size < TEAMS * CARDS_PER_TEAM:
        doc.add(("pool", "cards"), f"a pool needs at least {TEAMS * CARDS_PER_TEAM} distinct cards "
                                   f"(4 teams of 5), got {pool.size}")
    return None, (), pool, draw
