"""How often each rarity outlier recurs over independent replicates of the study.

Why: a flag a designer acts on should not be one seed's luck. Issue #21 measured three seeds of
4,000 games flagging 11, 9 and 6 cards with only 5 in all three (uncorrected tests). Replicate
``r`` of the study plays the same pool experiment from its own root seed (``SeedSequence([seed,
RECUR_STREAM, r])``), so its boards, teams and dice are independent of the others; each card's
recurrence is the number of replicates that flag it the same way as the main study (replicate 0,
the experiment's own seed).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

RECUR_STREAM = 21   # SeedSequence([root_seed, 21, r]): replicate r's root seed


@dataclass(frozen=True)
class Recurrence:
    seeds: tuple              # root seed of each replicate (the first: the study's own)
    outlier: np.ndarray       # [cards, replicates]: -1 weak, +1 strong, 0 not shown outside
    inside: np.ndarray | None = None  # [cards, replicates]: shown inside its band

    @classmethod
    def of(cls, seeds, studies) -> "Recurrence":
        """The recurrence of rarity studies (one per seed): their flags and in-band verdicts."""
        inside = [s.inside for s in studies]
        return cls(tuple(seeds), np.stack([s.outlier for s in studies], axis=1),
                   None if any(x is None for x in inside) else np.stack(inside, axis=1))

    @property
    def runs(self) -> int:
        return self.outlier.shape[1]

    def count(self) -> np.ndarray:
        """Per card: replicates flagging it the way replicate 0 does (0 when it is not flagged)."""
        first = self.outlier[:, :1]
        return np.where(first[:, 0] != 0, (self.outlier == first).sum(axis=1), 0)

    def summary(self) -> dict:
        """Cards flagged in any replicate, in every one (the same way), their ratio, and the
        share of all cards whose flag (weak, strong, none) is the same in every run; with
        ``inside``, the undecided cards per run and the flags another run contradicts."""
        any_flag = np.any(self.outlier != 0, axis=1)
        every = np.all(self.outlier == self.outlier[:, :1], axis=1) & (self.outlier[:, 0] != 0)
        n_any, n_all = int(any_flag.sum()), int(every.sum())
        same = np.all(self.outlier == self.outlier[:, :1], axis=1)
        out = {"runs": self.runs, "seeds": list(self.seeds), "flagged_in_any": n_any,
               "flagged_in_every": n_all,
               "agreement": n_all / n_any if n_any else 1.0,
               "cards_same_in_every_run": float(same.mean()) if same.size else 1.0,
               "flagged_per_run": [int(np.count_nonzero(self.outlier[:, r]))
                                   for r in range(self.runs)]}
        if self.inside is not None:
            bad = self.contradicted()
            out.update({"undecided_per_run": [int(np.count_nonzero(
                            (self.outlier[:, r] == 0) & ~self.inside[:, r]))
                            for r in range(self.runs)],
                        "contradicted": int(bad.sum()),
                        "agreement_without_contradiction":
                            float((any_flag & ~bad).sum() / n_any) if n_any else 1.0})
        return out

    def contradicted(self) -> np.ndarray:
        """Per card: one run flags it and another flags it the other way or shows it inside its
        band (an undecided run contradicts nothing: it claims nothing)."""
        strong = np.any(self.outlier > 0, axis=1)
        weak = np.any(self.outlier < 0, axis=1)
        shown_in = (np.zeros(strong.shape, bool) if self.inside is None
                    else np.any(self.inside, axis=1))
        return (strong & weak) | ((strong | weak) & shown_in)


def replicate_seed(root_seed: int, r: int) -> int:
    return int(np.random.SeedSequence([root_seed, RECUR_STREAM, r]).generate_state(1)[0])


def recurrence(catalogue, exp, main_study, replicates: int, *,
               correction: str = "holm") -> Recurrence:
    """``replicates`` studies in all: the main one and ``replicates - 1`` more from seeds of
    their own (module doc), each judged with the same correction."""
    from . import progress as line
    from .rarity import study_at_seed

    seeds = [exp.root_seed] + [replicate_seed(exp.root_seed, r) for r in range(1, replicates)]
    studies = [main_study]
    with line.stage("independent replicates", exp.games * (replicates - 1)):
        for r in range(1, replicates):
            studies.append(study_at_seed(catalogue, exp, seeds[r], correction=correction,
                                         label=f"replicate {r + 1} of {replicates}"))
    return Recurrence.of(seeds, studies)


__all__ = ["Recurrence", "recurrence", "replicate_seed"]
