"""Does a rarity verdict hold for weak and strong play alike? (``bwlab rarity --policies``)

Why: a card that looks overpowered only because one bot misplays against it is an artefact of
that bot, not a design problem. The same pool experiment (same team draws, boards, seats and
dice seeds) is played once per policy, the rarity study is fitted to each, and the verdicts are
compared: the rarity order, each card's outlier flag against its own policy's bands (the bands
are relative, so a player that expresses less skill — flatter ratings — is judged on its own
scale), and the rank agreement of the ratings (Spearman). A verdict that holds under every
player is robust. A card depends on the player only when two players' *settled* verdicts
contradict (strong under one, in band or weak under another): each is wrong at most at its own
rate. Strong under one and undecided under another is not a dispute but a question not yet
settled: counted as a dispute, a card planted alike under both players and about 3 standard
errors above its band "depended on the player" in 29 of 60 studies; now in 0 of 60 (and no card
of the 72 in any study), 29 of them "not settled under every player".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .rarity import DOES_NOT_HOLD, HOLDS, NOT_SETTLED, ORDER_ALPHA, RarityStudy

SETTLED = ("weak", "strong", "in band")  # RarityStudy.verdict words that a test has shown


@dataclass(frozen=True)
class PolicyAgreement:
    labels: tuple[str, ...]        # the players, as given
    studies: tuple[RarityStudy, ...]
    ordered: np.ndarray            # [P] the medians' point estimates in order (no uncertainty)
    outlier: np.ndarray            # [C, P] -1 weak, +1 strong, 0 in band, per player
    robust: np.ndarray             # [C] flagged alike (and flagged) under every player
    disputed: np.ndarray           # [C] flagged, and settled verdicts that contradict
    unsettled: np.ndarray          # [C] flagged under some players, undecided under others
    verdicts: np.ndarray           # [C, P] each player's verdict (RarityStudy.verdict)
    spearman: np.ndarray           # [P, P] rank correlation of the ratings (cards in play)
    spearman_p: np.ndarray         # [P, P] its two-sided p-value

    @property
    def order_verdicts(self) -> tuple[str, ...]:
        """[P] Bronze < ... < GOAT Series under each player: "holds", "does not hold" or "not
        settled" (``RarityStudy.order_verdict``, family-wise 5 %)."""
        return tuple(s.order_verdict for s in self.studies)

    @property
    def order_holds_everywhere(self) -> bool:
        """The order is shown to hold under every player (the three-way verdict, not the
        medians' point estimates)."""
        return all(v == HOLDS for v in self.order_verdicts)


def agreement(labels, studies) -> PolicyAgreement:
    """Compare rarity studies of the same games' setups under different players (module doc)."""
    from scipy.stats import spearmanr

    labels, studies = tuple(labels), tuple(studies)
    if len(labels) != len(studies) or len(labels) < 2:
        raise ValueError("agreement needs two or more players, one study each")
    outlier = np.stack([s.outlier for s in studies], axis=1)
    verdicts = np.stack([s.verdict for s in studies], axis=1)
    flagged = np.any(outlier != 0, axis=1)
    robust = np.all(outlier == outlier[:, :1], axis=1) & (outlier[:, 0] != 0)
    settled = np.isin(verdicts, SETTLED)
    kinds = [len(set(row[ok])) for row, ok in zip(verdicts, settled)]
    disputed = flagged & (np.array(kinds, dtype=np.int64) > 1)
    unsettled = flagged & ~robust & ~disputed
    n = len(studies)
    rho, p = np.eye(n), np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            both = (studies[i].held > 0) & (studies[j].held > 0)
            if both.sum() >= 3:
                res = spearmanr(studies[i].rating[both], studies[j].rating[both])
                rho[i, j] = rho[j, i] = res.statistic
                p[i, j] = p[j, i] = res.pvalue
            else:
                rho[i, j] = rho[j, i] = np.nan
                p[i, j] = p[j, i] = np.nan
    return PolicyAgreement(labels, studies, np.array([s.ordered for s in studies]), outlier,
                           robust, disputed, unsettled, verdicts, rho, p)


def play_studies(catalogue, exp, labels, rarity: np.ndarray,
                 n_rarities: int) -> tuple[RarityStudy, ...]:
    """The pool experiment ``exp`` played once per player in ``labels`` (policy spec labels,
    every seat), same seeds throughout: one rarity study each."""
    from . import progress as line
    from .experiment import with_policy
    from .rarity import play_pool, pool_boards, study

    studies = []
    boards = pool_boards(exp)  # the same boards under every player
    with line.stage("the study under the other players", exp.games * len(labels)):
        for label in labels:
            seat_cards, winner = play_pool(catalogue, with_policy(exp, label), label=label)
            studies.append(study(seat_cards, winner, rarity, n_rarities, boards=boards))
    return tuple(studies)


def verdict_lines(a: PolicyAgreement, names, rarities) -> list[str]:
    """Plain words: what holds for every player, and what depends on the player."""
    lines = [order_line(a, rarities)]
    word = {-1: "weak", 1: "strong", 0: "not flagged"}
    robust = np.flatnonzero(a.robust)
    lines.append("outliers under every player: "
                 + (", ".join(f"{names[c]} ({word[int(a.outlier[c, 0])]})" for c in robust)
                    or "none"))
    disputed = np.flatnonzero(a.disputed)
    if disputed.size:
        lines.append("outliers that depend on the player (an artefact of one bot, or skill that "
                     "only some players use):")
        lines += [f"  {names[c]}: {_per_player(a, c)}" for c in disputed]
    else:
        lines.append("no outlier depends on the player")
    unsettled = np.flatnonzero(a.unsettled)
    if unsettled.size:
        lines.append("outliers under some players, not settled under the others (more games "
                     "would tell):")
        lines += [f"  {names[c]}: {_per_player(a, c)}" for c in unsettled]
    for i in range(len(a.labels)):
        for j in range(i + 1, len(a.labels)):
            lines.append(f"rating rank agreement {a.labels[i]} vs {a.labels[j]}: Spearman "
                         f"{a.spearman[i, j]:+.2f} (p = {a.spearman_p[i, j]:.2g})")
    return lines


def order_line(a: PolicyAgreement, rarities) -> str:
    """The rarity order under each player, by three-way verdict: "holds under lookahead:4; not
    settled under random; does not hold under greedy" (each at family-wise 5 %, the medians'
    adjacent pairs tested; a player whose verdict is "not settled" needs more games)."""
    order = " < ".join(rarities)
    by = {v: [lab for lab, w in zip(a.labels, a.order_verdicts) if w == v]
          for v in (HOLDS, NOT_SETTLED, DOES_NOT_HOLD)}
    alpha = next((s.order.alpha for s in a.studies if s.order is not None), ORDER_ALPHA)
    level = f"adjacent pairs of medians tested, family-wise {100 * alpha:g} %"
    for v, labs in by.items():
        if len(labs) == len(a.labels):
            return f"{order}: {v} under every player ({', '.join(labs)}; {level})"
    return (f"{order}: " + "; ".join(f"{v} under {', '.join(labs)}" for v, labs in by.items()
                                     if labs) + f" ({level})")


def _per_player(a: PolicyAgreement, c: int) -> str:
    return ", ".join(f"{lab}: {a.verdicts[c, j]}" for j, lab in enumerate(a.labels))
