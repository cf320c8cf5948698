"""Playing an experiment's games: the arena (boards, cards, policies) and one batch of games.

A task receives only plain values (paths, the games override, a batch number), loads and
validates the inputs once per worker process, builds the experiment's boards once, and plays its
games with the engine's parallel loop. Its output depends only on the experiment and the game
numbers — never on the worker — so any ``--jobs``, any backend and a resume give the same rows.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from .experiment import Experiment, load_experiment, resolved
from .schedule import board_seed, boards_reached, schedule


@dataclass(frozen=True)
class Arena:
    """Everything the engine needs to play any game of ``exp``, built once per process."""

    exp: Experiment
    stacked: tuple
    cards: object
    policies: np.ndarray   # policy id of each experiment team
    budgets: np.ndarray    # and its budget (sim.ai.spec)
    setups: tuple = ()     # the boards built so far (board k's GameSetup), for :func:`grow_arena`
    # each team's greedy weights (greedy:weights=FILE; None: the rules'), for the engine
    weights: tuple = (None, None, None, None)


def board_setups(catalogue, exp: Experiment, start: int, stop: int) -> list:
    """Game set-ups of the experiment's boards ``start .. stop - 1`` (board k from
    ``board_seed(exp, k)``: the same board whenever and however often it is built).

    A progress stage of its own, counted in boards: at 35-140 ms a board, the 64 boards of a
    matchup took 3-9 s before its first game, with nothing on stderr (``bwlab drift`` was
    silent for 8 s, the audit of the progress gaps). Every caller gets it; outside a progress
    session the stage does nothing, and it never touches a board."""
    from sim.board.generate import generate_board
    from sim.engine.state.static_tables import build_setup, load_game_data

    from . import progress

    setups = []
    with progress.stage("building the boards", max(0, stop - start), unit="boards"):
        game_rules, apocalypses = load_game_data(catalogue.root)
        for k in range(start, stop):
            board = generate_board(catalogue.tiles, catalogue.board_rules, board_seed(exp, k))
            setups.append(build_setup(catalogue, board, game_rules, apocalypses))
            progress.advance()
    return setups


def build_arena(catalogue, exp: Experiment, n_boards: int | None = None,
                boards_of: Arena | None = None) -> Arena:
    """The arena with the experiment's boards (every one it can use, or the first ``n_boards``:
    a sequential run that may stop early grows it with :func:`grow_arena`). ``boards_of``: an
    arena of the same experiment's boards built from card files that differ from
    ``catalogue``'s in ``characters.csv`` alone, whose boards are taken as they are (a board's
    set-up reads the tiles, board rules, rules, items, [game] and apocalypses, never the
    cards: :func:`sim.engine.state.static_tables.build_setup`). The drift gate built its 128
    boards twice when a card's stat changed, 4 of its 13 s (the CI audit)."""
    from sim.ai.spec import parse_policy
    from sim.engine.state.new_game import card_arrays
    from sim.engine.state.static_tables import stack_setups

    # the boards its games play: a duplicate experiment's games reach a quarter as many boards,
    # and the rest were built and never played (a 64-game drift gate built 64 and played 16)
    n = (max(1, boards_reached(exp, exp.games)) if n_boards is None
         else max(1, min(n_boards, exp.boards)))
    if boards_of is not None and len(boards_of.setups) >= n:
        setups = tuple(boards_of.setups[:n])
    else:
        setups = tuple(board_setups(catalogue, exp, 0, n))
    specs = [parse_policy(p) for p in exp.policies]
    return Arena(exp, stack_setups(list(setups)), card_arrays(catalogue.cards),
                 np.array([s.id for s in specs], np.int64),
                 np.array([s.budget for s in specs], np.int64), setups,
                 tuple(s.weights for s in specs))


def input_digest(arena, h=None):
    """Digest of the arrays an arena hands the engine (its games also depend on the
    experiment's teams and seeds). Why: when a rulings alternative replays identical games,
    equal inputs mean the engine does not read the key at all; different inputs mean the ruling
    was read but never decided anything in these games. The drift gate reads it too
    (:func:`same_inputs`)."""
    h = h if h is not None else hashlib.blake2b(digest_size=16)

    def feed(x):
        if isinstance(x, np.ndarray):
            h.update(f"{x.dtype}{x.shape}".encode())
            h.update(np.ascontiguousarray(x).tobytes())
        elif isinstance(x, (tuple, list)):
            for item in x:
                feed(item)
        else:
            h.update(repr(x).encode())

    feed((arena.stacked, tuple(arena.cards), arena.policies, arena.budgets,
          [() if w is None else w for w in arena.weights]))
    return h


def same_inputs(a: Arena, b: Arena) -> bool:
    """Whether two arenas give the engine the same numbers for the same games: equal
    :func:`input_digest` and the same teams. Why: card files that differ only in comments,
    notes or layout build the same arena, and then every game is the same game."""
    return (np.array_equal(a.exp.teams, b.exp.teams)
            and input_digest(a).digest() == input_digest(b).digest())


def grow_arena(catalogue, arena: Arena, games: int) -> Arena:
    """The arena with at least the boards its experiment's first ``games`` games play
    (:func:`~sim.runner.schedule.boards_reached`). Why: building a board costs ~35-50 ms, so a
    sequential check on many boards builds only those its rounds reach; the boards are the same
    as when built up front."""
    from dataclasses import replace

    from sim.engine.state.static_tables import stack_setups

    n = boards_reached(arena.exp, games)
    if n <= len(arena.setups):
        return arena
    setups = arena.setups + tuple(board_setups(catalogue, arena.exp, len(arena.setups), n))
    return replace(arena, stacked=stack_setups(list(setups)), setups=setups)


def by_team(cols, what: str = "health") -> np.ndarray:
    """A per-seat result column of :func:`play_games` (or a stored batch) ``seatK_<what>`` rearranged by team ``[n, 4]``: each team's
    health left, or the decision after which it fell."""
    by_seat = np.stack([cols[f"seat{k + 1}_{what}"] for k in range(4)], axis=1)
    out = np.empty_like(by_seat)
    rows = np.arange(by_seat.shape[0])[:, None]
    out[rows, np.stack([cols[f"team_in_seat{k + 1}"] for k in range(4)], 1)] = by_seat
    return out


def _check_boards(arena: Arena, boards: np.ndarray, what: str) -> None:
    """Refuse games on a board the arena lacks: the kernels do not check bounds, so it would be
    read out of bounds."""
    if boards.size and int(boards.max()) >= len(arena.setups):
        raise ValueError(f"{what} play board {int(boards.max())}, but the arena holds "
                         f"{len(arena.setups)} (grow_arena first)")


def play_games(arena: Arena, start: int, stop: int) -> dict:
    """Play games ``start .. stop - 1`` of the arena's experiment; one column per result."""
    from sim.engine.state.fields import REASON_NAMES
    from sim.ai.play import CARD_COLUMNS, RESULT_COLUMNS

    from .playing import play_many  # the engine's, counting games into the progress line

    exp = arena.exp
    sch = schedule(exp, start, stop)
    _check_boards(arena, sch.board, f"games {start}..{stop - 1}")
    # policies[k] belongs to experiment team k: seat s (team (s - offset) % 4) plays policies[k]
    out, per_card = play_many(arena.stacked, arena.cards, sch.board, sch.team_cards,
                              exp.root_seed, arena.policies, seats=sch.offset, first_game=start,
                              per_card=True, budgets=arena.budgets, weights=arena.weights)
    res = dict(zip(RESULT_COLUMNS, out.T))
    winner_seat = res["winner"]
    rows = np.arange(len(sch.games))
    winner_team = np.where(winner_seat >= 0, sch.team_of_seat[rows, np.maximum(winner_seat, 0)], -1)
    # a game's dice come from child `game` of SeedSequence(root_seed): these two name its seed
    columns = {"game": sch.games, "root_seed": np.full(len(sch.games), exp.root_seed, np.int64),
               "board": sch.board, "draw": sch.draw, "seat_offset": sch.offset,
               "winner_seat": winner_seat, "winner_team": winner_team,
               "outcome": np.array([REASON_NAMES[int(r)] for r in res["reason"]]),
               "rotations": res["rotation"], "deaths": res["deaths"],
               "apocalypse": res["apocalypse"], "decisions": res["decisions"],
               "apocalypse_resolved": res["apocalypse_resolved"] > 0,
               "lead_changes": res["lead_changes"]}
    for s in range(4):
        columns[f"team_in_seat{s + 1}"] = sch.team_of_seat[:, s]
        columns[f"policy_seat{s + 1}"] = np.array([exp.policies[k] for k in sch.team_of_seat[:, s]])
        columns[f"seat{s + 1}_health"] = res[f"health_seat{s + 1}"]
        # the decision after which the seat's team fell (-1: never): the order of elimination
        columns[f"seat{s + 1}_eliminated"] = res[f"eliminated_seat{s + 1}"]
        for k in range(5):
            columns[f"seat{s + 1}_card{k + 1}"] = sch.team_cards[:, s, k]
            for j, name in enumerate(CARD_COLUMNS):
                columns[f"seat{s + 1}_card{k + 1}_{name}"] = per_card[:, s, k, j]
    return columns


def batch_schema():
    """The Arrow schema of :func:`play_games`' columns, in order: what the client accepts from a
    worker (sim.runner.results), so a result of another shape is refused, never stored."""
    import pyarrow as pa

    from sim.ai.play import CARD_COLUMNS

    i64 = pa.int64()
    fields = [(name, i64) for name in ("game", "root_seed", "board", "draw", "seat_offset",
                                       "winner_seat", "winner_team")]
    fields += [("outcome", pa.string())] + [(name, i64) for name in (
        "rotations", "deaths", "apocalypse", "decisions")]
    fields += [("apocalypse_resolved", pa.bool_()), ("lead_changes", i64)]
    for s in range(1, 5):
        fields += [(f"team_in_seat{s}", i64), (f"policy_seat{s}", pa.string()),
                   (f"seat{s}_health", i64), (f"seat{s}_eliminated", i64)]
        for k in range(1, 6):
            fields.append((f"seat{s}_card{k}", i64))
            fields += [(f"seat{s}_card{k}_{name}", i64) for name in CARD_COLUMNS]
    return pa.schema(fields)


def replay_winners(arena: Arena, games: np.ndarray, team_cards: np.ndarray) -> np.ndarray:
    """Winning seat of chosen games replayed with other cards: same boards, seats and dice seeds
    (child ``game`` of the root seed), so any difference is the cards' doing."""
    from sim.ai.play import R_WINNER

    from .playing import play_many

    exp = arena.exp
    games = np.asarray(games, np.int64)
    if games.size == 0:
        return np.empty(0, np.int64)
    sch = schedule(exp, int(games.min()), int(games.max()) + 1)
    rows = games - int(games.min())
    _check_boards(arena, sch.board[rows], f"the {games.size} games replayed")
    out = play_many(arena.stacked, arena.cards, sch.board[rows], team_cards, exp.root_seed,
                    arena.policies, seats=sch.offset[rows], game_indices=games,
                    budgets=arena.budgets, weights=arena.weights)
    return out[:, R_WINNER]


def fingerprint(exp_path: str, cards_root: str) -> str:
    """Hash of the experiment file and every card file: the per-process cache key, so an edited
    file is never served from a stale cache."""
    from .store import cards_digest

    h = hashlib.sha256(Path(exp_path).read_bytes())
    for name, digest in cards_digest(Path(cards_root)).items():
        h.update(f"{name}:{digest}".encode())
    return h.hexdigest()


@lru_cache(maxsize=4)
def _arena(exp_path: str, games: int | None, cards_root: str, key: str,
           policies: tuple[str, ...] | None = None) -> Arena:
    from dataclasses import replace

    from sim.catalogue.loader import load_catalogue
    from sim.engine.state.fields import POLICY_IDS

    catalogue = load_catalogue(Path(cards_root))
    exp = load_experiment(Path(exp_path), catalogue.cards, tuple(POLICY_IDS), games=games)
    if policies is not None:  # --policy / --budget (sim.runner.experiment.with_policy)
        exp = replace(exp, policies=tuple(policies))
    return build_arena(catalogue, exp)


def load_context(exp_path: Path, games: int | None, cards_root: Path) -> Experiment:
    """Validate the experiment in this process (the CLI calls it before any task), with every
    file a worker will load, so that nothing fails after the first result is written. The boards
    are built by the workers only: the parent never plays, and building them here too cost
    every run seconds before its first batch (3 s for 64 boards)."""
    from sim.catalogue.loader import load_catalogue
    from sim.engine.state.fields import POLICY_IDS
    from sim.engine.state.static_tables import load_game_data

    catalogue = load_catalogue(Path(cards_root))
    exp = load_experiment(resolved(exp_path), catalogue.cards, tuple(POLICY_IDS),
                          games=games)
    load_game_data(catalogue.root)  # what the workers load too: a bad file fails here, not late
    return exp


@lru_cache(maxsize=4)
def _run_digest(exp_path: str, games: int | None, cards_root: str, key: str,
                policies: tuple[str, ...] | None = None) -> str:
    """The run digest (sim.runner.store) of the inputs as this worker loaded them: the client
    stores the batch only when it equals its own, so a worker with other cards, another
    experiment file or another bwlab cannot add its rows to the run."""
    from .store import identity_digest, run_identity

    arena = _arena(exp_path, games, cards_root, key, policies)
    return identity_digest(run_identity(arena.exp, Path(cards_root)))


def run_batch(exp_path: str, games: int | None, cards_root: str, key: str, b: int,
              policies: tuple[str, ...] | None = None, run_pid: int | None = None
              ) -> tuple[int, dict, float, str, str]:
    """Play batch ``b``: (b, result columns, seconds, run digest, worker host). ``key`` =
    :func:`fingerprint` of the inputs; ``run_pid`` the local run that started this worker, which
    it must not outlive. The client checks all of it before storing (sim.runner.results)."""
    import socket

    import numba

    from .lifeline import watch_parent

    watch_parent(run_pid)
    t0 = time.perf_counter()
    arena = _arena(exp_path, games, cards_root, key, policies)
    # One core per job: parallelism across batches is the runner's (--jobs); Numba threads inside
    # each job as well would oversubscribe the cores. Results do not depend on it.
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        columns = play_games(arena, *arena.exp.batch_range(b))
    finally:
        numba.set_num_threads(before)
    digest = _run_digest(exp_path, games, cards_root, key, policies)
    return b, columns, time.perf_counter() - t0, digest, socket.gethostname()
