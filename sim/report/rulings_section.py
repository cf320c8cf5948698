"""The report's "Which house rulings matter" section, from a results file of ``bwlab rulings``.

Why from a file and not replayed here: the comparison replays the study once per alternative
(minutes); ``bwlab report`` stays fast and shows the section only when given ``--rulings FILE``
(e.g. ``reports/rulings.json`` written by ``bwlab rulings --out``).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd

from sim.catalogue.diagnostics import InputError, Problem

from .excerpt import excerpt

NEEDED = ("conclusion", "study", "alternatives")

# What the section reads of a results file, field by field (written by sim.runner.rulings): a
# type, a dict of required fields (others are ignored), [item] for a list, {"*": value} for a
# dict of any keys, or a tuple of choices. Checked before any table is built, so a hand-edited
# or truncated file is one line naming the field, never a traceback.
NUM = "number"
_ENDING = {"change": NUM, "low": NUM, "high": NUM}
_BALANCE = {"games": {"games": int, "outcomes": {"*": {"share": NUM}},
                      "drawishness": {"share": NUM}, "duration_rotations": {"median": NUM},
                      "lead_changes": ({"mean": NUM}, None)},
            "balance": {"balance": NUM}}
_ALTERNATIVE = {"rank": int, "ruling": str, "label": str, "default": object, "matters": bool,
                "score": NUM, "team_z": NUM, "team_critical_z": NUM, "card_z": (NUM, None),
                "card_critical_z": (NUM, None),
                "largest_team": {"name": str, "delta": NUM, "low": NUM, "high": NUM},
                "verdicts_changed": [str], "identical_games": (bool, int)}
RESULTS_SHAPE = {"conclusion": str, "alternatives": [_ALTERNATIVE],
                 "study": {"teams": str, "fairness_design": str, "rating_experiment": str,
                           "rating_design": str, "policy": str}}
# with the balance metrics (results written since they were added)
BALANCE_SHAPE = {"book_balance": _BALANCE,
                 "alternatives": [{"games_balance": _BALANCE,
                                   "ending_change": {"endings": {
                                       k: _ENDING for k in ("last team standing",
                                                            "simultaneous elimination",
                                                            "stalemate", "rotation cap",
                                                            "no winner")}},
                                   "endings_changed": [str]}]}
_NAMES = {str: "text", int: "a whole number", bool: "true or false", NUM: "a number or null",
          None: "null", object: "a value"}


def shape_problems(value, shape, where: str = "") -> list[tuple[str, str]]:
    """(field, problem) for each place ``value`` does not fit ``shape`` (see RESULTS_SHAPE)."""
    if isinstance(shape, tuple):
        if any(not shape_problems(value, s, where) for s in shape):
            return []
        for s in shape:  # a table or a list that fits none: what is wrong inside it
            if isinstance(s, (dict, list)) and isinstance(value, type(s)):
                return shape_problems(value, s, where)
        kinds = " or ".join("a table" if isinstance(s, dict) else
                            "a list" if isinstance(s, list) else _NAMES[s] for s in shape)
        return [(where or "document", f"expected {kinds}, got {excerpt(value)}")]
    if isinstance(shape, dict):
        if not isinstance(value, dict):
            return [(where or "document", f"expected a table, got {excerpt(value)}")]
        if "*" in shape:
            return [p for k, v in value.items() for p in shape_problems(v, shape["*"],
                                                                        f"{where}.{k}")]
        out = []
        for key, sub in shape.items():
            field = f"{where}.{key}" if where else key
            if key not in value:
                out.append((field, "missing"))
            else:
                out += shape_problems(value[key], sub, field)
        return out
    if isinstance(shape, list):
        if not isinstance(value, list):
            return [(where, f"expected a list, got {excerpt(value)}")]
        return [p for i, v in enumerate(value) for p in shape_problems(v, shape[0],
                                                                       f"{where}[{i}]")]
    ok = {None: value is None, object: True, bool: isinstance(value, bool),
          NUM: value is None or isinstance(value, (int, float)) and not isinstance(value, bool),
          int: isinstance(value, int) and not isinstance(value, bool),
          str: isinstance(value, str)}[shape]
    return [] if ok else [(where, f"expected {_NAMES[shape]}, got {excerpt(value)}")]


def load_results(path: Path) -> dict:
    """The results document; InputError (one line per problem, naming the field) when it is not
    one."""
    from sim.atomic import note_input

    note_input(Path(path))  # read: no report file may replace it
    if Path(path).exists() and not Path(path).is_file():  # a pipe waits for ever, /dev/zero
        raise InputError([Problem(str(path), None, "rulings", "not a regular file (a pipe, "
                                  "a device or a socket)")])
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"), parse_constant=_no_constant)
    except json.JSONDecodeError as exc:  # the line it stopped at, as a data file's problem
        raise InputError([Problem(str(path), exc.lineno, "rulings", f"not a `bwlab rulings` "
                                  f"results file ({exc.msg})")]) from None
    except UnicodeDecodeError as exc:
        raise InputError([Problem(str(path), None, "rulings", f"not UTF-8 text (byte "
                                  f"0x{exc.object[exc.start]:02x})")]) from None
    except OSError as exc:
        raise InputError([Problem(str(path), None, "rulings", f"cannot read: "
                                  f"{exc.strerror or exc}")]) from None
    except ValueError as exc:  # a number of more than 4300 digits
        raise InputError([Problem(str(path), None, "rulings", f"cannot read: {exc}")]) from None
    except RecursionError:  # a hostile file: JSON nested thousands deep
        raise InputError([Problem(str(path), None, "rulings", "not a `bwlab rulings` results "
                                  "file (JSON nested too deeply)")]) from None
    missing = [k for k in NEEDED if not isinstance(doc, dict) or k not in doc]
    if missing:
        raise InputError([Problem(str(path), None, "rulings", f"not a `bwlab rulings` results "
                                                             f"file (no {', '.join(missing)})")])
    problems = shape_problems(doc, RESULTS_SHAPE)
    if not problems and "book_balance" in doc:
        problems = shape_problems(doc, BALANCE_SHAPE)
    problems += _control_characters(doc)
    if problems:
        raise InputError([Problem(str(path), None, field, f"{message} (not as `bwlab rulings "
                                                          f"--out` writes it)")
                          for field, message in problems])
    return nan_for_null(doc, RESULTS_SHAPE if "book_balance" not in doc
                        else _merged(RESULTS_SHAPE, BALANCE_SHAPE))


def _no_constant(name: str):
    """JSON's NaN and Infinity, which Python reads but ``bwlab rulings --out`` never writes (a
    score without a value is null): a hand-edited file showed "inf" and "nan" as results in the
    report (the inputs audit of stop 74)."""
    raise ValueError(f"{name} is not a number `bwlab rulings --out` writes (no value is null)")


def _control_characters(value, field: str = "rulings") -> list[tuple[str, str]]:
    """(field, message) for the first text holding a control character (a line break or an
    escape sequence would reach the report's page and the terminal as it is)."""
    if isinstance(value, str):
        bad = next((c for c in value if ord(c) < 32 or 127 <= ord(c) < 160), None)
        return [] if bad is None else [(field, f"holds the control character {bad!r}")]
    items = (value.items() if isinstance(value, dict)
             else enumerate(value) if isinstance(value, list) else ())
    for key, item in items:
        found = _control_characters(item, f"{field}.{key}")
        if found:
            return found
    return []


def nan_for_null(value, shape):
    """``value`` with each null where ``shape`` asks for a number made NaN again.

    Why: ``bwlab rulings --out`` writes strict JSON (sim/cli/_json.py), so a score that has no
    value (a z of games identical to the book's) is stored as null; the tables and the text
    format a number there, and NaN prints as "nan", the value the run itself showed.
    """
    if shape is NUM:
        return math.nan if value is None else value
    if isinstance(shape, tuple):
        if value is None:  # null stays "none" where the shape allows it, else "no value"
            return None if None in shape else nan_for_null(value, NUM)
        return (
            next((nan_for_null(value, s) for s in shape
                  if isinstance(s, (dict, list)) and isinstance(value, type(s))), value))
    if isinstance(shape, dict) and isinstance(value, dict):
        if "*" in shape:
            return {k: nan_for_null(v, shape["*"]) for k, v in value.items()}
        return {k: nan_for_null(v, shape[k]) if k in shape else v for k, v in value.items()}
    if isinstance(shape, list) and isinstance(value, list):
        return [nan_for_null(v, shape[0]) for v in value]
    return value


def _merged(base: dict, extra: dict) -> dict:
    """One shape holding both shapes' fields (lists merged item shape by item shape)."""
    out = dict(base)
    for key, sub in extra.items():
        if key in out and isinstance(sub, dict) and isinstance(out[key], dict):
            out[key] = _merged(out[key], sub)
        elif key in out and isinstance(sub, list) and isinstance(out[key], list):
            out[key] = [_merged(out[key][0], sub[0])]
        else:
            out[key] = sub
    return out


def ranking_table(doc: dict) -> pd.DataFrame:
    """One row per alternative, in rank order: what the text's ranking shows."""
    rows = []
    for r in doc["alternatives"]:
        t = r["largest_team"]
        rows.append({"rank": r["rank"], "ruling": r["ruling"], "change": r["label"],
                     "default": json.dumps(r["default"]), "matters": r["matters"],
                     "score": r["score"], "p_holm": r.get("p_holm"), "team_abs_z": r["team_z"],
                     "team_critical_z": r["team_critical_z"], "card_abs_z": r["card_z"],
                     "card_critical_z": r["card_critical_z"], "largest_team": t["name"],
                     "delta_win_points": 100 * t["delta"],
                     "low_simultaneous": 100 * t["low"], "high_simultaneous": 100 * t["high"],
                     "verdicts_changed": "; ".join(r["verdicts_changed"]) or "none",
                     "identical_games": r["identical_games"]})
    return pd.DataFrame(rows)


# the report's short column names of the endings (sim.analysis.balance_change.ENDINGS)
ENDING_COLUMNS = {"last team standing": "last_standing", "simultaneous elimination": "same_step",
                  "stalemate": "stalemate", "rotation cap": "rotation_cap",
                  "no winner": "no_winner"}


def endings_table(doc: dict) -> pd.DataFrame | None:
    """How games end under the book and each alternative: each ending's share (%), its paired
    change against the book with its interval, and the alternative's mark (Holm); None for a
    results file written before the balance metrics."""
    if "book_balance" not in doc:
        return None
    rows = [_endings_row("book default", doc["book_balance"], None, [])]
    rows += [_endings_row(r["label"], r["games_balance"], r["ending_change"],
                          r.get("endings_changed", []), r.get("endings_given_mark") or {})
             for r in doc["alternatives"]]
    return pd.DataFrame(rows)


def _endings_row(label: str, b: dict, change: dict | None, marked: list,
                 given: dict | None = None) -> dict:
    """One rule set's row. A marked ending's interval is the one given the mark (``given``,
    ``endings_given_mark``), as ``bwlab rulings`` prints it and the conclusion quotes it. Why:
    the report showed the ending's own 95 % interval there, other numbers than the conclusion
    above it, and the interval the second selection audit found short given the mark."""
    g = b["games"]
    shares = {k: v["share"] for k, v in g["outcomes"].items()}
    shares["no winner"] = g["drawishness"]["share"]
    row = {"rule_set": label}
    for k, col in ENDING_COLUMNS.items():
        row[f"{col}_pct"] = 100 * shares.get(k, 0.0)
        if change is None:
            row[f"{col}_change"] = ""
        else:
            c = change["endings"][k]
            low, high = (c["low"], c["high"])
            if k in marked and (given or {}).get(k):
                low, high = given[k]
            row[f"{col}_change"] = (f"{100 * c['change']:+.1f} [{100 * low:+.1f}, "
                                    f"{100 * high:+.1f}]")
    lead = g["lead_changes"]
    row.update({"median_rotations": g["duration_rotations"]["median"],
                "mean_lead_changes": lead["mean"] if lead else float("nan"),
                "balance": b["balance"]["balance"],
                "endings_changed": "; ".join(marked) or ("" if change is None else "none")})
    return row


def rulings_section(page, path: Path) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """Add the section to ``page``; returns its tables (rulings.csv, rulings_endings.csv)."""
    doc = load_results(path)
    st = doc["study"]
    table = ranking_table(doc)
    page.heading("Which house rulings matter", "rulings")
    page.text(doc["conclusion"])
    ratings = (f"card ratings from {st['rating_experiment']} ({st['rating_design']})"
               if st.get("rating_games", 1) else "no card ratings (--rating-games 0)")
    # the study's root seed, which the results file records: without it the section could not
    # be reproduced (the report audit of stop 81)
    seed = f", root seed {st['seed']}" if st.get("seed") is not None else ""
    # the alternatives replayed: `bwlab rulings --only` replays some of the file's (the section
    # said "Each alternative of" the file of 2 of its 15: the report audit of stop 81)
    n = len(doc["alternatives"])
    page.text(f"Each of the {n} alternative{'s' * (n != 1)} replayed from "
              f"{doc.get('alternatives_file', 'experiments/rulings.toml')} changes one value of a copy of cards/ and replays the same study with the same "
              f"seeds: fairness of {st['teams']} ({st['fairness_design']}{seed}) and {ratings}, "
              f"policy {st['policy']}. Δ = alternative − default, in win-rate points, of the "
              f"team with the largest |z|, its interval clustered by board and simultaneous over "
              f"the four teams (it was picked as the largest); "
              f"score = the largest |z| / its Bonferroni critical value (teams and cards each "
              f"at 2.5 % per alternative): above 1, beyond the noise of its own test; it "
              f"matters (a gap to close first) when p_holm, its p-value adjusted by Holm over "
              f"the alternatives tested, is at most 0.05: 5 % family-wise over the whole list; "
              f"a verdict that flips without it is borderline. From {Path(path).name}; "
              f"docs/rulings-impact.md.")
    page.table(table)
    endings = endings_table(doc)
    if endings is None:
        page.text("How games end: not in this results file (written before the balance "
                  "metrics); rerun `bwlab rulings --out`.")
        return table, None
    page.text(f"How games end under each rule set: the share of the study's "
              f"{doc['book_balance']['games']['games']:,} games ending each way (%), its change "
              f"against the book (points, paired on the same seeds, 95 % interval clustered by "
              f"board; a marked share's given its mark), median length, mean lead changes and "
              f"the four teams' balance. An alternative's endings_changed names the shares "
              f"that change after Holm's correction over every alternative and ending (5 % "
              f"family-wise).")
    page.table(endings, mark=~endings["endings_changed"].isin(["", "none"]),
               why="changes how games end")
    return table, endings
