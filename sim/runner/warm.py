"""Compile the game engine's kernels into Numba's on-disk cache, two call trees at a time.

Why: a cold start compiles the whole engine (every kernel of the turn, the actions, the
policies and the game loop) before the first game is played, and one process does it on one
core. The engine's call graph has two large subtrees that share little: the turn's upkeep
(``_advance``, ``_legal`` and greedy's choice) and applying an action (``_apply``: attacks,
abilities, items, tile functions, water). Compiled in two processes they take the time of the
larger one; the loops on top (the look-ahead's search and the game loop ``_play_range``) then
link the cached libraries, and beside them the combat core's and the peer games' kernels,
which no game calls but the CLI and their tests do (compiled here in a slot where one core
would idle, instead of in a test worker). Every kernel is compiled with ``cache=True``
(``sim/_jit.py``), so a later process, such as a test worker or a CLI run, loads instead of
compiling.

``python -m sim.runner.warm [--jobs N]``; ``make test`` runs it before the test workers start.
Only compiling is done here: no result depends on it, and the cache is checked against the
sources by Numba itself.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from contextlib import contextmanager, nullcontext
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed

from sim.runner.lifeline import DeafLoky

ROOT = Path(__file__).resolve().parents[2]
# stage by stage, each stage's groups in parallel: a later stage links what an earlier one cached
# ("loop" first: it is the longest; "combat" takes the slot "search" leaves)
STAGES = (("turn", "apply"), ("loop", "search", "combat"))


def _game(cards_root: Path):
    """A small game's state and setup from the shipped catalogue (only their types matter). Not
    ``engine.record.new_game``: a ``Game`` advances to its first decision, which would compile
    ``_advance`` in every group."""
    from sim.board.generate import generate_board
    from sim.catalogue.loader import load_catalogue
    from sim.catalogue.teams import random_teams
    from sim.engine.state.new_game import card_arrays, init_game
    from sim.engine.state.static_tables import build_setup, load_game_data
    from sim.rng import seed_states

    catalogue = load_catalogue(cards_root)
    game_rules, apocalypses = load_game_data(cards_root)
    board = generate_board(catalogue.tiles, catalogue.board_rules, 1)
    setup = build_setup(catalogue, board, game_rules, apocalypses)
    cards = card_arrays(catalogue.cards)
    teams = random_teams(len(catalogue.cards), np.random.default_rng(0))
    st = init_game(setup, cards, teams, seed_states(0, 1)[0])
    return st, setup, cards, teams


def _combat(cards_root: Path) -> None:
    """The combat core's and the peer games' samplers and the board's sight kernels, which the
    game does not call (the CLI's ``combat`` and ``compare-systems`` and their tests do): tiny
    calls, the general and the plain paths of each."""
    from sim.board.generate import generate_board
    from sim.board.graph import compile_board
    from sim.board.sight import attack_costs, attack_costs_many
    from sim.catalogue.loader import load_catalogue
    from sim.catalogue.peers import load_peers
    from sim.combat.peers.registry import SYSTEMS, rules_for
    from sim.combat.lanes import lane_rolls, lane_throws, swar_hits
    from sim.combat.sampler import sample_damage
    from sim.rng import rolls

    catalogue = load_catalogue(cards_root)
    peers = load_peers(cards_root)
    for system, spec in SYSTEMS.items():
        spec.sample(peers.compare[system][0], rules_for(system, peers, catalogue.rules), 8, 0)
    sample_damage(3, 2, 2, catalogue.rules, seed=0, n=8, attacker_advantage=1)
    lane_rolls(12, 8, 0)
    lane_throws(3, 12, 5, 8, 0)
    swar_hits(3, 5, 12, 8, 0)
    rolls(6, 4, 0)
    board = generate_board(catalogue.tiles, catalogue.board_rules, 1)
    graph = compile_board(board, catalogue.tiles, catalogue.board_rules)
    start = int(np.flatnonzero(graph.kind != 0)[0])  # a space of a tile (0: none), any board
    attack_costs(graph, start, 3)
    attack_costs_many(graph, np.full(1, start, np.int64), 3)


def compile_group(group: str, cards_root: str) -> tuple[str, float]:
    """Compile one group of entry points (without running them); its name and seconds."""
    from numba import typeof, types

    from sim.engine.rules.actions import n_actions

    t0 = time.perf_counter()
    st, setup, cards, teams = _game(Path(cards_root))
    S = setup.static
    sig = (typeof(st), typeof(S))
    mask = typeof(np.zeros(n_actions(st.kind.shape[0], st.ent.shape[0]), np.bool_))
    if group == "turn":
        from sim.ai.greedy import _greedy_action
        from sim.engine.rules.legal import _legal
        from sim.engine.rules.turn import _advance

        _advance.compile(sig)
        _legal.compile(sig + (mask,))
        _greedy_action.compile(sig + (mask,))
    elif group == "apply":
        from sim.engine.rules.turn import _apply

        _apply.compile(sig + (types.int64,))
    elif group == "search":
        from sim.ai.lookahead import _search

        _search.compile(sig + (mask, types.int64, types.int64, typeof(np.zeros(2, np.int64))))
    elif group == "loop":
        from sim.engine.state import fields as L
        from sim.ai.play import play_many
        from sim.engine.state.static_tables import stack_setups

        play_many(stack_setups([setup]), cards, np.zeros(1, np.int64), teams[None], 0,
                  [L.GREEDY] * 4)
    elif group == "combat":
        _combat(Path(cards_root))
    else:
        raise ValueError(f"unknown group {group!r}")
    return group, time.perf_counter() - t0


def warm_mark() -> Path:
    """The file written into the source-keyed cache once every group is compiled. One for
    every checkout of this source when the cache files kernels by their path inside the
    repository (``sim._jit.SHARED_BY_CLONES``: a second clone sharing ``$BWLAB_JIT_CACHE``
    loads them, and is warm); else named for this checkout, since Numba then files a kernel
    under a hash of its source file's absolute path and another checkout compiles its own."""
    import hashlib

    from sim._jit import JIT_CACHE_DIR, SHARED_BY_CLONES

    if SHARED_BY_CLONES:
        return Path(JIT_CACHE_DIR) / "warm.done"
    here = str(ROOT).encode()
    return Path(JIT_CACHE_DIR) / f"warm-{hashlib.sha1(here).hexdigest()[:12]}.done"


def is_warm() -> bool:
    """Whether this checkout's kernels were all compiled into the cache (``sim/_jit.py``)."""
    return warm_mark().exists()


@contextmanager
def compile_lock(waiting=nullcontext):
    """Hold this source's compile lock (an exclusive ``flock`` on ``compile.lock`` in its cache
    folder) for the block. Why: two commands started at once on a cold cache (a CI running two
    jobs, a user with two terminals) each compiled the whole engine, every compile slowed by the
    other's on the shared cores. Now the second waits inside ``waiting()`` (a context manager:
    the CLI's progress line) and then finds the cache warm. The lock dies with its process, so a
    compile that was killed leaves nothing to clear; without ``fcntl`` (Windows) or a writable
    cache folder there is no lock."""
    try:
        import fcntl

        from sim._jit import JIT_CACHE_DIR

        Path(JIT_CACHE_DIR).mkdir(parents=True, exist_ok=True)
        handle = open(Path(JIT_CACHE_DIR) / "compile.lock", "a+b")
    except (ImportError, OSError):
        yield
        return

    def taken() -> bool:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            return False

    with handle:
        if not taken():
            with waiting():
                while not taken():
                    time.sleep(0.5)  # a Ctrl-C raises here
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def warm(jobs: int = 2, cards_root: Path = ROOT / "cards", verbose: bool = True,
         stream=None, on_part=None) -> float:
    """Compile every stage's groups with ``jobs`` processes; the seconds it took. Progress
    (part done/total, the seconds so far) goes to ``stream`` (default stdout); ``on_part(group,
    seconds)`` is called as each part ends (the CLI's progress line counts them)."""
    out = stream if stream is not None else sys.stdout
    total = sum(len(stage) for stage in STAGES)
    done = 0
    t0 = time.perf_counter()
    with warnings.catch_warnings(), Parallel(n_jobs=jobs, backend=DeafLoky()) as parallel:
        # loky replaces a worker whose memory grew by more than 300 MB since it started (its
        # guard against leaks) and warns of "a memory leak" when work is waiting; compiling a
        # group grows a worker by far more than that, so the replacement between stages is
        # expected, and the warning only alarmed the first CLI run and every `make test`
        warnings.filterwarnings("ignore", message="A worker stopped while some jobs",
                                category=UserWarning)
        for stage in STAGES:
            for group, seconds in parallel(delayed(compile_group)(g, str(cards_root))
                                           for g in stage):
                done += 1
                if on_part is not None:
                    on_part(group, seconds)
                if verbose:
                    print(f"compiled {group:<7s} {seconds:6.1f} s ({done}/{total} parts, "
                          f"{time.perf_counter() - t0:.0f} s so far)", file=out, flush=True)
    try:
        warm_mark().write_text(f"{time.time():.0f}\n", encoding="utf-8")
    except OSError:
        pass  # an unwritable cache compiles in memory: nothing to mark
    return time.perf_counter() - t0


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    args = parser.parse_args(argv)
    with compile_lock(lambda: _said("waiting for another process compiling this source")):
        if is_warm():
            print("engine kernels already compiled and cached")
            return
        print(f"engine kernels compiled and cached in {warm(args.jobs):.0f} s")


@contextmanager
def _said(text: str):
    print(text, flush=True)
    yield


if __name__ == "__main__":
    main()
