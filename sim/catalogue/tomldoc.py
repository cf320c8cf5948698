"""TOML files with line numbers, and typed, range-checked access that records problems.

``tomllib`` gives values but no positions; designers need ``file:line: field``. A light scan of
the text maps each dotted key (and each ``[[array]]`` entry) to the line it is written on, which
is all an error message needs. Typed getters check type, range and choices and record a problem
(never raise) so a loader can report everything wrong in one pass.
"""

from __future__ import annotations

import difflib
import math
import re
import tomllib
from pathlib import Path
from typing import Any

from .diagnostics import Problems, has_control, read_text, suggest

_HEADER_AOT = re.compile(r"^\[\[\s*([^\]]+?)\s*\]\]")
_HEADER = re.compile(r"^\[\s*([^\]]+?)\s*\]")
_KEY = re.compile(r"^([A-Za-z0-9_\-\.\"' ]+?)\s*=")
_TOML_POS = re.compile(r"at line (\d+)")

MISSING = object()
# the largest whole number a data file may hold: every count, stat and weight becomes an int64 in
# the engine, and sums of a few of them must not overflow (issue #22: "99999999999999999999")
INT_LIMIT = 10**18


def _split_key(key: str) -> tuple[str, ...]:
    return tuple(part.strip().strip("\"'") for part in key.split("."))


def key_lines(text: str) -> dict[tuple, int]:
    """Map key paths to line numbers; array-of-tables entries get their index in the path."""
    lines: dict[tuple, int] = {}
    table: tuple = ()
    aot_index: dict[tuple, int] = {}
    for lineno, raw in enumerate(text.splitlines(), 1):
        s = raw.strip()
        if not s or s.startswith("#"):
            continue
        m = _HEADER_AOT.match(s)
        if m:
            path = _with_aot(_split_key(m.group(1)), aot_index)
            idx = aot_index.get(path, -1) + 1
            aot_index[path] = idx
            table = path + (idx,)
            lines[table] = lineno
            continue
        m = _HEADER.match(s)
        if m:
            table = _with_aot(_split_key(m.group(1)), aot_index)
            lines[table] = lineno
            continue
        m = _KEY.match(s)
        if m:
            lines.setdefault(table + _split_key(m.group(1)), lineno)
    return lines


def _with_aot(path: tuple, aot_index: dict[tuple, int]) -> tuple:
    """Insert the current index after every prefix that is an array of tables ([tiles.cpu])."""
    out: tuple = ()
    for part in path:
        out = out + (part,)
        if out in aot_index and out != path:
            out = out + (aot_index[out],)
    return out


class TomlDoc:
    """A parsed TOML file plus the line of every key, for precise problem reports."""

    def __init__(self, path: Path, data: dict, lines: dict[tuple, int], problems: Problems):
        self.path = path
        self.data = data
        self.lines = lines
        self.problems = problems
        # (table path, key) pairs that an "unknown key (did you mean KEY?)" line already names:
        # a misspelt required key is one problem, reported once, not also as "missing".
        self._suggested: set[tuple] = set()
        self._bad: set[tuple] = set()  # paths whose value ``_scan`` reported

    @classmethod
    def load(cls, path: Path, problems: Problems) -> "TomlDoc | None":
        text = read_text(path, problems)
        if text is None:
            return None
        try:
            data = tomllib.loads(text)
            doc = cls(path, data, key_lines(text), problems)
            doc._scan(data, ())
        except tomllib.TOMLDecodeError as exc:
            m = _TOML_POS.search(str(exc))  # "(at end of document)": the last line
            line = int(m.group(1)) if m else max(text.count("\n") + (not text.endswith("\n")), 1)
            problems.add(path, line, "syntax", str(exc).split(" (at")[0])
            return None
        except RecursionError:  # arrays or tables nested thousands deep: tomllib recurses
            problems.add(path, None, "syntax", "values nested too deeply to be a lab file")
            return None
        return doc

    def _scan(self, node, path: tuple) -> None:
        """Record every value no field may hold (``_bad_value``), wherever it sits: loaders that
        walk tables themselves then never meet a NaN, an overflowing integer or a NUL."""
        if isinstance(node, dict):
            for key, value in node.items():
                self._scan(value, path + (key,))
        elif isinstance(node, list) and any(isinstance(v, (dict, list)) for v in node):
            for i, value in enumerate(node):
                self._scan(value, path + (i,))
        else:
            bad = _bad_value(node)
            if bad:
                self._bad.add(path)
                self.add(path, bad)

    @classmethod
    def load_or_raise(cls, path: Path, problems: Problems | None = None) -> "TomlDoc":
        """:meth:`load` for a loader that stops at the first unreadable file: the document,
        whose ``problems`` collect into ``problems`` (a fresh list when None); raises InputError
        with every problem so far when the file cannot be read or parsed."""
        own = problems if problems is not None else Problems()
        doc = cls.load(path, own)
        if doc is None:
            own.raise_if_any()
        return doc

    def reported(self, path: tuple) -> bool:
        """Whether the value at ``path`` was already reported as one no field may hold."""
        return path in self._bad

    def line(self, path: tuple) -> int | None:
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return None

    def add(self, path: tuple, message: str) -> None:
        """A problem at ``path``, on its line (or its table's); a key whose whole table is
        absent points at line 1, so every message names a line (issue #22)."""
        name = ".".join(str(p) for p in path if not isinstance(p, int)) or "file"
        self.problems.add(self.path, self.line(path) or 1, name, message)

    def referenced_file(self, path: tuple, value, base: Path, what: str, relative_to: str
                        ) -> Path | None:
        """The file ``value`` names (relative to ``base``), or None after one problem on
        ``path``'s line: "no {what} {file} (a path relative to {relative_to})". Why one home:
        an experiment's teams, a suite's matchups and a rulings study each name files, and a
        missing one is fixed where it is named, so each says so there, in the same words."""
        target = Path(base) / value if isinstance(value, str) and value.strip() else None
        try:
            found = target is not None and target.is_file()
        except OSError:  # a name too long, a loop of links: not a file either
            found = False
        if not found:
            self.add(path, f"no {what} {value if target is None else target} (a path relative "
                           f"to {relative_to})")
            return None
        return target

    def lookup(self, path: tuple) -> Any:
        node: Any = self.data
        for part in path:
            try:
                node = node[part]
            except (KeyError, IndexError, TypeError):
                return MISSING
        return node

    def get(self, path: tuple, kind: type | tuple = (int, float), *, lo=None, hi=None,
            choices=None, default=MISSING, fallback=None):
        """The value at ``path`` checked for type, range and choices; ``fallback`` after a problem."""
        value = self.lookup(path)
        if value is MISSING:
            if default is MISSING:
                if not any((path[:i], path[i]) in self._suggested for i in range(len(path))):
                    self.add(path, "missing")
                return fallback
            return default
        kinds = kind if isinstance(kind, tuple) else (kind,)
        # NaN, overflow, a NUL: ``_scan`` said so when the file loaded; one line, so no "expected
        # an integer, got nan" after "nan is not a finite number"
        if self.reported(path):
            return fallback
        if isinstance(value, bool) and bool not in kinds:
            self.add(path, f"expected {_kind_name(kinds)}, got {value!r}")
            return fallback
        if not isinstance(value, kinds):
            self.add(path, f"expected {_kind_name(kinds)}, got {value!r}")
            return fallback
        if choices is not None and value not in choices:
            self.add(path, f"unknown value {value!r}{suggest(str(value), [str(c) for c in choices])}; "
                           f"choose from {', '.join(map(str, choices))}")
            return fallback
        if lo is not None and value < lo or hi is not None and value > hi:
            self.add(path, f"{value!r} out of range [{lo if lo is not None else '-inf'}, "
                           f"{hi if hi is not None else 'inf'}]")
            return fallback
        return value

    def unknown_keys(self, path: tuple, known: set[str] | list[str]) -> None:
        """Record every key under ``path`` that the loader does not know (likely a typo)."""
        node = self.lookup(path)
        if not isinstance(node, dict):
            return
        lowered = {k.lower(): k for k in known}
        for key in node:
            if key not in known:
                self.add(path + (key,), f"unknown key{suggest(key, list(known))}")
                for close in difflib.get_close_matches(key.lower(), list(lowered), n=3, cutoff=0.5):
                    if lowered[close] not in node:
                        self._suggested.add((path, lowered[close]))


def _bad_value(value) -> str:
    """Why a value no file may hold, whatever its field (empty when fine): NaN and infinities
    compare false with every range, so they would pass ``lo``/``hi``; a huge integer overflows the
    engine's int64; a control character (a NUL) in text breaks CSV output and terminals."""
    if isinstance(value, float) and not math.isfinite(value):
        return f"{value!r} is not a finite number"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > INT_LIMIT:
        return f"{value} is too large (at most {INT_LIMIT:.0e} in size)"
    if isinstance(value, str) and has_control(value):
        return f"{value!r} contains a control character"
    if isinstance(value, list):
        return next((b for b in map(_bad_value, value) if b), "")
    return ""


def _kind_name(kinds: tuple) -> str:
    names = {int: "an integer", float: "a number", str: "text", bool: "true or false",
             list: "a list", dict: "a table"}
    if set(kinds) == {int, float}:
        return "a number"
    return " or ".join(names.get(k, k.__name__) for k in kinds)
