"""``bwlab fairness --policies``: does the verdict hold for stronger players? (issue #25 item 3)

The check is played once per player, with the same seed (the same boards, deals and dice
streams), each settling on its own schedule; the verdicts are printed side by side and a
disagreement is flagged. Why: a GM acting on "fair" under greedy play wants to know whether
expert play (the look-ahead) agrees; when it does not, the honest answer is "it depends on the
players", and the exit code says inconclusive (3).
"""

from __future__ import annotations

import click

WORD = {"open": "inconclusive"}  # the check's status "open", as the GM reads it


def parse_players(text: str, budget: int | None) -> list[str]:
    """The comma-separated players, validated and labelled (BadParameter: exit 2)."""
    from ._policy import policy_label

    labels = [policy_label(p.strip(), budget) for p in text.split(",") if p.strip()]
    if len(labels) < 2:
        raise click.BadParameter("name at least two players, e.g. greedy,lookahead:16",
                                 param_hint="--policies")
    if len(set(labels)) != len(labels):
        raise click.BadParameter(f"players must differ: {text}", param_hint="--policies")
    return labels


def players_doc(per_player: dict[str, dict]) -> dict:
    """The side-by-side verdicts as plain data: per player its status, conclusion and each
    team's chance with its interval; whether all players agree; the exit code for scripts
    (the shared verdict's, or 3 inconclusive when they disagree)."""
    from sim.analysis.fairness import EXIT_CODES, OPEN

    statuses = {d["verdict"] for d in per_player.values()}
    agree = len(statuses) == 1
    return {"players": {label: {"verdict": d["verdict"], "conclusion": d["conclusion"],
                                "games": d["games"], "design": d["design"],
                                "teams": [{k: t[k] for k in ("team", "name", "win_probability",
                                                             "low", "high")}
                                          for t in d["teams"]]}
                        for label, d in per_player.items()},
            "agree": agree,
            "exit_code": EXIT_CODES[next(iter(statuses))] if agree else EXIT_CODES[OPEN]}


def players_conclusion(doc: dict) -> str:
    """One sentence: the shared verdict, or which player says what."""
    said = "; ".join(f"{label}: {WORD.get(d['verdict'], d['verdict'])}"
                     for label, d in doc["players"].items())
    if doc["agree"]:
        return f"Every player agrees ({said})."
    return (f"The verdict depends on the players ({said}): inconclusive until the stronger "
            f"player's verdict is the one acted on.")


def echo_players(doc: dict) -> None:
    """Each team's chance under each player, side by side, disagreements marked."""
    labels = list(doc["players"])
    first = doc["players"][labels[0]]
    click.echo("")
    click.echo("By player (same seed: same boards, deals and dice streams; each check settles on "
               "its own):")
    click.echo(f"{'team':<28}" + "".join(f"{lab:>24}" for lab in labels))
    for k, t in enumerate(first["teams"]):
        cells = []
        for lab in labels:
            u = doc["players"][lab]["teams"][k]
            cells.append(f"{100 * u['win_probability']:5.1f} ({100 * u['low']:4.1f}–"
                         f"{100 * u['high']:4.1f})")
        click.echo(f"{t['team']} {t['name'][:25]:<26}" + "".join(f"{c:>24}" for c in cells))
    click.echo(f"{'verdict':<28}" + "".join(
        f"{WORD.get(doc['players'][lab]['verdict'], doc['players'][lab]['verdict']):>24}"
        for lab in labels))
    click.echo(f"{'games':<28}" + "".join(f"{doc['players'][lab]['games']:>24,}"
                                         for lab in labels))
    if not doc["agree"]:
        click.echo("!! the players disagree: the verdict depends on how well the teams are played")
