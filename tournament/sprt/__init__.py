"""Sequential probability ratio tests between two agents (`meeple sprt`).

- ``gsprt``: the statistical model: the generalized SPRT on the score of each duplicate
  set, Elo bounds, presets, Wald's approximations;
- ``estimate``: the Elo difference at the stop, corrected for the early stop (Brownian
  approximation of the log-likelihood ratio);
- ``run``: the line-ups, the observations read from a ledger, the verdict, and the task
  source that hands the runner one duplicate set after another until the test stops.
"""
