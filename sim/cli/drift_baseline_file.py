"""Reading a drift baseline file (``reports/baseline.json``, written by ``bwlab drift
--update``) for ``drift``, ``report`` and ``validate``: one located line per problem, never a
traceback. Why its own module: the file's hazards (a path that is no file, text that is not
UTF-8 or not JSON, a key named twice) are the input's, apart from the gate's logic."""

from __future__ import annotations

import json
import os
from pathlib import Path


def _problem(path, field, message):
    from sim.catalogue.diagnostics import InputError, Problem

    return InputError([Problem(str(path), None, field, message)])


class _Twice(ValueError):
    """A JSON object names a key twice."""

    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def _no_twice(pairs: list) -> dict:
    """``json``'s object hook: the object, or :class:`_Twice` for its first repeated key."""
    out = {}
    for key, value in pairs:
        if key in out:
            raise _Twice(key)
        out[key] = value
    return out


def _second_line(text: str, key: str) -> int:
    """The line of the key's second appearance in the object ``json`` refused (its first line if
    not found). ``json`` calls the object hook as each object closes, inner ones first, so the
    first object to close naming a key twice is the one refused; the key may appear in other
    tables too (every metric has a "games"), so the line is found in that object, not in the
    whole text (the regression audit of stop 81)."""
    import re

    token = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[{}\[\]:]')  # (unrolled: fast on long text)
    stack: list = []  # per open object or array: None (an array) or [keys seen, first repeat]
    last = None  # the previous token: a string followed by ':' in an object is a key
    for m in token.finditer(text):
        tok = m.group()
        if tok in "{[":
            stack.append([set(), None] if tok == "{" else None)
        elif tok in "}]":
            top = stack.pop() if stack else None
            if top is not None and top[1] is not None and top[1][0] == key:
                return text.count("\n", 0, top[1][1]) + 1
        elif tok == ":" and stack and stack[-1] is not None and last is not None:
            name = json.loads(last.group())
            seen, repeat = stack[-1]
            if name in seen and repeat is None:
                stack[-1][1] = (name, last.start())
            seen.add(name)
        last = m if tok.startswith('"') else None
    return 1


def _load_baseline(path: Path) -> dict:
    from sim.runner.drift_baseline_checks import validate_baseline

    from sim.atomic import note_input

    try:  # not Path.exists(), which reads a loop of links as "absent": "create it with
        os.stat(path)  # --update" sent the user to replace a file that is there
    except FileNotFoundError:
        raise _problem(path, "--baseline", "not found; create it with --update") from None
    except OSError as exc:  # a loop of links, a name too long, a folder that is a file
        raise _problem(path, "--baseline", f"cannot be read: {exc.strerror or exc}") from None
    if not path.is_file():  # a folder, a pipe or a device: never read
        raise _problem(path, "--baseline", "not a regular file (a pipe, a device or a socket)")
    note_input(path)  # read: no result of this command (report's drift.csv) may replace it
    try:
        text = path.read_text(encoding="utf-8")
        data = json.loads(text, object_pairs_hook=_no_twice)
    except UnicodeDecodeError:
        raise _problem(path, "--baseline", "not UTF-8 text") from None
    except _Twice as twice:  # json keeps the last silently: a hand edit would hide a value
        raise _problem(f"{path}:{_second_line(text, twice.key)}", twice.key,
                       "named twice in one table; rewrite the baseline with --update") from None
    except json.JSONDecodeError as exc:
        raise _problem(f"{path}:{exc.lineno}", "--baseline",
                       f"not a baseline written by --update ({exc.msg})") from None
    except (RecursionError, ValueError) as exc:  # json recurses; Python caps digits at 4300
        why = "nested too deeply" if isinstance(exc, RecursionError) else "a number too long"
        raise _problem(path, "--baseline", f"not a baseline written by --update ({why})"
                       ) from None
    validate_baseline(data, path)
    return data
