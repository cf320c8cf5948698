"""Team names must tell the teams apart: none empty, no two the same (issue #22 item 4).

Why here and not in the team-file loader: results, reports and verdicts name teams, and two
teams called "Red" (or one called "") make a fairness verdict unreadable. The loader
(``sim.catalogue.teams``) belongs to the catalogue layer, which keys the compile cache; this
check re-reads the file's key lines instead and reports ``file:line: teams.name: message``.
"""

from __future__ import annotations

from pathlib import Path

from sim.catalogue.diagnostics import Problems
from sim.catalogue.tomldoc import TomlDoc


def check_team_names(teams) -> None:
    """InputError, one line per problem, when a name in ``teams`` (a loaded ``Teams``) is empty
    or repeats another (case and surrounding spaces ignored)."""
    problems = Problems()
    doc = TomlDoc.load_or_raise(Path(teams.path), problems)
    seen: dict[str, int] = {}
    for i, name in enumerate(teams.names):
        key = ("teams", i, "name")
        if not name.strip():
            doc.add(key, f"team {i + 1} has an empty name")
            continue
        folded = name.strip().casefold()
        if folded in seen:
            doc.add(key, f"{name!r} is also team {seen[folded] + 1}'s name; give each team its own")
        seen.setdefault(folded, i)
    problems.raise_if_any()


def load_checked_teams(path, cards):
    """``load_teams`` followed by :func:`check_team_names`: what every command loading a team
    file uses."""
    from sim.catalogue.teams import load_teams

    teams = load_teams(path, cards)
    check_team_names(teams)
    return teams
