"""What ``bwlab rarity`` writes for scripts: the per-card table (rarity_cards.csv, with the
``--remedy`` columns), the table by player (rarity_policies.csv), each rarity's range of
ratings, the ``--card`` answers as data and the JSON document. The text for reading, which
prints these, is :mod:`sim.cli.rarity_text`; the JSON's one-sentence conclusion comes from there,
so the two never word it differently."""

from __future__ import annotations

import json

from .rarity_text import conclusion_line


def card_frame(catalogue, run):
    """rarity_cards.csv: one row per card, by rarity then rating (``run``: ``rarity.RarityRun``)."""
    import numpy as np

    import pandas as pd

    from sim.ai.play import CARD_COLUMNS

    rules, names, s, rar = catalogue.rules, catalogue.cards.names, run.s, run.rar
    record = dict(zip(CARD_COLUMNS, run.per_card.T))  # runner.rarity.card_records' columns
    frame = pd.DataFrame({
        "card": names, "rarity": [rules.rarities[r] for r in rar],
        "win_rate": s.wins / np.maximum(s.held, 1), "win_low": s.win_low, "win_high": s.win_high,
        # a flagged card's, given its flag: simultaneous over the cards in play; blank otherwise
        "win_low_given_flag": _or_blank(s.win_flag_low, s.rating),
        "win_high_given_flag": _or_blank(s.win_flag_high, s.rating),
        "games": s.held.astype(int),
        "plays_like": [rules.rarities[r] for r in s.implied_rarity],
        "outlier": np.select([s.outlier < 0, s.outlier > 0], ["weak", "strong"], ""),
        "verdict": s.verdict, "games_to_settle": s.games_to_settle(),
        "p_value": s.p_value, "p_adjusted": s.p_adjusted,
        "rating": s.rating, "rating_low": s.rating_low, "rating_high": s.rating_high,
        # a flagged card's interval given its flag (sim.runner.rarity_flags); blank otherwise
        "rating_low_given_flag": _or_blank(s.flag_low, s.rating),
        "rating_high_given_flag": _or_blank(s.flag_high, s.rating),
        "band_low": s.band_low, "band_high": s.band_high,
        "damage_dealt": record["dealt"], "damage_taken": record["taken"], "kills": record["kills"],
        "survival": record["alive"],
        "reference_card": [names[r] for r in run.reference],
        "ablation_games": run.ablation.count, "ablation_effect": run.ablation.effect,
        **ablation_bounds(run.ablation),
        **remedy_columns(run.fixes, names),
        **({} if run.recur is None else {"recurrence": run.recur.count()}),
    })
    # a card no drawn team held has no measure: blank, not a win rate of 0 or a rating of 0
    # with an interval of +-5e-11 (its verdict says "not played"; its band is its rarity's)
    idle = np.asarray(s.held) <= 0
    frame.loc[idle, list(NOT_PLAYED_BLANK)] = np.nan
    frame["plays_like"] = frame["plays_like"].where(~idle, "")
    rank = {r: i for i, r in enumerate(rules.rarities)}
    return frame.sort_values(["rarity", "rating"],
                             key=lambda c: c.map(rank) if c.name == "rarity" else c)


# rarity_cards.csv's estimates from play: blank for a card not in play (its damage, kills
# and survival stay 0 over its 0 games: scripts weigh them by games)
NOT_PLAYED_BLANK = ("win_rate", "win_low", "win_high", "games_to_settle", "p_value",
                    "p_adjusted", "rating", "rating_low", "rating_high")


def _or_blank(column, like):
    """``column``, or blanks shaped ``like`` for a study made without it."""
    import numpy as np

    return np.full(np.shape(like), np.nan) if column is None else column


def ablation_bounds(ablation) -> dict:
    """``ablation_low`` / ``ablation_high`` of rarity_cards.csv: the 95 % interval of
    ``ablation_effect`` (the mean paired change in the card's team's chance to win, original
    minus replay with the card swapped for ``reference_card``), clustered by the board each
    replayed game was played on: t on the card's boards - 1 degrees of freedom (sd / sqrt(n), t
    on n - 1, when its games lie on one board). It was effect +- 1.96 independent-games
    standard errors, too narrow for games that share boards
    (``sim.runner.rarity_ablation.ablation_interval``, docs/intervals.md), within [-1, 1].
    Blank without an interval (``--ablation 0``, or a single replayed game); ``ablation_effect``
    is blank too when no game of the card was replayed."""
    return {"ablation_low": ablation.low, "ablation_high": ablation.high}


def rarity_ranges(s, rar, rarities) -> list[dict]:
    """Per rarity: the median, lowest and highest rating of its cards in play (None for a
    rarity a pool experiment left out of play)."""
    import numpy as np

    played = s.held > 0
    return [{"rarity": r, "median_rating": float(s.rarity_median[i]),
             "min": float(s.rating[played & (rar == i)].min()),
             "max": float(s.rating[played & (rar == i)].max())} if np.any(played & (rar == i))
            else {"rarity": r, "median_rating": None, "min": None, "max": None}
            for i, r in enumerate(rarities)]


def json_doc(frame, run, per, correction, remedy, catalogue, exp=None) -> dict:
    """``--format json``: the study, its rarities and cards, and what was asked beside it.

    The rarity order: ``order_verdict`` is "holds" (every adjacent pair of rarities in play
    shown in order), "does not hold" (some pair shown reversed) or "not settled" (neither),
    at family-wise 5 % (``sim.analysis.rarity_order.order_test``); ``order_test`` holds its level,
    method and per pair (``pairs``: lower, upper, difference of medians, its SE, p_value,
    p_adjusted, status "in order" / "reversed" / "not settled"). ``ordered`` is only whether
    the medians' point estimates rise (no uncertainty), kept for older scripts."""
    s = run.s
    doc = {"games": s.games, "boards": s.boards, "design": s.design,
           # what played them, as the table's first line and power-levels' JSON say (the
           # JSON named neither the player nor the seed: the consistency audit of 2026-12-06)
           **({} if exp is None else {"experiment": str(exp.path or exp.name),
                                      "policies": list(dict.fromkeys(exp.policies)),
                                      "root_seed": exp.root_seed}),
           "order_verdict": s.order_verdict, "order_test": order_doc(s, catalogue.rules.rarities),
           "ordered": s.ordered,
           "correction": correction,
           "conclusion": conclusion_line(frame, s, correction,
                                         1 if run.recur is None else run.recur.runs),
           "games_balance": run.balance.as_dict(), "rarities": per,
           "cards": json.loads(frame.to_json(orient="records"))}
    if run.recur is not None:
        doc["replicates"] = run.recur.summary()
    if remedy:
        doc["remedies"] = run.fixes
    if run.compared is not None:  # beside the list of policies, which keeps its shape (rarity/2)
        doc["by_policy"] = policy_doc(run.compared, catalogue.cards.names,
                                      catalogue.rules.rarities)
    return doc


def order_doc(s, rarities) -> dict | None:
    """JSON of the study's order test (None for a study without one)."""
    return None if s.order is None else s.order.as_dict(list(rarities))


def card_answers(frame, catalogue, curve, asked: list[int]) -> list[dict]:
    """``--card NAME``: each named card's answer, in play (its row of rarity_cards.csv) and by
    its stats (power score against its rarity's band of power_curve.toml). Why: a designer who
    added a card saw it nowhere in the text unless it was an outlier, and the stats' verdict only
    in ``bwlab validate`` and the report (the designer audit)."""
    from sim.catalogue.power import power_score

    names = catalogue.cards.names
    score = power_score(catalogue.cards, catalogue.rules)
    rows = frame.set_index("card")
    out = []
    for c in asked:
        row = rows.loc[names[c]]
        lo, hi = (float(x) for x in curve.bands[catalogue.cards.rarity[c]])
        out.append({"card": names[c], "rarity": row["rarity"], "verdict": row["verdict"],
                    "win_rate": float(row["win_rate"]), "win_low": float(row["win_low"]),
                    "win_high": float(row["win_high"]), "games": int(row["games"]),
                    "plays_like": row["plays_like"], "rating": float(row["rating"]),
                    "rating_low": float(row["rating_low"]),
                    "rating_high": float(row["rating_high"]),
                    "band_low": float(row["band_low"]), "band_high": float(row["band_high"]),
                    "games_to_settle": (None if row["verdict"] != "undecided"
                                        else float(row["games_to_settle"])),
                    "power": float(score[c]), "power_band": [lo, hi],
                    "power_in_band": bool(lo <= score[c] <= hi), "power_curve": curve.path})
    return out


OUTLIER_WORD = {-1: "weak", 0: "", 1: "strong"}


def policy_frame(a, names, card_rarity):
    """rarity_policies.csv: one row per card, its rating, interval and outlier flag per player."""
    import pandas as pd

    cols = {"card": list(names), "rarity": list(card_rarity)}
    for j, label in enumerate(a.labels):
        st = a.studies[j]
        cols[f"games[{label}]"] = st.held.astype(int)
        cols[f"rating[{label}]"] = st.rating
        cols[f"rating_low[{label}]"] = st.rating_low
        cols[f"rating_high[{label}]"] = st.rating_high
        cols[f"outlier[{label}]"] = [OUTLIER_WORD[int(x)] for x in a.outlier[:, j]]
    cols["verdict"] = ["same under every player" if r else "depends on the player" if d else
                       "not settled under every player" if u else ""
                       for r, d, u in zip(a.robust, a.disputed, a.unsettled)]
    return pd.DataFrame(cols)


def policy_doc(a, names, rarities) -> dict:
    """JSON ``policies``: per player ``order_verdict`` ("holds" / "does not hold" / "not
    settled", family-wise 5 %) and ``ordered`` (the medians' point estimates only);
    ``order_holds_everywhere``: the verdict is "holds" under every player."""
    import numpy as np

    return {
        "players": list(a.labels),
        "order_verdict": dict(zip(a.labels, a.order_verdicts)),
        "ordered": {lab: bool(ok) for lab, ok in zip(a.labels, a.ordered)},  # point estimates
        "order_holds_everywhere": a.order_holds_everywhere,
        "robust_outliers": [names[c] for c in np.flatnonzero(a.robust)],
        "disputed_outliers": {names[c]: {lab: str(a.verdicts[c, j])
                                         for j, lab in enumerate(a.labels)}
                              for c in np.flatnonzero(a.disputed)},
        "unsettled_outliers": {names[c]: {lab: str(a.verdicts[c, j])
                                          for j, lab in enumerate(a.labels)}
                               for c in np.flatnonzero(a.unsettled)},
        "rarity_medians": {lab: [None if np.isnan(m) else float(m)
                                 for m in a.studies[j].rarity_median]
                           for j, lab in enumerate(a.labels)},
        "rarities": list(rarities),
        "spearman": {f"{a.labels[i]} vs {a.labels[j]}": float(a.spearman[i, j])
                     for i in range(len(a.labels)) for j in range(i + 1, len(a.labels))},
    }


REMEDY_COLUMNS = ("status", "by_ratings_only", "change", "power_delta", "power_in_band",
                  "rating_before", "rating_after", "rating_after_low", "rating_after_high",
                  "band_low", "band_high", "games_replayed")


def remedy_columns(fixes: list[dict], names) -> dict:
    """``remedy_*`` columns of rarity_cards.csv: blank for cards without a remedy. The remedy is
    measured on a base study of its own, so it carries that study's rating before the change and
    band (``remedy_rating_before``, ``remedy_band_low`` / ``_high``; blank: an open end): read
    against the row's ``rating`` and ``band_*`` (the flagging study's) it moved the card by
    another amount against another band than the table says (the rarity audit of stop 77)."""
    row = {f["card"]: f for f in fixes}
    return {f"remedy_{k}": [row[n][k] if n in row else None for n in names] for k in REMEDY_COLUMNS}
