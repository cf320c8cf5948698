"""Statistics layer for the balancing reports, the AI ladder and the CI drift gate.

Pure functions on NumPy arrays (no pandas, no I/O); distributions and quantiles come from
scipy.stats. Each module is one concept:

- ``intervals``: win-rate intervals: Wilson score (default) and Clopper-Pearson for one rate,
  Goodman simultaneous intervals for the 4-team win shares, Newcombe's interval for a difference
  of two rates, and the paired (duplicate-play) mean difference with its standard error.
- ``sequential``: Wald's SPRT for win rates as engine testing runs it (Bernoulli LLR, the
  trinomial GSPRT with Van den Bergh's normal approximation or exactly), ``sprt_decide`` on
  running totals, vectorised ``run_sprt`` over game logs, and the two-sided drift gate.
- ``multiple``: Bonferroni, Holm, Benjamini-Hochberg and Benjamini-Yekutieli adjusted p-values.
- ``ratings``: Bradley-Terry and Plackett-Luce by Hunter's MM algorithms, Elo conversions.
- ``composition``: the card-additive team strength model (ridge-penalised Plackett-Luce with
  Hessian, bootstrap or cluster-robust errors; re-exported by ``ratings``).
- ``cluster``: cluster-robust (CR1 sandwich) standard errors and t intervals on #clusters - 1
  degrees of freedom, for games that share boards, deals or dice.
- ``variance``: duplicate-play block estimates, their variance ratio against unpaired play, and
  seat (turn-order) effects separated from team strength by a two-way additive model; all
  cluster-robust by board when blocks share boards.
"""
