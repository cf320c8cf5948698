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


def drift_balance_lines(balance) -> list[str]:
    """Each matchup's balance metrics: now, the baseline's, and the paired change."""
    out = []
    for b in balance:
        out += ["", f"Balance metrics of {b['matchup']} ({b['games']:,} games; {b['note']}):"]
        if b["before_source"] == "new baseline":
            out += ["  " + x for x in balance_text(b["now"], "balance")]
            continue
        out += ["  now: " + x for x in balance_text(b["now"], "balance")]
        if b["before"] is None:
            out.append(f"  baseline: {b.get('before_missing', 'not recorded in the baseline')}")
            continue
        source = {"recorded": "the baseline's recorded games",
                  "replayed": "the baseline's cards replayed on the same seeds"}
        out += ["  baseline: " + x for x in balance_text(b["before"], "balance")]
        out.append(f"  change (paired on the same seeds, 95 % intervals clustered by board; "
                   f"before = {source.get(b['before_source'], b['before_source'])}; "
                   f"* moved, {HOLM_WORDS}, its interval given the mark):")
        out += change_lines(b["change"], set(b.get("endings_changed", ())), "    ",
                            b.get("endings_given_mark"))
        bal0, bal1 = b["before"]["balance"], b["now"]["balance"]
        out.append(f"      {'balance (Ludii)':<41}{bal0['balance']:.3f} → {bal1['balance']:.3f}")
    return out


HOLM_WORDS = "Holm over every matchup's endings at the suite's alpha"


def moved_endings_sentence(balance) -> str:
    """The conclusion's sentence on the endings that moved (:func:`.drift_balance.
    mark_moved_endings`), or "" when none did: the verdict "No drift" is about win rates, and a
    change that moved how games end must not hide above it among the intervals."""
    from sim.analysis.balance_change import ENDING_WORDS, given_words

    parts = [f"{b['matchup']}: " + ", ".join(
        f"{ENDING_WORDS.get(k, k)} "
        f"{given_words(b['change']['endings'][k], b.get('endings_given_mark', {}).get(k))}"
        for k in b["endings_changed"]) for b in balance if b.get("endings_changed")]
    if not parts:
        return ""
    return (" How games end moved (informational, not the exit code; " + HOLM_WORDS + "): "
            + "; ".join(parts) + ".")
