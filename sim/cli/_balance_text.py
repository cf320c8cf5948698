"""The balance metrics in words, from their JSON (``rulings`` and ``drift`` print from it).

Why from the JSON and not from :class:`sim.analysis.balance.GameBalance`: these commands print
their text from the document ``--format json`` writes, so the two never disagree.
"""

from __future__ import annotations

from sim.analysis.balance_change import ENDING_WORDS


def shares(games: dict) -> dict:
    """Each ending's share and "no winner", from ``GameBalance.as_dict()``."""
    out = {k: v["share"] for k, v in games["outcomes"].items()}
    out["no winner"] = games["drawishness"]["share"]
    return out


def _share(x: dict) -> str:
    return f"{100 * x['share']:.1f} % ({100 * x['low']:.1f}–{100 * x['high']:.1f})"


def balance_text(b: dict, balance_words: str, side: str = "team") -> list[str]:
    """One set of games' metrics: ``b`` holds ``games`` (``GameBalance.as_dict()``) and
    ``balance`` (Ludii's Balance with its simultaneous interval); ``side``: what the games'
    sides are ("team", or "seat" where the study's teams change from game to game)."""
    g = b["games"]
    ln, lead, bal = g["duration_rotations"], g["lead_changes"], b["balance"]
    # "no winner" on the length line, as sim.analysis.balance.balance_lines prints it: a game
    # no team won ended one of the ways listed too (the list summed past 100 %, stop 78)
    out = ["how games are decided: " + "; ".join(
        f"{ENDING_WORDS.get(k, k)} {_share(x)}" for k, x in g["outcomes"].items())
        + f" ({g['games']:,} games)",
        f"game length: median {ln['median']:g} rotations (middle half {ln['q1']:g}–"
        f"{ln['q3']:g}, 90 % under {ln['p90']:g}, longest {ln['max']:g}); no winner "
        f"(drawishness) {_share(g['drawishness'])}"]
    if lead:
        out.append(f"lead changes: mean {lead['mean']:.2f} per game, median {lead['median']:g};"
                   f" the lead changed at least once in {_share(lead['any'])} of games")
    if g.get("elimination"):
        out.append("first out (order of elimination): " + ", ".join(
            f"{side} {k + 1} {_share(e['first_out'])} (mean place {e['mean_place']:.2f})"
            for k, e in enumerate(g["elimination"]))
            + " (teams out in the same step are each first out: the shares can sum past 100 %)")
    seat = (f"; seat 1 wins {_share(g['seats'][0])} (AdvantageP1; seats' spread "
            f"{100 * g['seat_spread']:.1f} points)" if "seats" in g else "")
    out.append(f"{balance_words} (1 - largest gap between two teams' win rates, "
               f"{bal['games']:,} games): {bal['balance']:.3f} ({bal['low']:.3f}–"
               f"{bal['high']:.3f}, simultaneous){seat}")
    return out


def _delta(c: dict, scale: float = 100.0, unit: str = " points", digits: int = 1) -> str:
    d = digits
    return (f"{scale * c['before']:.{d}f} → {scale * c['after']:.{d}f}, Δ "
            f"{scale * c['change']:+.{d}f}{unit} [{scale * c['low']:+.{d}f}, "
            f"{scale * c['high']:+.{d}f}]")


def _given(c: dict, interval) -> dict:
    """``c`` with its interval replaced by ``interval`` (low, high), when there is one."""
    return c if interval is None else {**c, "low": interval[0], "high": interval[1]}


def change_lines(ch: dict, marked: set, indent: str, given: dict | None = None) -> list[str]:
    """A paired change (``BalanceChange.as_dict()``): each ending's share (``*`` for those in
    ``marked``), mean length and mean lead changes, before → after with Δ and interval; a
    marked ending's interval is the one ``given`` the mark where it has one
    (``balance_change.endings_given_marks``: the mark chose it for lying far from 0)."""
    given = given or {}
    out = [f"{indent}{'*' if k in marked else ' '} {ENDING_WORDS.get(k, k):<41}"
           f"{_delta(_given(c, given.get(k)) if k in marked else c)}"
           for k, c in ch["endings"].items()]
    out.append(f"{indent}  {'game length (mean rotations)':<41}"
               f"{_delta(ch['rotations'], 1.0, '')}")
    if ch["lead_changes"] is not None:
        out.append(f"{indent}  {'lead changes (mean per game)':<41}"
                   f"{_delta(ch['lead_changes'], 1.0, '', 2)}")
    return out
