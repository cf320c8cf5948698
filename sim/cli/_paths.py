"""Output paths, and the card folder, checked when the command line is read, before any work
(issue #22 item 3).

Why at parse time: a run that plays for an hour and then fails to write its result has lost the
hour; a path under a file, in a missing or read-only folder, or in ``/proc`` is known to fail
before a single game. Each check ends in one line, ``path: --option: message``, and exit 2
(an :class:`InputError`), never a traceback. The probe that proves a folder writable creates
and removes a temporary file: nothing is left behind.

A file option (``--log``, ``--png``, ``--junit``, ``--out FILE``) needs its folder to exist:
a typo in a folder name is a mistake to report, not a folder to create. A folder option
(``--out DIR``) may be created, with its parents, under the nearest folder that exists.
A path the file system refuses outright (a name too long) is one such line too, naming the flag.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

import click
from click.core import ParameterSource

from sim.catalogue.diagnostics import InputError, Problem


def _probe(folder: Path) -> str | None:
    """None when a file can be created in ``folder``, else why not."""
    try:
        fd, name = tempfile.mkstemp(prefix=".bwlab-probe-", dir=folder)
    except OSError as exc:
        return f"not writable ({folder}: {exc.strerror or exc})"
    os.close(fd)
    os.unlink(name)
    return None


def _existing_ancestor(path: Path) -> Path:
    for parent in path.parents:
        if parent.exists() or parent == Path(parent.anchor or "."):
            return parent
    return Path(".")


def _resolvable(path: Path) -> None:
    """Raise the OSError of a path the system refuses to resolve (a loop of links, a name too
    long). Why: ``Path.exists()`` reads a loop as "absent" (Python 3.11), so ``--log LOOP`` was
    accepted and the link replaced by the log."""
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENAMETOOLONG):
            raise


def file_problem(path: Path) -> str | None:
    """Why ``path`` cannot be written as a file, or None. A link is judged by the file it
    names (the writer writes through it, ``sim.atomic``)."""
    _resolvable(path)
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    parent = path.parent
    if path.is_dir():
        return "is a folder, not a file"
    if path.exists() and not path.is_file():  # is_file follows a link to its target
        return "is not a regular file (a device, a pipe or a socket): name a file"
    if not parent.exists():
        ancestor = _existing_ancestor(parent)
        if ancestor.exists() and not ancestor.is_dir():
            return f"{ancestor} is a file, not a folder"
        return f"folder {parent} does not exist (create it first)"
    if not parent.is_dir():
        return f"{parent} is a file, not a folder"
    if path.exists():
        try:
            with open(path, "ab"):
                pass
        except OSError as exc:
            return f"cannot be written: {exc.strerror or exc}"
    return _probe(parent)


def folder_problem(path: Path) -> str | None:
    """Why ``path`` cannot be (created and) written as a folder, or None."""
    _resolvable(path)
    if path.is_symlink() and not path.exists():
        return f"{path} is a link to nothing: remove it, or name another folder"
    if path.exists():
        return _probe(path) if path.is_dir() else "is a file, not a folder"
    ancestor = _existing_ancestor(path)
    if not ancestor.is_dir():
        return f"{ancestor} is a file, not a folder"
    return _probe(ancestor)


def _problem_of(check, path: Path) -> str | None:
    """``check(path)``, with a path the system refuses to look at (ENAMETOOLONG, a loop of
    links) reported as its problem, not raised."""
    try:
        return check(path)
    except OSError as exc:
        return f"cannot be used: {exc.strerror or exc}"


def _option_name(param) -> str:
    """The option as its message names it: every spelling it has ("--cards/--cards-dir"), since
    click does not record which one was typed."""
    return "/".join(param.opts) if param is not None and param.opts else "path"


def refuse_empty(value, name: str, what: str) -> None:
    """An empty (or blank) path is one line naming the option and what it wants (``what``: "a
    file", "a folder"...). Why: ``Path("")`` is ``.``: an empty --out would write here, and an
    empty --teams said ``.: file: cannot be read: Is a directory``, naming neither the flag nor
    the mistake. The path itself is shown quoted, so that a blank one is visible."""
    if not str(value).strip():
        raise InputError([Problem(repr(str(value)), None, name, f"an empty path: name {what}")])


def _new_file_problem(path: Path) -> str | None:
    """A file whose folder may be created (a default under reports/)."""
    if path.parent.exists():
        return file_problem(path)
    return "is a folder, not a file" if path.is_dir() else folder_problem(path.parent)


class OutputPath(click.ParamType):
    """A path the command will write: a file (``folder=False``) or a folder, checked at once."""

    name = "path"

    def __init__(self, folder: bool = False, new_folder: bool = False):
        self.folder = folder
        # a file whose default's folder may be created (reports/); a path the user gives is a
        # file option like any other: a missing folder is a typo to report, not to create
        self.new_folder = new_folder

    def convert(self, value, param, ctx):
        refuse_empty(value, _option_name(param), "a file or a folder")
        path = Path(value)
        defaulted = (ctx is not None and param is not None
                     and ctx.get_parameter_source(param.name) is ParameterSource.DEFAULT)
        check = (folder_problem if self.folder else
                 _new_file_problem if self.new_folder and defaulted else file_problem)
        problem = _problem_of(check, path)
        if problem:
            defer(ctx, Problem(str(path), None, _option_name(param), problem))
        return path


DEFERRED = "bwlab.output_problems"  # ctx.meta key: output problems found while parsing


def defer(ctx, problem: Problem) -> None:
    """An output path's problem, kept in the command's context until the flags are parsed and
    the card folder checked, then reported with theirs (``sim.cli.main._outputs_with_inputs``).
    Why: a bad ``--out`` raised while the flags were parsed, so it hid every problem of the
    cards (``power-levels --out missing/x.csv`` with a card typo: two runs to learn of two
    mistakes, stop 68's note). Only a command wired to report them keeps them: any other
    raises at once, so none can run with a bad output path."""
    if ctx is None or not getattr(ctx.command, "_outputs_wired", False):
        raise InputError([problem])
    ctx.meta.setdefault(DEFERRED, []).append(problem)


def deferred(ctx) -> list:
    """The output problems :func:`defer` has kept for ``ctx`` (none: empty)."""
    return list(ctx.meta.get(DEFERRED, ())) if ctx is not None else []


class CardFolder(click.ParamType):
    """``--cards DIR``: a folder that exists, checked at once. Why: a mistyped folder was one
    "not found" line per data file in it, none naming the flag."""

    name = "directory"

    def convert(self, value, param, ctx):
        from sim.catalogue.loader import card_folder_problem  # numpy: not for --help

        refuse_empty(value, _option_name(param), "a folder")
        problem = card_folder_problem(Path(value))
        if problem:
            raise InputError([Problem(str(value), None, _option_name(param), problem)])
        return Path(value)


def check_default_cards() -> None:
    """With no ``$BWLAB_CARDS``, a ``./cards`` that is there but is not a folder that can be
    read (a file, a loop of links, a link to nothing, a folder that cannot be listed) is one
    line, exit 2. Why: the default reads ``./cards`` only when its rules.toml is found, so such
    a ./cards was passed over for the installed cards, exit 0, with only the "no ./cards here"
    notice, while the same path as --cards or $BWLAB_CARDS was refused. A ./cards that is not
    there at all keeps that fallback (sim.catalogue.loader.default_cards_dir)."""
    from sim.catalogue.loader import card_folder_problem  # numpy: not for --help

    if os.environ.get("BWLAB_CARDS") or not os.path.lexists("cards"):
        return
    problem = card_folder_problem(Path("cards"))
    if problem == "no such folder":  # and yet the name is there (lexists): a link
        problem = "is a link to nothing"
    if problem:
        raise InputError([Problem(str(Path.cwd() / "cards"), None, "./cards",
                                  f"{problem} (the default card folder: fix it, or give "
                                  f"--cards DIR or set $BWLAB_CARDS)")])


def _default_checked(ctx, param, value):
    """The ``--cards`` callback: no folder given, the default's ./cards is checked now."""
    if value is None:
        check_default_cards()
    return value


def cards_option(help: str = "Card folder (default: $BWLAB_CARDS, else ./cards).",
                 dest: str = "cards", old_spelling: bool = False):
    """The ``--cards`` option of every command that loads the cards (``--cards-dir``: the old
    spelling some commands still accept); not given, a ./cards that cannot be read is refused
    (:func:`check_default_cards`)."""
    names = ("--cards", "--cards-dir") if old_spelling else ("--cards",)
    return click.option(*names, dest, type=CardFolder(), default=None, help=help,
                        callback=_default_checked)


class InputFile(click.Path):
    """A file the command reads (``--teams``, an experiment, a baseline): an empty path is one
    line naming the option, as for an output (:func:`refuse_empty`)."""

    def __init__(self):
        super().__init__(dir_okay=False, path_type=Path)

    def convert(self, value, param, ctx):
        refuse_empty(value, param.human_readable_name if isinstance(param, click.Argument)
                     else _option_name(param), "a file")
        return super().convert(value, param, ctx)


IN_FILE = InputFile()
OUT_FILE = OutputPath(folder=False)
OUT_FOLDER = OutputPath(folder=True)
OUT_FILE_IN_NEW_FOLDER = OutputPath(new_folder=True)


def levels_experiment_option(f):
    """``--levels-experiment FILE``: the pool experiment behind the Power Levels, in place of
    cards/arena_budget.toml's [levels] experiment (a path relative to the card folder's parent,
    so a card folder copied elsewhere to try a change found none: the stop-60 designer audit)."""
    return click.option("--levels-experiment", "levels_file", type=IN_FILE, default=None,
                        help="Pool experiment whose games fit the Power Levels (default: "
                             "[levels] experiment of arena_budget.toml, beside the card "
                             "folder's parent): for a card folder copied without "
                             "experiments/.")(f)


def check_output_file(path: Path, option: str) -> None:
    """The same check for a path known only after parsing (``drift --update``'s baseline)."""
    problem = _problem_of(file_problem, Path(path))
    if problem:
        raise InputError([Problem(str(path), None, option, problem)])


def check_output_folder(path: Path, option: str) -> Path:
    """The folder check for a path known only after parsing (``run``'s reports/runs/NAME)."""
    problem = _problem_of(folder_problem, Path(path))
    if problem:
        raise InputError([Problem(str(path), None, option, problem)])
    return Path(path)


def not_the_card_folder(out, cards_root, why: str = "this command's files would join its "
                        "cards (and change them for every later run)") -> None:
    """``--out`` is not the card folder (through links and ``..`` alike): one line, before any
    work. Why: a result written there joins the cards, and the card files are the digest a run
    checks when resumed (sim.runner.store): ``demo --out CARDS`` exited 0, and every run on
    those cards resumed no more."""
    if out is not None and os.path.realpath(out) == os.path.realpath(cards_root):
        raise InputError([Problem(str(out), None, "--out",
                                  f"is the card folder; {why}: name another folder")])


def outside_the_card_folder(outputs, cards_root) -> None:
    """No result file a command will write (as :func:`outputs_clear` takes them) lies inside
    the card folder (through links and ``..`` alike): one line per file, before any work. Why:
    a file there joins the cards' files, which a resumed run checks (sim.runner.store):
    ``power-levels --out cards/x.csv`` exited 0, and every run on those cards resumed no more
    (the folder-wide ``--out`` was refused by :func:`not_the_card_folder` already)."""
    root = os.path.realpath(cards_root)
    problems = []
    for option, path in (outputs.items() if isinstance(outputs, dict) else outputs):
        if path is None:
            continue
        folder = os.path.realpath(os.path.dirname(os.path.abspath(path)))
        if os.path.commonpath([folder, root]) == root:
            problems.append(Problem(str(path), None, option,
                                    f"is inside the card folder {cards_root}; a result there "
                                    "joins the cards (and changes them for every later run): "
                                    "name a file elsewhere"))
    if problems:
        raise InputError(problems)


def outputs_clear(outputs) -> None:
    """Every result file a command will write (option -> path, as a dict or as (option, path)
    pairs when one option writes several files; None skipped) may be replaced:
    not a file the command has read so far (its cards, teams, weights, alternatives), not a
    folder or a device. Called once the inputs are loaded and before the work, so a clash costs
    no games; ``sim.atomic`` checks again as each file is written."""
    from sim.atomic import check_replaceable

    problems = []
    for option, path in (outputs.items() if isinstance(outputs, dict) else outputs):
        if path is None:
            continue
        try:
            check_replaceable(path)
        except OSError as exc:
            problems.append(Problem(str(path), None, option, exc.strerror or str(exc)))
    if problems:
        raise InputError(problems)


def distinct_paths(outputs: dict, inputs: dict | None = None) -> None:
    """No two outputs, and no output and input, name the same file (option -> path; None
    skipped): ``play --log g --html g`` would leave only the page, ``replay g.jsonl --html
    g.jsonl`` would overwrite the log it reads. One line per clash, before any work."""
    seen: dict = {}
    problems = []
    for kind, paths in (("input", inputs or {}), ("output", outputs)):
        for option, path in paths.items():
            if path is None:
                continue
            key = os.path.realpath(path)
            if key in seen and (kind == "output"):
                other, other_kind = seen[key]
                problems.append(Problem(str(path), None, option,
                                        f"is also the {other_kind} of {other}: name another file"))
            seen.setdefault(key, (option, kind))
    if problems:
        raise InputError(problems)
