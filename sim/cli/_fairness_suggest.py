"""`bwlab fairness --suggest`: swaps proposed by the card-rating surrogate, each judged by
duplicate play until one is fair (:mod:`sim.runner.confirm`), and the advice in words. The
report's swaps section runs the same search (``sim.cli.report._suggester``)."""

from __future__ import annotations

from ._fairness_text import best_closer_than_given
from ._numbers import best_of_words, counted


def _pool_experiment(catalogue, rating_experiment, policy):
    """The pool experiment behind the --suggest ratings, played by the check's own player."""
    from sim.engine.state.fields import POLICY_IDS
    from sim.runner.experiment import load_experiment, with_policy

    return with_policy(load_experiment(rating_experiment, catalogue.cards, tuple(POLICY_IDS)),
                       policy)


def _no_swap_needed(data: dict) -> dict:
    """--suggest on teams the check has just called fair: no search, no games, no "fix".

    Why: a swap "confirmed fair" beside a verdict that the teams already are fair reads as
    advice to change teams that need no change (the search used to run whatever the verdict)."""
    return {"needed": False, "confirmed": None, "best": None, "tried": [],
            "proposals_played": 0, "games": 0,
            "conclusion": f"No swap needed: the teams play fair as given ({data['design']}); "
                          f"no swap was searched."}


def _suggest(catalogue, teams, k, n_proposals, rating_games, rating_experiment, policy, seed,
             games, round_games, boards, tolerance, gap_as_given: float | None = None,
             proposals_option: str = "--proposals") -> dict:
    """Swaps proposed by the rating surrogate, each judged by duplicate play until one is fair
    (:mod:`sim.runner.confirm`); only a confirmed set is advice. ``proposals_option``: how the
    conclusion names --proposals where the caller has none (the report)."""
    from sim.analysis.fairness import advice_alpha
    from sim.catalogue.teams import Teams
    from sim.runner.confirm import confirm
    from sim.runner.fairness import check_fairness
    from sim.runner.suggest import card_ratings, swap_proposals

    names = catalogue.cards.names
    rating = card_ratings(catalogue, _pool_experiment(catalogue, rating_experiment, policy),
                          rating_games)
    proposals = swap_proposals(teams.cards, rating, k)[:n_proposals]

    alpha = advice_alpha(0.05, len(proposals))   # the check's own 5 %, split past 8

    def judge(cards, n):
        return check_fairness(catalogue, Teams(teams.names, cards, teams.path), policy=policy,
                              seed=seed, max_games=n, round_games=round_games, boards=boards,
                              tolerance=tolerance, alpha=alpha)

    result = confirm(proposals, judge, budget=games * n_proposals, per_check=games,
                     stage="confirming the swaps by play")

    def describe(trial) -> dict:
        v = trial.report.verdict
        return {"swaps": [{"team_a": s.team_a + 1, "card_a": names[s.card_a],
                           "team_b": s.team_b + 1, "card_b": names[s.card_b],
                           "predicted_gap_after": s.gap_after} for s in trial.label],
                "verdict": v.status, "text": v.text, "games": trial.report.games,
                "design": v.design, "largest_gap_from_25": trial.gap,
                "interval_level": v.level,  # of the teams' low/high (simultaneous, as fairness')
                "teams": [{"name": teams.names[t], "cards": [names[c] for c in trial.teams[t]],
                           "win_probability": float(v.rate[t]), "low": float(v.lower[t]),
                           "high": float(v.upper[t])} for t in range(4)]}

    out = {"needed": True, "rating_games": rating_games, "proposals": len(proposals),
           "gap_as_given": gap_as_given, **result.as_dict(describe)}
    # said "NOT advised" when false; a script read it only by comparing the two gaps
    out["best_closer_than_given"] = best_closer_than_given(out)
    out["conclusion"] = _suggest_conclusion(out, proposals_option)
    return out


def _swap_words(swaps) -> str:
    return "; ".join(f"swap {s['card_a']} (team {s['team_a']}) with {s['card_b']} "
                     f"(team {s['team_b']})" for s in swaps)


def _suggest_conclusion(s: dict, proposals_option: str = "--proposals") -> str:
    """The advice in one sentence: a confirmed fix, or none found within the games played."""
    if s["confirmed"] is not None:
        c = s["confirmed"]
        return (f"Confirmed fix: {_swap_words(c['swaps'])}: fair in play (every team's interval "
                f"within {_range(c)}, {c['design']}).")
    if s["best"] is None:
        return "No swap to try: the surrogate finds no swap that makes the teams fairer."
    b = s["best"]
    given = s.get("gap_as_given")
    if best_closer_than_given(s) is False:
        # the best proposal measured no closer to fair than the teams as given: no advice
        return (f"No fair set found within {counted(s['games'], 'game')} "
                f"({counted(s['proposals_played'], 'proposal')} played), and no proposal "
                f"measured closer to fair than the teams as given (largest gap from 25 % "
                f"{100 * given:.1f} points as given, {100 * b['largest_gap_from_25']:.1f} for the "
                f"best proposal, {_swap_words(b['swaps'])}): no swap is advised; more "
                f"{proposals_option} or --suggest steps may find one.")
    return (f"No fair set found within {counted(s['games'], 'game')} "
            f"({counted(s['proposals_played'], 'proposal')} played); best found: "
            f"{_swap_words(b['swaps'])}, largest gap from 25 % "
            f"{100 * b['largest_gap_from_25']:.1f} points, {b['verdict']} (intervals {_range(b)})."
            f"{best_of_words(s['proposals_played'], 'proposals')}")


def _range(trial: dict) -> str:
    lo = min(t["low"] for t in trial["teams"])
    hi = max(t["high"] for t in trial["teams"])
    return f"{100 * lo:.1f}–{100 * hi:.1f} %"
