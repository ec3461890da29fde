"""What the fields of an agent's analysis mean, where they differ from a search's.

Advice describes every answer's fields in ``units`` (``tournament.advice``): by default
those of this project's searches (a value with a calibrated 95% range, points, chance to
finish first, paired gaps). An agent whose analysis is of another kind says so in
``Analysis.units``: each key here replaces the default's text, and a key set to None does
not apply (the fields it names are null in the answer). Keys: ``value``, ``visits``,
``prob``, ``order`` (how the moves are listed), ``ci``, ``gap``, ``margin``, ``first``.
"""

from __future__ import annotations

# What a trained table's probabilities are (a blueprint's or a policy file's)
TABLE_PROB = (
    "the move's probability in the trained average strategy, read at the position's key"
    " in an abstraction of the game: moves that look alike to the abstraction may be split"
    " between them arbitrarily (one of them at 0), so a 0 does not mean a bad move"
)
NO_SEARCH: dict[str, str | None] = {
    "order": "by prob, highest first",
    "value": None,
    "ci": None,
    "gap": None,
    "margin": None,
    "first": None,
}

# blueprint (solvers.blueprint): an MCCFR blueprint's average strategy over abstract keys
BLUEPRINT: dict[str, str | None] = {
    **NO_SEARCH,
    "prob": TABLE_PROB,
    "visits": "how often training met the position's abstract key (the budget's visits):"
    " the same for every move, not visits per move",
}

# policy (solvers.policy_file): a policy file's average strategy
POLICY: dict[str, str | None] = {
    **NO_SEARCH,
    "prob": TABLE_PROB,
    "visits": "the policy file's training iterations (the budget's iterations): the same"
    " for every move, not visits per move",
}

# cfr-search (solvers.cfr_search): the root of an online CFR subgame solve
CFR_SEARCH: dict[str, str | None] = {
    "prob": "the move's probability in the root's average strategy (the subgame's solution), "
    "which the agent samples (play=sample) or plays the most likely move of (play=best)",
    "value": "mean of the move's sampled values (the game's utility, for the player to move) "
    "over the iterations that sampled it, against the other players' strategies as they "
    "were then (early ones included): a rough estimate, not the solution's value, so not "
    "in the order of prob",
    "visits": "iterations that sampled the move's value: those in which the player to move "
    "traversed, when every root move is walked, so the same for every move",
    "order": "by prob, highest first",
    "ci": None,
    "gap": None,
    "margin": None,
    "first": None,
}

# openspiel-ismcts (solvers.openspiel_bots): the root of OpenSpiel's IS-MCTS (or MCTS) tree
OPENSPIEL_ISMCTS: dict[str, str | None] = {
    "value": "mean return for the player to move over the simulations through the move (the "
    "game's utility; OpenSpiel's random rollouts to the end, every player searched)",
    "visits": "simulations through the move",
    "order": "most visited first (the move OpenSpiel's bot plays; ties: its own random pick, "
    "given as choice), then by value",
    "ci": None,
    "gap": None,
    "margin": None,
    "first": None,
}
