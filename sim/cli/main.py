"""``bwlab``: the entry point. Sub-commands live in their own modules and load on first use."""

from __future__ import annotations

import importlib
import sys
import time

import click

from sim import __version__

# name -> (module, attribute, one-line help). Listed here so --help needs no imports.
COMMANDS = {
    "validate": ("sim.cli.validate", "validate", "Check cards and rules; one line per problem."),
    "combat": ("sim.cli.combat", "combat", "Damage distribution of an attack, exact or sampled."),
    "compare-systems": ("sim.cli.compare", "compare_systems", "Board Wars' combat beside peer games."),
    "demo": ("sim.cli.demo", "demo", "Combat report of the shipped cards (the main job)."),
    "board": ("sim.cli.board", "board", "Lay out a legal board from a seed; print or draw it."),
    "play": ("sim.cli.play", "play", "Play one full AI-vs-AI game and print its result."),
    "replay": ("sim.cli.replay", "replay", "Narrate a game log written by `bwlab play --log`."),
    "run": ("sim.cli.run", "run", "Play an experiment at scale; Parquet results, resumable."),
    "report": ("sim.cli.report", "report", "Write the self-contained HTML report into reports/."),
    "fairness": ("sim.cli.fairness", "fairness", "GM check: each team's chance to win, a verdict."),
    "drift": ("sim.cli.drift", "drift", "CI gate: did any win rate move from the baseline?"),
    "draft": ("sim.cli.draft", "draft", "GM draft: the four fairest teams from 20 cards."),
    "rarity": ("sim.cli.rarity", "rarity", "Designer study: card ratings in play, rarity order."),
    "power-levels": ("sim.cli.power_levels", "power_levels", "Arena's Power Level per card."),
    "ladder": ("sim.cli.ladder", "ladder", "AI ladder: round robin of the policies, Elo ratings."),
    "rulings": ("sim.cli.rulings", "rulings", "Which house rulings matter: paired replays, ranked."),
    "cluster-certs": ("sim.cli.cluster_certs", "cluster_certs",
                      "A private CA and certificates for a TLS Dask cluster."),
}


class LazyGroup(click.Group):
    """A click group whose sub-commands are imported only when invoked (fast --help)."""

    def list_commands(self, ctx):
        return sorted(COMMANDS)

    def get_command(self, ctx, name):
        if name not in COMMANDS:
            return None
        # the command begins with its module's import (rulings': 1.4 s of scipy): the progress
        # line's first seconds count from here (_with_progress)
        ctx.meta.setdefault(STARTED, time.monotonic())
        module, attr, _ = COMMANDS[name]
        cmd = _outputs_with_inputs(_once_each(getattr(importlib.import_module(module), attr)))
        return _with_progress(cmd, name) if name in PROGRESS_COMMANDS else cmd

    def format_commands(self, ctx, formatter):
        rows = [(name, COMMANDS[name][2]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="bwlab")
def cli():
    """Board Wars Lab: Monte Carlo simulation and balancing for Board Wars."""


# commands that play games: each checks its input, then calls sim.cli._engine.ready_to_play,
# which refuses an output naming an input and, on a machine (or a source version) whose kernels
# are not compiled yet, says so and compiles them with progress on stderr (issue #23: "the first
# bwlab play on a new machine compiles for minutes without a word"); bad input never waits
ENGINE_COMMANDS = {"play", "run", "fairness", "rarity", "draft", "power-levels", "ladder",
                   "drift", "rulings", "report"}
# commands that resume from files of their own (run's batches); every other engine command
# continues an interrupted run from the games journal (sim.runner.journal)
OWN_RESUME = {"run"}
# commands that can run longer than ~2 s: one progress line on stderr (sim.runner.progress),
# silenced by --quiet, which each of them takes (issue #23 item 1)
PROGRESS_COMMANDS = ENGINE_COMMANDS | {"board", "combat", "compare-systems", "demo", "replay"}
QUIET_HELP = "No progress line on stderr (results and errors are unchanged)."
# what a command does before its first stage: imports (report's matplotlib, scipy and pandas),
# its inputs, the engine's compiled kernels (sim.runner.progress.Progress.load)
LOADING = "loading the libraries and the inputs"
STARTED = "bwlab.started"  # ctx.meta: when the command's module began to load


def _once_each(cmd):
    """``cmd`` refusing an option given twice that takes one value (click keeps the last one
    silently: ``combat --sweep defense=0..9 --sweep tier=1..4`` swept only the tier). Flags and
    options that collect several values may repeat."""
    if getattr(cmd, "_once_wired", False):
        return cmd
    body = cmd.parse_args

    def parse_args(ctx, args, _body=body):
        try:
            _, _, order = cmd.make_parser(ctx).parse_args(args=list(args))
        except click.UsageError as exc:  # click's parser names no command: "error: bwlab:
            exc.ctx = exc.ctx or ctx     # Option '--seed' requires an argument" named none
            raise
        seen = set()
        for param in order:
            single = (isinstance(param, click.Option) and not param.multiple
                      and not param.is_flag and not param.count)
            if single and param.name in seen:
                raise click.UsageError(f"{param.opts[0]} is given more than once; give it once",
                                       ctx=ctx)
            seen.add(param.name)
        return _body(ctx, args)

    cmd.parse_args = parse_args
    cmd._once_wired = True
    return cmd


def _outputs_with_inputs(cmd):
    """``cmd`` reporting a bad output path (``_paths.defer``) with every other problem found
    before it runs: a bad input file named on the command line, and the card folder's problems.
    It never runs with one (nothing is written or played)."""
    if getattr(cmd, "_outputs_wired", False):
        return cmd
    parse, body = cmd.parse_args, cmd.invoke

    def parse_args(ctx, args, _parse=parse):
        from sim.catalogue.diagnostics import InputError

        from ._paths import deferred

        try:
            return _parse(ctx, args)
        except InputError as exc:  # a later flag's problem: the outputs' come with it
            raise InputError(deferred(ctx) + list(exc.problems)) from None

    def invoke(ctx, _body=body):
        from ._paths import deferred

        found = deferred(ctx)
        if found:
            from sim.catalogue.diagnostics import InputError

            raise InputError(found + _card_problems(ctx))
        try:
            return _body(ctx)
        except BrokenPipeError:  # stdout's reader went: the command's work is done (terminate)
            from .terminate import stdout_closed

            raise click.exceptions.Exit(stdout_closed()) from None

    cmd.parse_args, cmd.invoke = parse_args, invoke
    cmd._outputs_wired = True
    return cmd


def _card_problems(ctx) -> list:
    """The problems of the card folder ``ctx``'s command would read (its ``--cards``, else the
    default), as ``validate`` reports them; none for a command that reads no cards."""
    from sim.catalogue.diagnostics import InputError
    from sim.catalogue.loader import default_cards_dir

    from ._paths import CardFolder
    from .validate import card_folder_problems

    params = [p for p in ctx.command.params if isinstance(p.type, CardFolder)]
    if not params:
        return []
    try:
        root = ctx.params.get(params[0].name) or default_cards_dir()
    except InputError as exc:  # no card folder at all: that is its problem
        return list(exc.problems)
    return card_folder_problems(root)


def _with_progress(cmd, name: str):
    """``cmd`` taking ``--quiet`` (unless it has its own) and running inside a progress session
    (:func:`sim.runner.progress.reporting`); a game-playing command also inside its games
    journal's session. The engine is compiled by the command itself, once its input is checked
    (:func:`sim.cli._engine.ready_to_play`). ``run``'s ``--no-progress`` is the same as
    --quiet. Until its first stage the line says it is loading (:data:`LOADING`), and its
    first seconds count from the import of its module, not from the session's start."""
    if getattr(cmd, "_progress_wired", False):
        return cmd
    added = not any(p.name == "quiet" for p in cmd.params)
    if added:
        cmd.params.append(click.Option(["--quiet", "-q"], is_flag=True, help=QUIET_HELP))
    body = cmd.invoke

    def invoke(ctx, _body=body):
        from sim.runner.progress import reporting

        from .terminate import CTRL_C_EXIT, Interrupted, exit_status

        quiet = bool(ctx.params.pop("quiet", False) if added else ctx.params.get("quiet"))
        quiet = quiet or bool(ctx.params.get("no_progress"))
        try:
            with reporting(name, quiet=quiet, loading=LOADING,
                           started=ctx.meta.get(STARTED)) as p:
                if name in OWN_RESUME:
                    return _body(ctx)
                if name not in ENGINE_COMMANDS:
                    return _terminable(_body, ctx, p.say)
                return _journaled(_body, ctx, p.say)
        except KeyboardInterrupt as stop:  # Ctrl-C: past click's empty line, to one line
            if exit_status(stop) != CTRL_C_EXIT:
                raise
            raise Interrupted(name) from None

    cmd.invoke = invoke
    cmd._progress_wired = True
    return cmd


def _journaled(body, ctx, say):
    """Run ``body`` inside the command's games journal (:func:`sim.runner.journal.session`),
    SIGTERM ending it as Ctrl-C does (:mod:`sim.cli.terminate`): the finished games flushed and
    kept, a line saying how many, exit 143.

    Why: SIGTERM is how CI cancels a job and how ``kill`` stops one; Python's default ends the
    process at once, so no ``finally`` ran, the games since the last flush were lost and the
    command said nothing, though the journal exists for exactly that case."""
    from sim.runner.journal import journal_root, session

    from .terminate import SIGTERM_EXIT, Terminated, terminated_as_interrupt

    book = None
    try:
        with terminated_as_interrupt(ctx.info_name or "bwlab"), \
                session(say=say, ends=(click.exceptions.Exit,)) as book:
            return body(ctx)
    except Terminated:
        if book is not None and book.ended:  # the command had finished: only its clean-up
            book.discard()  # ... which is finished here (its games were used, not kept)
            say("terminated (SIGTERM) as it ended, after its output was complete")
        elif journal_root() is None:
            say("terminated (SIGTERM); the games journal is off: no finished game was kept")
        else:  # the session has said how many games it kept, if any
            say("terminated (SIGTERM)" + ("" if book is not None and book.kept() else
                                          " before any game finished: nothing to keep"))
        raise click.exceptions.Exit(SIGTERM_EXIT) from None


def _terminable(body, ctx, say):
    """Run ``body``, a command with no games to keep (``combat``, ``board``, ``replay`` ...),
    SIGTERM ending it as Ctrl-C does: its stage's closing line, then a line of its own and
    exit 143. Why: Python's default ended ``combat --samples`` at once, the shell's 143 after
    a progress line and nothing else (stop 78's audit), where the README promises a SIGTERM is
    never a silent kill."""
    from .terminate import SIGTERM_EXIT, Terminated, terminated_as_interrupt

    try:
        with terminated_as_interrupt(ctx.info_name or "bwlab"):
            return body(ctx)
    except Terminated:
        say("terminated (SIGTERM)")
        raise click.exceptions.Exit(SIGTERM_EXIT) from None


def _stop_inside(exc: BaseException) -> KeyboardInterrupt | None:
    """The Ctrl-C or SIGTERM a Numba call wrapped, if ``exc`` carries one: a stop that lands
    in Numba's own Python callback (``_numba_unpickle``, as a kernel is dispatched) comes out
    as ``SystemError: ... returned a result with an exception set``, the stop its cause or
    context (stop 78's audit: 4 of 6 Ctrl-C's of ``combat --samples``, a traceback, exit 1)."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


def main(argv=None) -> int:
    """Run the CLI; bad input (InputError) becomes one line per problem on stderr and exit 2, and
    so does a file that cannot be written (OSError: full disk, vanished folder). A SIGTERM after
    a command's SIGTERM block ended (its output printed, the process not yet gone) ends it with
    a line and 143 (:func:`sim.cli.terminate.end_watched`); with ``argv`` None (``bwlab``,
    ``python -m sim.cli.main``) the watch lasts until the process exits."""
    from .terminate import end_watched

    with end_watched(process=argv is None) as end:
        return end.settle(_flushed(_main(argv)))


def _flushed(code: int) -> int:
    """``code``, once stdout is flushed; 141 when its reader has gone (a last line still held in
    the buffer: Python's own flush at exit printed "Exception ignored ... BrokenPipeError")."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        from .terminate import stdout_closed

        return stdout_closed()
    except (OSError, ValueError):  # a closed or failing stdout: the command's code stands
        pass
    return code


def _main(argv) -> int:
    from sim.atomic import inputs_guarded
    from sim.catalogue.diagnostics import InputError
    from sim.report.clock import generated_at
    from sim.stops import dropped_stops_kept

    from .terminate import CTRL_C_EXIT, Interrupted, exit_status

    try:
        # Without standalone mode click returns a command's exit code (click.exceptions.Exit);
        # no result may replace a file the command read (sim.atomic.inputs_guarded); a Ctrl-C
        # that Python dropped is raised again at the next safe point (sim.stops)
        with inputs_guarded(), dropped_stops_kept():
            generated_at()  # a $SOURCE_DATE_EPOCH that is not a time: one line (report/clock.py)
            rv = cli.main(args=argv, prog_name="bwlab", standalone_mode=False)
    except InputError as exc:
        for problem in exc.problems:
            click.echo(f"error: {problem}", err=True)
        return 2
    except Interrupted as stop:  # Ctrl-C in a command (its progress session has closed)
        click.echo(f"{stop.command}: aborted (Ctrl-C)", err=True)
        return CTRL_C_EXIT
    except click.exceptions.Abort:  # Ctrl-C elsewhere: click turns KeyboardInterrupt into Abort
        click.echo("aborted", err=True)
        return CTRL_C_EXIT
    except KeyboardInterrupt as stop:  # dropped by Python (sim.stops) after the last write
        what = "terminated (SIGTERM)" if exit_status(stop) != CTRL_C_EXIT else "aborted (Ctrl-C)"
        click.echo(f"{what} as it ended, after its output was complete", err=True)
        return exit_status(stop)
    except SystemError as exc:  # a stop wrapped by Numba's dispatch (_stop_inside)
        stop = _stop_inside(exc)
        if stop is None:
            raise
        click.echo("aborted" if exit_status(stop) == CTRL_C_EXIT else "terminated (SIGTERM)",
                   err=True)
        return exit_status(stop)
    except click.UsageError as exc:  # a bad flag: one line naming the command (issue #22)
        from ._paths import deferred

        for problem in deferred(exc.ctx):  # a bad output path found before it
            click.echo(f"error: {problem}", err=True)
        where = exc.ctx.command_path if exc.ctx is not None else "bwlab"
        click.echo(f"error: {where}: {exc.format_message()} (see {where} --help)", err=True)
        return 2
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except _broken_executor() as exc:  # a worker killed under a command (evaluated only then)
        from .terminate import worker_died

        click.echo(f"error: {(argv or sys.argv[1:] or ['bwlab'])[0]}: {worker_died(exc)}",
                   err=True)
        return 1
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except OSError as exc:  # a disk that fills up, a folder removed mid-run: one line, not a trace
        where = exc.filename if exc.filename is not None else "bwlab"
        click.echo(f"error: {where}: {exc.strerror or exc}", err=True)
        return 2
    return rv if isinstance(rv, int) else 0


if __name__ == "__main__":
    sys.exit(main())


def _broken_executor() -> type:
    """``concurrent.futures.BrokenExecutor``, imported only when an exception reaches ``main``
    (``bwlab --help`` starts without it)."""
    from concurrent.futures import BrokenExecutor

    return BrokenExecutor
