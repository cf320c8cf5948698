"""``bwlab fairness --policies``: does the verdict hold for stronger players? (issue #25 item 3)

The check is played once per player, with the same seed (the same boards, deals and dice
streams), each settling on its own schedule; the verdicts are printed side by side and a
disagreement is flagged. Why: a GM acting on "fair" under greedy play wants to know whether
expert play (the look-ahead) agrees; when it does not, the honest answer is "it depends on the
players", and the exit code says inconclusive (3).
"""

from __future__ import annotations

import click

def players_doc(per_player: dict[str, dict]) -> dict:
    """The side-by-side verdicts as plain data: per player its status, conclusion and each
    team's chance with its interval; whether all players agree, the exit code for scripts (the
    shared verdict's, or 3 inconclusive when they contradict or some has not settled: ``agree``
    is then False or None) and the answer in one sentence."""
    from sim.analysis.fairness import players_verdict

    agree, code, sentence = players_verdict({label: d["verdict"]
                                             for label, d in per_player.items()})
    return {"players": {label: {"verdict": d["verdict"], "conclusion": d["conclusion"],
                                "games": d["games"], "design": d["design"],
                                "teams": [{k: t[k] for k in ("team", "name", "win_probability",
                                                             "low", "high")}
                                          for t in d["teams"]]}
                        for label, d in per_player.items()},
            "agree": agree, "exit_code": code, "conclusion": sentence}


def echo_players(doc: dict) -> None:
    """Each team's chance under each player, side by side, disagreements marked."""
    labels = list(doc["players"])
    first = doc["players"][labels[0]]
    click.echo("")
    click.echo("By player (same seed: same boards, deals and dice streams; each check settles on "
               "its own):")
    width = [max(24, len(lab) + 2) for lab in labels]  # a weights file's path can be long
    click.echo(f"{'team':<28}" + "".join(f"{lab:>{w}}" for lab, w in zip(labels, width)))
    for k, t in enumerate(first["teams"]):
        cells = []
        for lab in labels:
            u = doc["players"][lab]["teams"][k]
            cells.append(f"{100 * u['win_probability']:5.1f} ({100 * u['low']:4.1f}–"
                         f"{100 * u['high']:4.1f})")
        click.echo(f"{t['team']} {t['name'][:25]:<26}" + "".join(f"{c:>{w}}"
                                                                 for c, w in zip(cells, width)))
    from sim.analysis.fairness import STATUS_WORDS

    click.echo(f"{'verdict':<28}" + "".join(
        f"{STATUS_WORDS[doc['players'][lab]['verdict']]:>{w}}" for lab, w in zip(labels, width)))
    click.echo(f"{'games':<28}" + "".join(f"{doc['players'][lab]['games']:>{w},}"
                                         for lab, w in zip(labels, width)))
    if doc["agree"] is False:
        click.echo("!! the players disagree: the verdict depends on how well the teams are played")
    elif doc["agree"] is None:
        click.echo("not every player's check has settled; no two verdicts contradict")
