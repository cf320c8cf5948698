"""Problems found in input files, reported one line each: ``file:line: field: message``.

Why a collector rather than exceptions: designers edit spreadsheets and TOML by hand and want
every mistake listed at once. Loaders append to a :class:`Problems` and call
:meth:`Problems.raise_if_any` when done; the CLI turns :class:`InputError` into exit code 2.
"""

from __future__ import annotations

import csv
import difflib
import io
import os
import re
import stat
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from sim.atomic import note_input


@dataclass(frozen=True)
class Problem:
    file: str
    line: int | None
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{_shown(self.file)}:{self.line}" if self.line else _shown(self.file)
        return (f"{where}: {_capped(_shown(self.field), 200)}: "
                f"{_capped(_one_line(self.message), 1000)}")


def _capped(text: str, longest: int) -> str:
    """``text`` cut to ``longest`` characters, saying how much was left out: a problem's line
    names what is wrong, and a hostile file's 200,000-character card name or key would
    otherwise be echoed whole (the longest message the loaders write is a few hundred)."""
    if len(text) <= longest:
        return text
    return f"{text[:longest]}... ({len(text) - longest:,} more characters)"


def _shown(text) -> str:
    """``text`` as printed in a problem's line: quoted (``repr``) when it holds a control or
    invisible character or a line break, which a file's own header cell, TOML key or path
    would otherwise carry to the terminal (an escape sequence) or split into a fake line."""
    text = str(text)
    return repr(text) if has_control(text) or "\n" in text or "\r" in text else text


def _one_line(text: str) -> str:
    """A message with each line break or control character written as its escape (``\\n``):
    a message quotes values read from files, and a value holding a line break printed a second
    line that read as a problem of its own ("error: forged line", the inputs audit of stop 74:
    a run's manifest). Plain messages are unchanged."""
    if not (has_control(text) or "\n" in text or "\r" in text):
        return text
    return "".join(repr(ch)[1:-1] if ch in "\n\r" or (
        unicodedata.category(ch) in HIDDEN_CATEGORIES and ch != "\t") else ch for ch in text)


class InputError(Exception):
    """Bad input: carries every problem found. The CLI prints them and exits with code 2."""

    def __init__(self, problems: list[Problem]):
        # one line per problem: a file read by two loaders (rules.toml) reports a bad value once
        self.problems = list(dict.fromkeys(problems))
        super().__init__("\n".join(str(p) for p in self.problems))


@dataclass
class Problems:
    items: list[Problem] = field(default_factory=list)

    def add(self, file: str | Path, line: int | None, field_name: str, message: str) -> None:
        self.items.append(Problem(str(file), line, field_name, message))

    def extend(self, other: "Problems") -> None:
        self.items.extend(other.items)

    def __bool__(self) -> bool:
        return bool(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def raise_if_any(self) -> None:
        if self.items:
            raise InputError(self.items)


def name_order(names) -> list[int]:
    """The positions of ``names`` in canonical order: case-folded name, then the exact name (names
    are unique within a table, so the order is total). Every loader whose rows the engine or a
    runner draws from or iterates puts its rows in this order (docs/architecture.md, "Tables in
    name order"), so the row order of a data file never changes a result for a seed."""
    return sorted(range(len(names)), key=lambda k: (str(names[k]).casefold(), str(names[k])))


def in_name_order(names, *columns):
    """``columns`` (each a list, one entry per name) reordered by :func:`name_order` of
    ``names``; returns ``(names, *columns)`` as lists, every row kept with its own values."""
    order = name_order(names)
    return tuple([col[k] for k in order] for col in (names, *columns))


class Named:
    """Mixin of catalogues with a ``names`` tuple: length and case-insensitive lookup by name."""

    names: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.names)

    def find(self, name: str) -> int:
        """Index of ``name`` (case-insensitive); ValueError when there is none."""
        return [n.lower() for n in self.names].index(name.strip().lower())


def suggest(name: str, known: list[str] | tuple[str, ...], n: int = 3) -> str:
    """' (did you mean X, Y?)' for a misspelt name, or '' when nothing is close."""
    lowered = {k.lower(): k for k in known}
    close = difflib.get_close_matches(name.lower(), list(lowered), n=n, cutoff=0.5)
    if not close:
        return ""
    return " (did you mean " + ", ".join(lowered[c] for c in close) + "?)"


def read_text(path: Path, problems: Problems) -> str | None:
    """The file's text, or None after recording why it cannot be read (missing, a device, a
    pipe, empty, not UTF-8). A device (``/dev/zero``) is refused before it is read: it never
    ends; so is a pipe or a socket: reading one waits for a writer for ever. The file is noted
    as an input of the running command, so no result replaces it (sim.atomic)."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        mode = 0  # read_bytes below names the problem
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        problems.add(path, None, "file", "is a device, not a file")
        return None
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        problems.add(path, None, "file", "is a pipe or a socket, not a file")
        return None
    note_input(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        problems.add(path, None, "file", "not found")
        return None
    except OSError as exc:
        problems.add(path, None, "file", f"cannot be read: {exc.strerror or exc}")
        return None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        problems.add(path, line, "encoding", f"not UTF-8 (byte 0x{raw[exc.start]:02x})")
        return None
    if not text.strip():
        problems.add(path, 1, "file", "empty")
        return None
    return text


# Unicode's control (Cc: C0, DEL and C1), format (Cf: zero-width spaces and joiners, the
# bidirectional overrides, the soft hyphen) and line and paragraph separators (Zl, Zp)
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})


def has_control(text: str) -> bool:
    """Whether ``text`` holds a control or invisible character other than tab and newline.

    Why more than ASCII's controls: a C1 control (U+009B) or an escape sequence in a note
    drives a terminal, a right-to-left override (U+202E) shows a name backwards, and a
    zero-width space made "Ma\u200brio" a second card beside "Mario" (the audit of stop 55)."""
    return any(unicodedata.category(ch) in HIDDEN_CATEGORIES and ch not in "\t\n\r"
               for ch in text)


def whole_number(text: str) -> int:
    """A data file's whole number: ASCII digits with an optional sign, else ValueError. Why not
    ``int()``: it reads "1_60", Arabic-Indic and full-width digits as 160, which no spreadsheet
    or pandas reads so (the hostile audit of stop 82: a card played with 160 health that every
    other tool read as text)."""
    if not _WHOLE.fullmatch(text.strip()):
        raise ValueError(text)
    return int(text)


_WHOLE = re.compile(r"[+-]?[0-9]+", re.ASCII)
# the alphabets whose letters look alike (Unicode TR 39's confusables are mostly between them)
_LOOK_ALIKE_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")


def name_key(name: str) -> str:
    """The form two names are compared in: compatibility-normalised (NFKC: a full-width "Ｍ" is
    "M") and case-folded, so "Ｍario", "MARIO" and "Mario" are one name."""
    return unicodedata.normalize("NFKC", name).casefold()


def mixed_scripts(name: str) -> list[str]:
    """The look-alike alphabets (Latin, Cyrillic, Greek) whose letters ``name`` mixes: "Mаrio"
    with a Cyrillic "а" prints as "Mario" but is another card."""
    found = []
    for ch in unicodedata.normalize("NFKC", name):
        if ch.isalpha():
            script = unicodedata.name(ch, "").split(" ", 1)[0]
            if script in _LOOK_ALIKE_SCRIPTS and script not in found:
                found.append(script)
    return found


def check_row_name(add, name: str, seen: dict, line: int) -> None:
    """A CSV row's name (a card's, an item's): not empty, printable, one alphabet, not a
    duplicate (``seen``: :func:`name_key` -> its line, updated); ``add(field, message)``
    records one."""
    key = name_key(name)
    scripts = mixed_scripts(name)
    if not name:
        add("name", "empty")
    elif has_control(name):
        pass  # CsvRows has said so, for every cell of the row
    elif "\n" in name or "\r" in name:
        add("name", f"{name!r} contains a line break")
    elif len(scripts) > 1:
        add("name", f"{name!r} mixes {' and '.join(s.title() for s in scripts)} letters, which "
                    f"look alike: write it in one alphabet")
    elif key in seen:
        add("name", f"duplicate of line {seen[key]}")
    else:
        seen[key] = line


class CsvRows:
    """``csv.reader`` over a file's text that records a record it cannot read (a cell past the
    csv module's field limit, 131,072 characters) as a problem on its line and stops, instead of
    raising mid-loop. ``line_num`` as the reader's.

    A quoted cell may span lines (a long note), so a quote left open makes the lines after it,
    up to the next quote, part of that cell: the cards on them vanished and ``validate`` said
    "ok — 71 cards" of a file of 73 (the designer audit of 2026-12-06). A cell holding a line
    that reads as a whole row of the table (as many commas as the header has cells, less one)
    is refused on the line where its quote opened, naming the rows it swallowed (when the record
    still has the header's width: otherwise its cell count is the one line on that line)."""

    def __init__(self, path: Path, text: str, problems: Problems):
        self._reader = csv.reader(io.StringIO(text, newline=""))
        self._path, self._problems = path, problems
        self._header: list[str] | None = None

    @property
    def line_num(self) -> int:
        return self._reader.line_num

    def __iter__(self):
        return self

    def __next__(self) -> list[str]:
        start = self._reader.line_num + 1  # the record's first line
        try:
            row = next(self._reader)
        except csv.Error as exc:
            self._problems.add(self._path, self._reader.line_num, "row",
                               f"cannot be read as CSV: {exc}")
            raise StopIteration from None
        header = self._header
        if header is None:
            self._header = [h.strip() for h in row]
        for j, cell in enumerate(row):  # every cell, the free-text ones (notes) too
            column = (self._header[j] if j < len(self._header) else "") or f"column {j + 1}"
            if has_control(cell):
                self._problems.add(self._path, self._reader.line_num, column,
                                   f"{cell!r} contains a control character")
            # (a record of another width is already one line on ``start``: its cell count)
            if header is not None and len(row) == len(header) and "\n" in cell:
                self._swallowed(start, column, cell, len(header))
        return row

    def _swallowed(self, line: int, column: str, cell: str, width: int) -> None:
        """The problem of a cell whose lines after the first read as rows of the table."""
        rows = [x for x in cell.splitlines()[1:] if x.count(",") >= width - 1]
        if rows:
            names = ", ".join(r.split(",", 1)[0].strip() or "(blank)" for r in rows)
            self._problems.add(self._path, line, column,
                               f"a quote opened here is not closed: {len(rows)} row(s) after "
                               f"it read as part of this cell, not as rows ({names}); close the "
                               "quote")


_SEPARATORS = (("\t", "tabs"), (";", "semicolons"))


def read_header(path: Path, reader, columns, required, problems: Problems) -> list[str] | None:
    """A CSV file's header row, stripped, or None after recording each problem in it (missing,
    a column given twice, an unknown column, a required one missing): one home for the checks
    every designer-edited table (cards, items) gets."""
    header = [h.strip() for h in (next(reader, None) or [])]
    if not any(header):
        problems.add(path, 1, "header", "missing header row")
        return None
    other = next((sep for sep, word in _SEPARATORS if len(header) == 1 and sep in header[0]), None)
    if other is not None:  # one line, not "unknown column" and every required column missing
        problems.add(path, 1, "header", f"not comma-separated: the header is one cell holding "
                                        f"{dict(_SEPARATORS)[other]}; save the file as CSV "
                                        f"(comma-separated)")
        return None
    before = len(problems)
    for j, h in enumerate(header):
        if h in header[:j]:
            problems.add(path, 1, h, "column given twice")
        elif h not in columns:
            problems.add(path, 1, h or "(blank)", f"unknown column{suggest(h, list(columns))}")
    for col in required:
        if col not in header:
            problems.add(path, 1, col, "required column missing")
    return None if len(problems) > before else header
