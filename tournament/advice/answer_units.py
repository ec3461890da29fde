"""What the fields of an advice answer are measured in (``Advice.units``, the JSON's
``units``; docs/advice.md): a search's defaults, and what changes them (another utility
mode, a search stopped before its comparison, an agent's own field meanings)."""

from __future__ import annotations

UNITS = {
    "value": "the game's utility for the player to move (rank score in [-1, 1] unless the"
    " game string sets utility=: 1 = first of all, -1 = last of all)",
    "margin": "points: expected final score minus the best other player's",
    "first": "probability of finishing first (ties share it)",
    "ci": "95% range meant to hold the value a search with 8x the budget gives"
    " (calibration in docs/ADVICE-MEASURED.md)",
    "gap": "paired value difference to the best move (same worlds and draws), 95% interval",
}
# ``value`` in each utility mode (the game string's ``utility=``)
VALUE_UNITS = {
    "rank": "rank score in [-1, 1] (1 = first of all, -1 = last)",
    "score": "own final score (utility=score)",
    "win": "share of the win in [0, 1] (utility=win)",
}
# The calibrated allowance was measured in rank utility only (docs/ADVICE-MEASURED.md)
CI_OTHER_UTILITY = (
    "95% range of the search's paired statistics with an allowance measured for rank utility"
    " only: not calibrated for utility={utility}, a search with 8x the budget may give a value"
    " outside it"
)


def value_unit(utility: str) -> str:
    """What ``value`` is in the utility mode ``utility``."""
    return VALUE_UNITS.get(utility, f"the game's utility ({utility})")


# A search stopped (the engine's terminate) before its comparison phase: its intervals are
# the root statistics' own, without the calibrated allowance, so they say so.
UNITS_UNCOMPARED = {
    **UNITS,
    "ci": "search noise only: 95% interval of the root statistics (mean +- 1.96 standard"
    " errors; +-half the utility range for a move searched once), not the calibrated range:"
    " the search was stopped before its comparison phase, and a search with 8x the budget"
    " can move the value well outside it",
    # what only the comparison measures: absent from such an answer, so not named (was:
    # named beside moves that lack them, found in review)
    "margin": None,
    "first": None,
    "gap": None,
}


def units_of(utility: str, stopped: bool, agent_units: dict) -> dict:
    """The answer's units: a search's (``stopped``: before its comparison phase) in the
    utility mode ``utility``, with the agent's own meanings over them (None: leave out)."""
    base = dict(UNITS_UNCOMPARED if stopped else UNITS)
    if utility != "rank":
        base["value"] = "the game's utility for the player to move: " + value_unit(utility)
        if not stopped:
            base["ci"] = CI_OTHER_UTILITY.format(utility=utility)
    merged = {**base, **agent_units}
    return {k: v for k, v in merged.items() if v is not None}


# ``meeple review --json``'s units (``Review.to_json``)
REVIEW_UNITS = {
    "value": "the game's utility (rank score in [-1, 1] by default)",
    "points": "final score minus the best other player's",
    "first": "chance to finish first (0-1)",
    "accuracy": "percent, Lichess's formula on the loss in chance to finish first",
    # were unexplained (found in review)
    "ci": "ci_low, ci_high: the best move's value, " + UNITS["ci"],
    "loss_points_low": "the lower end of the loss in points' 95% range (the paired"
    " interval widened by how far losses move between seeds): what the marks read",
}
