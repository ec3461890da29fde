"""Placeholder abstraction."""

NAME = "bruxelles-basic"
VERSION = 1


def abstract_key(state, player: int) -> str:
    return state.information_state_string(player)
