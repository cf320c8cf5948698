"""How games end under each rule set of ``bwlab rulings``, and which alternatives change it.

Why: a house ruling can leave every team's chance where it was and still change the game a
designer cares about: how often it ends by the same-step health tie-break, in a stalemate or at
the rotation cap, how long it lasts, how often the lead changes (issue #21 item 3). Each rule
set's metrics are :func:`sim.analysis.balance.game_balance` of all the study's games (both parts:
the four teams' duplicate play and the rating pool; the sides are the seats, since the pool's
teams are drawn afresh each game; every game clustered by its board, the two parts' boards apart),
plus Ludii's Balance of the four teams from the duplicate play (1 - the largest gap between two
teams' win rates, with the simultaneous interval of ``bwlab fairness``).

The study is paired (the same seeds under every rule set), so each alternative's change against
the book is the mean of per-game differences (:mod:`sim.analysis.balance_change`), clustered by
board. An alternative "changes how games end" when the share of some ending (the four engine
endings or "no winner") changes after Holm's correction over every alternative and ending
together (5 % family-wise over the whole comparison). It is a mark beside the ranking by
verdicts (:mod:`.rulings_compare`), not part of it: the ranking answers "which gaps move the
verdicts", the mark "which gaps change how games end".
"""

from __future__ import annotations

from sim.analysis.balance import balance_from_pairs, game_balance, pairwise_differences
from sim.analysis.balance_change import (NO_WINNER, balance_change, endings_given_marks,
                                         given_words, significant_endings)
from sim.analysis.fairness import game_values

from .rulings import StudyRun, pooled_games

SHORT_WORDS = {"simultaneous elimination": "same-step elimination"}  # in a sentence
ALPHA = 0.05           # family-wise over every alternative and ending (Holm)
CONFIDENCE = 0.95


def _sides(games: dict) -> dict:
    """The columns :func:`balance_change` reads, the winner as the winning seat."""
    return {"outcome": games["outcome"], "winner": games["winner_seat"],
            "rotations": games["rotations"], "lead_changes": games["lead_changes"]}


def rule_set_balance(run: StudyRun) -> dict:
    """One rule set's balance metrics (JSON-ready): ``games`` (every game of the study, by seat)
    and ``balance`` (the four teams' duplicate play, with its simultaneous interval)."""
    g = pooled_games(run)
    gb = game_balance(g["winner_seat"], g["outcome"], g["rotations"], clusters=g["cluster"],
                      winner_seat=g["winner_seat"], eliminated=g["eliminated"],
                      lead_changes=g["lead_changes"], confidence=CONFIDENCE)
    y = game_values(run.fair_winner).reshape(-1, 4, 4)
    pairs, level = pairwise_differences(y, clusters=run.fair_board, alpha=1 - CONFIDENCE)
    bal, low, high = balance_from_pairs(pairs)
    return {"games": gb.as_dict(),
            "balance": {"balance": bal, "low": low, "high": high, "level": level,
                        "games": int(run.fair_winner.size)}}


def ending_change(base: StudyRun, run: StudyRun):
    """The alternative's paired change against the book: every game of the study, by board."""
    g0, g1 = pooled_games(base), pooled_games(run)
    return balance_change(_sides(g0), _sides(g1), g0["cluster"], CONFIDENCE)


def mark_endings(results: list[dict], changes: list) -> None:
    """Add to each alternative's entry the endings whose share changes (Holm over all) and the
    adjusted p-values, and each changed ending's interval given Holm's mark (in place:
    ``endings_changed``, ``endings_p_holm``, ``endings_given_mark``)."""
    named, adjusted = significant_endings(changes, ALPHA)
    given = endings_given_marks([c.as_dict()["endings"] for c in changes], ALPHA)
    for r, words, p, interval in zip(results, named, adjusted, given):
        r["endings_changed"] = words
        r["endings_p_holm"] = p
        r["endings_given_mark"] = interval
        r["changes_endings"] = bool(words)


def endings_sentence(ranked: list[dict]) -> str:
    """The conclusion's sentence on how games end: which alternatives change it, and how."""
    moved = [r for r in ranked if r.get("changes_endings")]
    if not moved:
        return ("No alternative changes how games end beyond the noise (Holm, 5 % over every "
                "alternative and ending).")
    parts = []
    for r in moved:
        ch, given = r["ending_change"]["endings"], r.get("endings_given_mark", {})
        parts.append(f"{r['label']} (" + ", ".join(
            f"{SHORT_WORDS.get(k, k)} {given_words(ch[k], given.get(k))}"
            for k in r["endings_changed"]) + ")")
    return ("These change how games end (Holm, 5 % over every alternative and ending): "
            + "; ".join(parts) + ".")


def same_step_words(change: dict) -> str:
    """"same-step endings whose winner changed: 12 of 130" (or why there are none)."""
    both, moved = change["same_step_both"], change["same_step_winner_changed"]
    if both == 0:
        return "no game ends in a same-step elimination under both"
    return f"same-step endings (under both) whose winner changed: {moved:,} of {both:,}"


__all__ = ["ALPHA", "NO_WINNER", "ending_change", "endings_sentence", "mark_endings",
           "rule_set_balance", "same_step_words"]
