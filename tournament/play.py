"""Moved to ``tournament.advice.play``; kept only because tests/games (restructured in
another branch) still import ``readable_observation`` from here. Delete after the merge."""

from tournament.advice.play import readable_observation

__all__ = ["readable_observation"]
