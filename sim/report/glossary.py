"""One line per statistic the report shows: what it means and how to read it.

Why a table of its own: every column of every report table carries its line as a tooltip and in a
key under the table, so "variance_ratio_vs_unpaired" or a p-value never stands unexplained; a test
checks that no column of the report goes without one.
"""

from __future__ import annotations

# the rulings' endings table: a marked share's interval is the one given Holm's mark, as
# `bwlab rulings` prints it (sim/report/rulings_section._endings_row)
_ENDING_CHANGE = ("Change of that share against the book, in points, paired on the same seeds, "
                  "with its 95 % interval clustered by board (a marked share's: given its mark).")

COLUMNS = {
    # cards
    "card": "The character card.",
    "rarity": "The card's printed rarity (Bronze < Silver < Gold < Diamond < Legendary < GOAT "
              "Series).",
    "suit": "The card's suit.",
    "base_star": "The dice of one attack action with a base (no colour) star: attacks × tier.",
    "base_mean": "Mean damage of one base-star attack action against the typical defender.",
    "base_actions_to_kill": "Base-star attack actions needed to kill the typical defender with "
                            "at least even odds.",
    "red_star": "The dice of one attack action with a red star (health at most half).",
    "red_mean": "Mean damage of one red-star attack action against the typical defender.",
    "blue_star": "The dice of one attack action with a blue star.",
    "blue_mean": "Mean damage of one blue-star attack action against the typical defender.",
    "green_star": "The dice of one attack action with a green star.",
    "green_mean": "Mean damage of one green-star attack action against the typical defender.",
    # power curve
    "power": "Power score from the card's stats alone (docs/power-curve.md); no games played.",
    "band_low": "Lowest power the card's rarity allows (power curve: cards/power_curve.toml), "
                "or lowest rating (ratings and remedies: halfway to the next lower rarity's "
                "median rating in play).",
    "band_high": "Highest power the card's rarity allows (power curve), or highest rating "
                 "(ratings and remedies: halfway to the next higher rarity's median rating). "
                 "– (both band columns): no edge on that side (the lowest or highest rarity).",
    "in_band": "Whether the card's power lies inside its rarity's band.",
    "cards": "Number of cards of this rarity.",
    "min": "Lowest power score of the rarity.",
    "median": "Median power score of the rarity: these should rise with rarity.",
    "max": "Highest power score of the rarity.",
    # fairness
    "player": "The AI player every team was played by in this check (docs/ai.md).",
    "player_verdict": "The fairness check's verdict under that player: fair, unfair or inconclusive.",
    "team": "The team, as named in the teams file.",
    "win_probability": "Share of games the team won (a shared game counts 1/4 to each); fair is "
                       "25 %.",
    "low": "Lower end of the 95 % interval of the estimate on its left (clustered by board); "
           "in the fairness section's team and pair tables 95 % for all rows together "
           "(simultaneous: each row's level is said above the table).",
    "high": "Upper end of the 95 % interval of the estimate on its left (clustered by board); "
            "in the fairness section's team and pair tables 95 % for all rows together "
            "(simultaneous: each row's level is said above the table).",
    "variance_ratio_vs_unpaired": "Variance of the win rate under duplicate play ÷ under "
                                  "unpaired play: below 1, seating every team on every board "
                                  "saved games (0.5 = half the games for the same precision).",
    "team_a": "First team of the pair.",
    "team_b": "Second team of the pair.",
    "difference": "Win probability of team_a minus team_b (simultaneous interval in low/high).",
    "told_apart": "True when the pair's interval excludes 0: play tells the two teams apart.",
    # card ratings
    "win_when_held": "Designers' number: share of games won by the teams holding the card, with "
                     "its 95 % interval (fair: 25 %; an outlier's simultaneous over the cards "
                     "in play, which holds given its flag).",
    "win_rate_held": "Share of games won by the teams holding the card (fair: 25 %).",
    "win_low": "Lower end of the 95 % interval of win_rate_held (clustered by board; an "
               "outlier's simultaneous over the cards in play, given its flag).",
    "win_high": "Upper end of the 95 % interval of win_rate_held (clustered by board; an "
                "outlier's simultaneous over the cards in play, given its flag).",
    "games": "Games played (for a card: games its team held it).",
    "plays_like": "The rarity whose median rating (the medians in the book's order) is "
                  "nearest the card's; for a flagged card, only among the rarities on the "
                  "side it strays to: where play puts the card.",
    "rating": "The card's share of its team's strength (Plackett-Luce log-strength, centred at "
              "0): above 0 stronger than the average card.",
    "outlier": "strong / weak: the rating is outside its rarity's band by a one-sided test, "
               "Holm-corrected over the cards in play; blank: not shown to stray.",
    # remedies
    "direction": "nerf (make weaker) or buff (make stronger).",
    "change": "The change tried: one characters.csv cell, old → new (remedies), or the ruling's "
              "alternative value (rulings).",
    "power_delta": "How far the change moves the power score.",
    "power_after": "The card's power score with the change (its stats alone).",
    "power_before": "The card's power score before the change (its stats alone).",
    "power_in_band": "Whether power_after stays inside the rarity's power band "
                     "(cards/power_curve.toml); False with power_before inside it: the change "
                     "breaks the stat band (the power curve misjudges the card: a new rarity or "
                     "another ability); False with power_before already outside: the stats too "
                     "say the card strays, and the change is not enough by stats.",
    "rating_before": "The card's rating before the change.",
    "rating_after": "The card's rating in the replayed games with the change.",
    "rating_after_low": "Lower end of the 95 % interval of rating_after.",
    "rating_after_high": "Upper end of the 95 % interval of rating_after.",
    "status": "lands: inside the band; unsettled: the interval is not yet; overshoots / short: "
              "no allowed step lands it.",
    "by_ratings_only": "True when overshoots / short is read from the ratings while the nearest "
                       "change's interval still reaches into the band: not shown by the games.",
    # the total over every change checked, not the shown change's (the report audit of stop 78:
    # 84 read as the shown change's games, which had 7)
    "checks_run": "How many changes were checked for this card.",
    "games_per_check": "Games replayed with each change checked (the shown change's).",
    "games_replayed": "Games replayed for this card in all: every change checked, and the "
                      "confirmation.",
    "remedy": "Remedy search result.",
    # rulings
    "rank": "Rank of the alternative by score (1 matters most).",
    "ruling": "The house ruling (a key of cards/rules.toml).",
    "default": "The ruling's value as shipped.",
    "matters": "True when p_holm is at most 0.05: a gap to close first (5 % over the list).",
    "score": "Largest |z| ÷ its Bonferroni critical value: above 1, beyond its own test's noise.",
    "p_holm": "The alternative's p-value, Holm-adjusted over the alternatives tested.",
    "team_abs_z": "Largest |z| of a team's win-rate change.",
    "team_critical_z": "The |z| a team's change must pass (Bonferroni over teams, 2.5 %).",
    "card_abs_z": "Largest |z| of a card's rating change.",
    "card_critical_z": "The |z| a card's change must pass (Bonferroni over cards, 2.5 %).",
    "largest_team": "The team whose win-rate change has the largest |z| (not always the "
                    "largest in points).",
    "delta_win_points": "That team's win-rate change, alternative − default, in points.",
    "low_simultaneous": "Lower end of that change's interval, simultaneous over the four teams "
                        "(it was picked as the largest: its own 95 % interval would be too "
                        "narrow).",
    "high_simultaneous": "Upper end of that change's interval, simultaneous over the four teams.",
    "verdicts_changed": "Verdicts (fair, outliers) that flip under the alternative.",
    "identical_games": "True when every game of the study (winner, decisions, length) is "
                       "the book default's: the alternative changed nothing here.",
    "rule_set": "The book default, or one alternative (key = value) replayed on the same seeds.",
    "median_rotations": "Median game length in rotations (Ludii's Duration).",
    "mean_lead_changes": "Mean number of times per game the leading team (most health of living "
                         "characters at a rotation's end) changes (Ludii's LeadChange).",
    "balance": "1 − the largest gap between two teams' win rates (Ludii's Balance; 1 = even).",
    "endings_changed": "The endings whose share changes against the book, after Holm's "
                       "correction over every alternative and ending (5 % family-wise).",
    "last_standing_pct": "Share of games ending by last team standing, %.",
    "last_standing_change": _ENDING_CHANGE,
    "same_step_pct": "Share of games ending by same-step elimination decided by health (the "
    "book's tie-break), %.",
    "same_step_change": _ENDING_CHANGE,
    "stalemate_pct": "Share of games ending by stalemate (most health wins), %.",
    "stalemate_change": _ENDING_CHANGE,
    "rotation_cap_pct": "Share of games ending by the rotation cap (most health wins), %.",
    "rotation_cap_change": _ENDING_CHANGE,
    "no_winner_pct": "Share of games with no winner (Ludii's Drawishness), %.",
    "no_winner_change": _ENDING_CHANGE,
    # swaps
    "proposal": "The surrogate's proposal, best predicted first.",
    "swaps": "The card swaps of the proposal (card, its team ↔ card, its team).",
    # one column name in two tables: the swaps' and the card ratings' (the report audit of stop
    # 81: the ratings' "undecided" was explained as the swaps' fair / unfair / open)
    "verdict": "Swaps: what duplicate play called the swapped teams: fair / unfair / open. "
               "Card ratings: in band (shown inside its rarity's band) / weak or strong (shown "
               "outside it) / undecided (neither yet: more games) / not played.",
    "largest_gap_from_25": "Largest distance of a team's win rate from 25 % in those games "
                           "(not Balance's gap between two teams).",
    # drift
    "metric": "A win rate the drift gate watches (one matchup, one team).",
    "before": "Win rate in the baseline's games.",
    "now": "Win rate in today's games, paired with the baseline's on the same seeds.",
    "elo_change": "The change on the Elo scale (70 Elo ≈ 25 % → 33 %), with its interval.",
    "decision": "no_drift / drift_up / drift_down / inconclusive: the paired sequential test's "
                "call at its error rates.",
}

TERMS = {
    "p-value": "p = chance of a difference at least this large if there were none: small "
               "(below 0.05) means a real effect.",
    "interval": "95 % interval: the range that holds the true value in 95 of 100 repeats of the "
                "study; 'simultaneous' holds for all teams at once.",
    "clustered by board": "Games on one board are not independent, so the boards, not the games, "
                          "count as the independent draws behind each interval.",
}


def explain(column: str) -> str:
    """The one-line explanation of a report column ('' when it has none: a test forbids that)."""
    return COLUMNS.get(column, "")
