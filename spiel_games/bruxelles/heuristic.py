"""Placeholder heuristic (replaced below)."""

from __future__ import annotations


def heuristic_action(state, rng=None) -> int:
    return state.legal_actions()[0]
