"""Fixtures for the tournament tests: small, fast configs (2-player Coloretto baselines)."""

from __future__ import annotations

import pytest

GAME2 = "python_coloretto(players=2)"


def raw_config(**tournament) -> dict:
    agents = tournament.pop("agents", {"random": "random", "greedy": "heuristic"})
    t = {"game": GAME2, "seeds_per_lineup": 6, "seed": 3, "batch_size": 4, **tournament}
    return {"tournament": t, "agents": agents}


@pytest.fixture
def make_raw():
    """raw_config(**tournament keys) -> a raw config dict (agents= replaces the pool)."""
    return raw_config


@pytest.fixture
def small_config():
    from tournament.config import build_config

    return build_config(raw_config())


@pytest.fixture
def write_toml(tmp_path):
    def write(raw: dict, name: str = "t.toml"):
        lines = []
        for section, table in raw.items():
            lines.append(f"[{section}]")
            for k, v in table.items():
                if isinstance(v, bool):
                    lines.append(f"{k} = {'true' if v else 'false'}")
                elif isinstance(v, str):
                    lines.append(f'{k} = "{v}"')
                else:
                    lines.append(f"{k} = {v}")
        path = tmp_path / name
        path.write_text("\n".join(lines) + "\n")
        return path

    return write


@pytest.fixture
def test_kinds():
    """Agent kinds that misbehave on purpose; registered for one test only."""
    import time

    from solvers.base import Agent
    from solvers.registry import KINDS, AgentKind, Param, all_kinds, register_kind

    all_kinds()

    class Misbehaving(Agent):
        def __init__(self, mode: str, after: int, seed: int):
            self.mode, self.after, self.moves = mode, after, 0

        def reset(self):
            self.moves = 0

        def step(self, state):
            self.moves += 1
            if self.moves > self.after:
                if self.mode == "crash":
                    raise RuntimeError("boom")
                if self.mode == "illegal":
                    return -7
                if self.mode == "slow":
                    time.sleep(0.3)
            return state.legal_actions()[0]

    names = []
    for mode in ("crash", "illegal", "slow"):
        name = f"test_{mode}"
        register_kind(
            AgentKind(
                name=name,
                summary=f"test agent that goes {mode}",
                params=(Param("after", int, 3, "good moves before misbehaving"),),
                factory=lambda game, params, seed, mode=mode: Misbehaving(
                    mode, params["after"], seed
                ),
            )
        )
        names.append(name)
    yield names
    for name in names:
        KINDS.pop(name, None)
