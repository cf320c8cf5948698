"""The line between a game-playing command's checks and its work: :func:`ready_to_play`.

Why one call: bad input (flags, data files, output paths) must be refused before anything is
spent on it, and two costs come before the first game: the engine's compile (3-8 minutes on a
cold cache) and the games themselves. Once a command was wrapped in a compile that ran before its
body, so ``play --policy junk`` on a cold cache waited minutes for its error; and outputs were
compared with the inputs only when written, so ``power-levels --out cards/characters.csv``
played 4,000 games first. Now every command that plays games loads and checks all of its
inputs, then calls :func:`ready_to_play` with the files it will write, and only then plays:
an output naming an input is one line naming the flag, and the engine is compiled (if need be)
only for input that passed. ``tests/test_cli_before_work.py`` checks that every such
command calls it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click


def ready_to_play(outputs=(), cards: Path | None = None) -> None:
    """Call once every input is loaded and checked, before the first game. ``cards``: the card
    folder, whose files the engine reads beside the catalogue (``[game]`` of rules.toml,
    apocalypses.toml) are checked now too. Then refuses an output that lies in the card folder
    or is one of the inputs read so far (option -> path, or (option, path) pairs: see
    :func:`sim.cli._paths.outputs_clear`), and compiles the engine if this source's cache is
    cold (progress on stderr unless ``--quiet``)."""
    from sim.runner import progress

    from ._paths import outputs_clear, outside_the_card_folder

    if cards is not None:
        from sim.catalogue.apocalypses import load_apocalypses
        from sim.catalogue.game_rules import load_game_rules

        load_game_rules(Path(cards))  # what the engine reads beside the catalogue
        load_apocalypses(Path(cards))
    outputs_clear(outputs)  # (first: "is also an input" says more than "inside the cards")
    if cards is not None:
        outside_the_card_folder(outputs, cards)
    session = progress.current()
    compile_if_cold(quiet=bool(session is not None and session.quiet))


def inputs_inside(folder: Path, names) -> list[Path]:
    """The files in ``folder`` matching the glob patterns ``names`` that exist now: the outputs
    of a command that writes many files there (``run``'s batches) that could be an input (a
    file yet to be written cannot be)."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    return sorted({p for pattern in names for p in folder.glob(pattern) if p.is_file()})


def compile_if_cold(quiet: bool = False) -> None:
    """Compile the engine with progress on stderr when this source's cache is cold. ``quiet``:
    no word on stderr, only the wait. One process compiles a source at a time
    (:func:`sim.runner.warm.compile_lock`): a second started meanwhile waits, then loads."""
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return
    from sim.runner.warm import compile_lock, is_warm

    if is_warm():
        return
    from concurrent.futures import BrokenExecutor

    with compile_lock(waiting=lambda: _waiting(quiet)):
        if not is_warm():  # else another process compiled it while this one waited
            try:
                _compile(quiet)
            except BrokenExecutor as exc:  # a worker killed from outside, or out of memory
                raise CompileStopped(_why_stopped(exc)) from None


class CompileStopped(click.ClickException):
    """A compile worker died (the OOM killer, a kill from outside): one line, exit 1, not the
    executor's traceback (audit 82). Nothing was played; what was compiled stays cached."""

    def show(self, file=None) -> None:
        click.echo(f"error: {self.message}", err=True)


def _why_stopped(exc: Exception) -> str:
    from .terminate import worker_died

    return (f"the engine's compile stopped: {worker_died(exc)}; nothing was played. Run the "
            f"command again: the parts already compiled are kept")


def _waiting(quiet: bool):
    """The progress stage while another process holds this source's compile lock."""
    from sim.runner import progress

    from ._say import note

    if not quiet:
        note("bwlab: another bwlab process is compiling the game engine for this source; "
             "waiting for it (then this run starts at once)")
    return progress.stage("waiting for the engine's compile in another process", timed=False)


def _compile(quiet: bool) -> None:
    """The compile itself, its parts counted on the progress line."""
    from sim._jit import JIT_CACHE_DIR
    from sim.runner import progress
    from sim.runner.warm import STAGES, warm

    from ._paths import folder_problem
    from ._say import note

    unwritable = folder_problem(Path(JIT_CACHE_DIR))
    notices = []
    if unwritable:  # said even with --quiet: every later run would wait as long again
        notices.append(f"bwlab: warning: the compiled-kernel cache {JIT_CACHE_DIR} {unwritable}: "
                       f"the engine is compiled afresh on every run; point $BWLAB_JIT_CACHE at a "
                       f"writable folder")
    if not quiet:
        notices.append("bwlab: compiling the game engine for this machine and source version "
                       "(once; 3-8 minutes on 2 cores)" if not unwritable else
                       "bwlab: compiling the game engine (3-8 minutes on 2 cores)")
    note(*notices)  # below a loading line drawn in place (a terminal)
    parts = sum(len(s) for s in STAGES)
    # once for this source in this cache folder (sim/_jit.py): a clone elsewhere shares it only
    # when $BWLAB_JIT_CACHE points both at one folder
    with progress.stage("compiling the engine (once for this source)", parts, unit="parts",
                        timed=False):
        seconds = warm(stream=sys.stderr, verbose=False,  # the parts: the shared line's count
                       on_part=lambda group, seconds: progress.advance(1))
    if not quiet:
        click.echo(f"bwlab: engine compiled in {seconds:.0f} s"
                   + ("; later runs start at once" if not unwritable else ""), err=True)
