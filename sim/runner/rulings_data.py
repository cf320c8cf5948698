"""The ruling alternatives as data: read ``experiments/rulings.toml``, and make each alternative's
card folder (a copy of ``cards/`` with one value changed), validated before any game is played.

Why a copy with one line replaced rather than an edit in memory: the engine reads every house
ruling from the card folder (docs/rulings.md: "Change the data file to try an alternative — no
code changes"), so an alternative played from a real folder is exactly what a designer gets by
editing ``cards/``, and it goes through the same loader and validation. The key's line is
replaced as text (comments elsewhere are kept) and must match exactly once.
"""

from __future__ import annotations

import json
import re
import shutil
import tomllib
from dataclasses import dataclass
from pathlib import Path

from sim.catalogue.diagnostics import InputError, Problem, Problems
from sim.runner.file_names import file_name_problem
from sim.catalogue.tomldoc import MISSING, TomlDoc

RULINGS_FILE = Path("experiments/rulings.toml")
ENTRY_KEYS = {"ruling", "file", "key", "value", "completes"}
# The fixed study's defaults when the file's [study] leaves one out (flags override both).
DEFAULT_STUDY = {"teams": "experiments/teams/example.toml", "fairness_games": 1024,
                 "fairness_boards": 256, "rating_experiment": "experiments/rarity.toml",
                 "rating_games": 2000, "seed": 11, "policy": "greedy", "tolerance": 0.05}
# key -> (type, lowest, highest) of [study]; games are whole duplicate blocks of 4
STUDY_CHECKS = {"teams": (str, None, None), "fairness_games": (int, 8, None),
                "fairness_boards": (int, 2, None), "rating_experiment": (str, None, None),
                "rating_games": (int, 0, None), "seed": (int, 0, None),
                "policy": (str, None, None), "tolerance": ((int, float), 0.001, 0.25)}
STUDY_KEYS = set(STUDY_CHECKS)
_HEADER = re.compile(r"^\s*\[\s*([^\]\[]+?)\s*\]\s*(#.*)?$")


@dataclass(frozen=True)
class Alternative:
    """One house ruling's alternative: ``key`` of ``file`` in cards/ set to ``value``."""

    ruling: str
    file: str
    key: str
    value: object
    completes: str
    line: int          # its value's line in the alternatives file (file:line: field messages)
    index: int = 0     # its place in the file (alternatives[index])
    default: object = None   # the book default read from cards/ (filled by :func:`prepare`)
    key_line: int = 0  # the lines of its key and file (0: the value's line)
    file_line: int = 0

    @property
    def label(self) -> str:
        """``board.doorway = "full_edge"`` — the change in the file's own words."""
        return f"{self.key} = {toml_value(self.value)}"


@dataclass(frozen=True)
class RulingsFile:
    path: Path
    study: dict
    alternatives: tuple[Alternative, ...]


TOP_KEYS = {"study", "alternatives"}


def load_rulings(path: Path) -> RulingsFile:
    """Parse the alternatives file; InputError (file:line: field: message) on any bad entry."""
    from .file_kinds import misplaced

    doc = TomlDoc.load_or_raise(Path(path))
    wrong = misplaced(doc.data, "a rulings study")
    if wrong:
        raise InputError([Problem(str(path), None, "file", wrong)])
    doc.unknown_keys((), TOP_KEYS)
    doc.unknown_keys(("study",), STUDY_KEYS)
    entries = doc.get(("alternatives",), list, fallback=[])
    alternatives = []
    for i, entry in enumerate(entries):
        where = ("alternatives", i)
        if not isinstance(entry, dict):
            if not doc.reported(where):  # a NaN or a NUL: the reader said so, once
                doc.add(where, "expected an [[alternatives]] table")
            continue
        doc.unknown_keys(where, ENTRY_KEYS)
        texts = {k: doc.get(where + (k,), str, fallback="") for k in ("ruling", "file", "key")}
        completes = doc.get(where + ("completes",), str, default="", fallback="")
        if doc.lookup(where + ("file",)) is not MISSING and file_name_problem(texts["file"]):
            doc.add(where + ("file",), file_name_problem(texts["file"]))  # prepare() writes it
        value = doc.lookup(where + ("value",))
        if value is MISSING or isinstance(value, dict):
            doc.add(where + ("value",), "missing (the alternative's value)")
        elif _unwritable(value) is not None:  # toml_value cannot write it into the copy
            doc.add(where + ("value",), f"{_unwritable(value)}: an alternative's value is text, "
                    "a number, true/false or a list of them")
        elif doc.lookup(where + ("key",)) is not MISSING and (
                texts["key"].count(".") != 1 or "" in texts["key"].split(".")):
            doc.add(where + ("key",), f"expected \"table.key\", got {texts['key']!r}")
        alternatives.append(Alternative(texts["ruling"], texts["file"], texts["key"], value,
                                        completes, doc.line(where + ("value",)) or 0, i,
                                        key_line=doc.line(where + ("key",)) or 0,
                                        file_line=doc.line(where + ("file",)) or 0))
    _check_repeats(doc, alternatives)
    study = _study(doc)
    doc.problems.raise_if_any()
    return RulingsFile(Path(path), study, tuple(alternatives))


def _check_repeats(doc: TomlDoc, alternatives) -> None:
    """An alternative given twice (the same file, key and value) at its second line: it was
    replayed twice and counted twice in the Holm family, each p doubled (the hostile-input
    audit of stop 80)."""
    first: dict = {}
    for alt in alternatives:
        seen = first.setdefault((alt.file, alt.key, repr(alt.value)), alt)
        if seen is not alt:
            doc.add(("alternatives", alt.index, "value"),
                    f"the same alternative as alternatives[{seen.index}] (line {seen.line}): "
                    f"{alt.file} {alt.key} = {alt.value!r}; give each once")


def _unwritable(value) -> str | None:
    """What of ``value`` :func:`toml_value` cannot write (a date, a time, a table in a list),
    as the file spells it, or None. Why: it raised a TypeError's traceback in ``validate``."""
    if isinstance(value, list):
        return next((bad for bad in map(_unwritable, value) if bad is not None), None)
    if isinstance(value, (bool, int, float, str)):
        return None
    if isinstance(value, dict):
        return "a table in the list"
    spelled = value.isoformat() if hasattr(value, "isoformat") else repr(value)
    return f"{spelled} is a date or time"


def _study(doc: TomlDoc) -> dict:
    """``[study]`` checked for type and range, over :data:`DEFAULT_STUDY`."""
    out = dict(DEFAULT_STUDY)
    for key, (kind, lo, hi) in STUDY_CHECKS.items():
        out[key] = doc.get(("study", key), kind, lo=lo, hi=hi, default=DEFAULT_STUDY[key],
                           fallback=DEFAULT_STUDY[key])
    if out["fairness_games"] % 4:
        doc.add(("study", "fairness_games"), "must be a multiple of 4 (duplicate blocks)")
    for key, what in (("teams", "team file"), ("rating_experiment", "experiment file")):
        given = doc.lookup(("study", key))  # the defaults are checked where they are used
        if isinstance(given, str):
            doc.referenced_file(("study", key), given, Path(), what, "the working folder")
    if isinstance(doc.lookup(("study", "policy")), str):
        from .file_kinds import parse_policy

        try:
            parse_policy(out["policy"])
        except ValueError as exc:  # named here, not as a --policy flag nobody gave
            doc.add(("study", "policy"), str(exc))
        except InputError as exc:  # greedy:weights=FILE with a bad file
            doc.problems.extend(Problems(list(exc.problems)))
    return out


def toml_value(value) -> str:
    """A TOML literal of a plain value (text, whole number, number, true/false, list)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(f"not a plain TOML value: {value!r}")


def _key_lines(text: str, table: str, key: str) -> list[int]:
    """Indices of the lines that set ``key`` inside ``[table]`` (before the next header)."""
    pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
    found, current = [], None
    for i, line in enumerate(text.splitlines()):
        header = _HEADER.match(line)
        if header:
            current = header.group(1).strip()
        elif current == table and pattern.match(line):
            found.append(i)
    return found


def replaced_text(text: str, alt: Alternative) -> tuple[str, object]:
    """The file's text with the key's line set to the alternative, and the default it held.
    ValueError when the key is not set on exactly one whole line of its table."""
    table, key = alt.key.split(".")
    lines = text.splitlines(keepends=True)
    found = _key_lines(text, table, key)
    if len(found) != 1:
        raise ValueError(f"{key} is set on {len(found)} lines of [{table}] in {alt.file} "
                         f"(exactly one expected)")
    try:
        default = tomllib.loads(lines[found[0]])[key]
    except (tomllib.TOMLDecodeError, KeyError):
        raise ValueError(f"[{table}] {key} in {alt.file} spans several lines: only one-line "
                         f"values can be replaced") from None
    ending = "\n" if lines[found[0]].endswith("\n") else ""
    lines[found[0]] = f"{key} = {toml_value(alt.value)}{ending}"
    return "".join(lines), default


def prepare(alt: Alternative, cards: Path, into: Path, source: Path):
    """Copy ``cards`` to ``into`` with the alternative applied and load it: (catalogue, the
    alternative with its default). Every problem is reported against the alternatives file
    (``source``:line: alternatives[i].value: ...), since that is where the fix belongs."""
    from dataclasses import replace

    from sim.catalogue.apocalypses import load_apocalypses
    from sim.catalogue.game_rules import load_game_rules
    from sim.catalogue.loader import load_catalogue

    problems = Problems()
    target = Path(cards) / alt.file
    bad_name = file_name_problem(alt.file)  # the copy below is written: never outside it
    if bad_name or not target.is_file():
        problems.add(source, alt.file_line or alt.line, f"alternatives[{alt.index}].file",
                     bad_name or f"no file {alt.file!r} in {cards}")
        problems.raise_if_any()
    shutil.copytree(cards, into)
    try:
        text, default = replaced_text(target.read_text(encoding="utf-8"), alt)
    except ValueError as exc:
        problems.add(source, alt.key_line or alt.line, f"alternatives[{alt.index}].key", str(exc))
        problems.raise_if_any()
    (into / alt.file).write_text(text, encoding="utf-8")
    try:
        catalogue = load_catalogue(into)
        load_game_rules(into)     # [game] and the Apocalypses: read by the engine, not by
        load_apocalypses(into)    # load_catalogue, so checked here before any game
    except InputError as exc:
        first = exc.problems[0]
        problems.add(source, alt.line, f"alternatives[{alt.index}].value",
                     f"{alt.label} is rejected by {alt.file}: {first.field}: {first.message}")
        problems.raise_if_any()
    return catalogue, replace(alt, default=default)


__all__ = ["DEFAULT_STUDY", "Alternative", "RULINGS_FILE", "RulingsFile", "load_rulings", "prepare",
           "replaced_text", "toml_value"]
