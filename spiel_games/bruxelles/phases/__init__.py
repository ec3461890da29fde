"""Bruxelles 1893 phases: one legal/apply pair per player phase and one outcomes/apply
pair per chance phase (chance.py, turn.py, works.py), and the phase tables the game
dispatches through (indexed by the ``Phase`` int).

Every decision applies its effect and then either asks the next sub-choice or lets
the engine run on (``rounds.advance``). Illegal actions raise; they are never repaired.
"""

from __future__ import annotations

from spiel_games.bruxelles.phases import chance as C
from spiel_games.bruxelles.phases import turn as T
from spiel_games.bruxelles.phases import works as W
from spiel_games.bruxelles.state import Phase

_CHANCE = {
    Phase.C_STRIP: (C.outcomes_strip, C.apply_strip),
    Phase.C_COMPASS: (C.outcomes_compass, C.apply_compass),
    Phase.C_ART: (C.outcomes_art, C.apply_art),
    Phase.C_FIGURE: (C.outcomes_figure, C.apply_figure),
    Phase.C_BONUS: (C.outcomes_bonus, C.apply_bonus_card),
    Phase.C_STOCK: (C.outcomes_stock, C.apply_stock),
}
_DECISIONS = {
    Phase.SHIELD: (T.legal_shield, T.apply_shield),
    Phase.NEUTRAL: (T.legal_neutral, T.apply_neutral),
    Phase.MAIN: (T.legal_main, T.apply_main),
    Phase.BID: (T.legal_bid, T.apply_bid),
    Phase.DO: (T.legal_do, T.apply_do),
    Phase.PARK: (T.legal_park, T.apply_park),
    Phase.KEEP_WORK: (W.legal_keep_work, W.apply_keep_work),
    Phase.SELL: (W.legal_sell, W.apply_sell),
    Phase.CURSOR: (W.legal_cursor, W.apply_cursor),
    Phase.SLOT: (W.legal_slot, W.apply_slot),
    Phase.THEATER: (W.legal_theater, W.apply_theater),
    Phase.SOLVAY: (W.legal_solvay, W.apply_solvay),
    Phase.KEEP_FIG: (W.legal_keep_fig, W.apply_keep_fig),
    Phase.NOBLE: (W.legal_noble, W.apply_noble),
    Phase.PAY: (W.legal_pay, W.apply_pay),
    Phase.NEEDLE: (W.legal_needle, W.apply_needle),
    Phase.BUILD: (W.legal_build, W.apply_build),
    Phase.ACTIVATE: (W.legal_activate, W.apply_activate),
    Phase.BONUS: (T.legal_bonus, T.apply_bonus),
}


def _no_outcomes(s):
    raise ValueError("chance_outcomes called at a player node")


def _not_chance(s, o: int) -> None:
    raise ValueError("not a chance node")


def _no_legal(s, p: int) -> list[int]:
    return []


def _no_decision(s, p: int, action: int) -> None:
    raise ValueError(f"no player decision in phase {Phase(s.phase).name}")


# Tables indexed by Phase.
OUTCOMES = tuple(_CHANCE[ph][0] if ph in _CHANCE else _no_outcomes for ph in Phase)
APPLY_CHANCE = tuple(_CHANCE[ph][1] if ph in _CHANCE else _not_chance for ph in Phase)
LEGAL = tuple(_DECISIONS[ph][0] if ph in _DECISIONS else _no_legal for ph in Phase)
APPLY = tuple(_DECISIONS[ph][1] if ph in _DECISIONS else _no_decision for ph in Phase)


def chance_outcomes(s) -> list[tuple[int, float]]:
    return OUTCOMES[s.phase](s)


def apply_chance(s, o: int) -> None:
    s.cache = {}  # the position changes: cached legal actions and views no longer apply
    APPLY_CHANCE[s.phase](s, o)


def legal_actions(s) -> list[int]:
    """Legal actions of the pending decision (cached on the position)."""
    legal = s.cache.get("legal")
    if legal is None:
        legal = s.cache["legal"] = LEGAL[s.phase](s, s.actor)
    return legal


def apply_action(s, action: int) -> None:
    if action not in legal_actions(s):
        raise ValueError(f"illegal action {action} in phase {Phase(s.phase).name}")
    s.cache = {}  # the position changes: cached legal actions and views no longer apply
    APPLY[s.phase](s, s.actor, action)
