"""The report's "Which house rulings matter" section, from a results file of ``bwlab rulings``.

Why from a file and not replayed here: the comparison replays the study once per alternative
(minutes); ``bwlab report`` stays fast and shows the section only when given ``--rulings FILE``
(e.g. ``reports/rulings.json`` written by ``bwlab rulings --out``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from sim.catalogue.diagnostics import InputError, Problem

NEEDED = ("conclusion", "study", "alternatives")


def load_results(path: Path) -> dict:
    """The results document; InputError (one line) when it is not one."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError([Problem(str(path), None, "rulings", f"cannot read: {exc}")]) from None
    missing = [k for k in NEEDED if not isinstance(doc, dict) or k not in doc]
    if missing:
        raise InputError([Problem(str(path), None, "rulings", f"not a `bwlab rulings` results "
                                                             f"file (no {', '.join(missing)})")])
    return doc


def ranking_table(doc: dict) -> pd.DataFrame:
    """One row per alternative, in rank order: what the text's ranking shows."""
    rows = []
    for r in doc["alternatives"]:
        t = r["largest_team"]
        rows.append({"rank": r["rank"], "ruling": r["ruling"], "change": r["label"],
                     "default": json.dumps(r["default"]), "matters": r["matters"],
                     "score": r["score"], "team_abs_z": r["team_z"],
                     "team_critical_z": r["team_critical_z"], "card_abs_z": r["card_z"],
                     "card_critical_z": r["card_critical_z"], "largest_team": t["name"],
                     "delta_win_points": 100 * t["delta"], "low": 100 * t["low"],
                     "high": 100 * t["high"],
                     "verdicts_changed": "; ".join(r["verdicts_changed"]) or "none",
                     "identical_games": r["identical_games"]})
    return pd.DataFrame(rows)


def rulings_section(page, path: Path) -> pd.DataFrame:
    """Add the section to ``page``; returns its table (also written as rulings.csv)."""
    doc = load_results(path)
    st = doc["study"]
    table = ranking_table(doc)
    page.heading("Which house rulings matter", "rulings")
    page.text(doc["conclusion"])
    page.text(f"Each alternative of {doc.get('alternatives_file', 'experiments/rulings.toml')} "
              f"changes one value of a copy of cards/ and replays the same study with the same "
              f"seeds: fairness of {st['teams']} ({st['fairness_design']}) and card ratings from "
              f"{st['rating_experiment']} ({st['rating_design']}), policy {st['policy']}. "
              f"Δ = alternative − default, in win-rate points, 95 % intervals clustered by board; "
              f"score = the largest |z| / its Bonferroni critical value (teams and cards each "
              f"at 2.5 % per alternative): above 1, the alternative matters; a verdict that "
              f"flips without it is borderline. From {Path(path).name}; "
              f"docs/rulings-impact.md.")
    page.table(table)
    return table
