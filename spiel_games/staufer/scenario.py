"""Scripted positions for scenario tests and examples.

``scripted_setup`` plays the setup chance nodes with chosen outcomes and returns the
state at the first player decision, so a test can name its board instead of hoping
for a random one. Every outcome goes through the real chance nodes (an impossible
pick raises). ``play`` applies moves by their strings (shared by every game:
spiel_games.common.naming; ``seat 2`` names ``seat 2 (3)``) and ``draw_chests``
answers pending chest draws.

    game = pyspiel.load_game("python_staufer(players=2,chests=none)")
    state = scripted_setup(game, regions=["Milan", "Augsburg", ...], a_tiles=[...])
    play(state, "deploy Augsburg", "seat 2")
"""

from __future__ import annotations

from collections.abc import Sequence

import pyspiel
from open_spiel.python.observation import make_observation

from spiel_games.common.naming import legal_strings, play
from spiel_games.staufer import rules as R
from spiel_games.staufer.state import (
    REFILL,
    SETUP,
    ST_A,
    ST_B,
    ST_C,
    ST_JOB,
    ST_REGION,
    ST_TILE,
    STEP,
)
from spiel_games.staufer.text import CHEST_NAMES, CHEST_SHORT, JOB_TYPE_NAMES

__all__ = [
    "REGIONS",
    "deploy",
    "draw_chests",
    "legal_strings",
    "load",
    "play",
    "scripted_setup",
    "set_court",
    "setup",
    "supply",
    "view",
]

_JOB_TABLES = (
    lambda i: R.REGION_NAMES[i],
    lambda i: R.DESIGN_JOBS[i][0],
    lambda i: R.OFFICE_JOBS[i][0],
)


def _job_index(ty: int, name: str) -> int:
    for i in range(R.JOB_POOL_MAX):
        if _JOB_TABLES[ty](i) == name:
            return i
    raise ValueError(f"no {JOB_TYPE_NAMES[ty]} job named {name!r}")


def _chest_kind(name) -> int:
    if isinstance(name, int):
        return name
    for i, (long, short) in enumerate(zip(CHEST_NAMES, CHEST_SHORT, strict=True)):
        if name in (long, short):
            return i
    raise ValueError(f"unknown chest {name!r}; expected one of {CHEST_NAMES}")


def _apply(state, outcome: int) -> None:
    legal = [a for a, _ in state.chance_outcomes()]
    if outcome not in legal:
        raise ValueError(f"scripted outcome {outcome} is impossible here (possible: {legal})")
    state.apply_action(outcome)


def draw_chests(state, chests: Sequence | str | None = None) -> None:
    """Answer pending chest draws: `chests` lists kinds (names from text.CHEST_NAMES or
    CHEST_SHORT) in refill order (supply spaces, then free seats by position); a single
    name is used for every draw; None (or a used-up list) takes the lowest kind left."""
    queue = [chests] if isinstance(chests, str) else list(chests or [])
    repeat = isinstance(chests, str)
    while state.is_chance_node() and state._s.phase == REFILL:
        if queue:
            kind = _chest_kind(queue[0])
            if not repeat:
                queue.pop(0)
        else:
            kind = state.chance_outcomes()[0][0]
        _apply(state, kind)


def scripted_setup(
    game,
    *,
    regions: Sequence[str] | None = None,
    tiles: Sequence[int] | None = None,
    jobs: Sequence[Sequence[str]] | None = None,
    a_tiles: Sequence[str] | None = None,
    b_tiles: Sequence[str] | None = None,
    c_tiles: Sequence[int] | None = None,
    chests: Sequence | str | None = None,
):
    """A new state with the setup chance nodes answered as given.

    regions: region names in clockwise board order (the first must be the first region
    in play, which is fixed at position 0); tiles: point-tile index (rules.POINT_TILES)
    per board position; jobs: per player, job names per dealt type (region name, design
    name, office name); a_tiles: region names for rounds 1..T and then the king's start;
    b_tiles: B condition names per round; c_tiles: king moves per round (rounds - 1).
    Anything not given takes the lowest possible outcome.
    """
    state = game.new_initial_state()
    s = state._s
    while s.phase == SETUP:
        kind, arg = s.t.steps[s.v[STEP]]
        pick = None
        if kind == ST_REGION and regions is not None:
            pick = R.REGION_NAMES.index(regions[arg])
        elif kind == ST_TILE and tiles is not None:
            pick = tiles[arg]
        elif kind == ST_JOB and jobs is not None:
            p, ty = divmod(arg, 3)
            pick = _job_index(ty, jobs[p][ty])
        elif kind == ST_A and a_tiles is not None:
            pick = R.REGION_NAMES.index(a_tiles[arg])
        elif kind == ST_B and b_tiles is not None:
            pick = R.B_CONDITIONS.index(b_tiles[arg])
        elif kind == ST_C and c_tiles is not None:
            pick = c_tiles[arg]
        _apply(state, state.chance_outcomes()[0][0] if pick is None else pick)
        s = state._s
    draw_chests(state, chests)
    return state


def set_court(state, player: int, envoys: int, nobles: int) -> None:
    """Test position set-up: move player's figures between court and province so the court
    holds exactly (envoys, nobles). Figures on seats and in payment areas stay put; raises
    if the colour does not have that many figures off the board."""
    s = state.own_core()
    v, t = s.v, s.t
    for noble, want in ((0, envoys), (1, nobles)):
        c, pr = t.court + 2 * player + noble, t.prov + 2 * player + noble
        free = v[c] + v[pr]
        if not 0 <= want <= free:
            raise ValueError(
                f"P{player + 1} has only {free} {'nobles' if noble else 'envoys'} off the board"
            )
        v[c], v[pr] = want, free - want


# ----- a named board and the common moves (the scenario tests' vocabulary) ---------------
# The board of ``setup``: the regions clockwise from position 0.
REGIONS = ["Milan", "Augsburg", "Nijmegen", "Aachen", "Strasbourg", "Palermo"]


def load(**params):
    """The game with these parameters (``load(players=3, chests="none")``)."""
    text = ",".join(f"{k}={v}" for k, v in params.items())
    return pyspiel.load_game(f"python_staufer({text})")


def setup(game, a=("Strasbourg",), king="Milan", b=None, c=None, **kw):
    """Regions clockwise in the order of REGIONS, point tiles 0..5 (Milan 10/5/2, Augsburg
    9/5/2, Nijmegen 8/4/2, Aachen 8/4/1, Strasbourg 7/4/1, Palermo 6/3/1)."""
    cfg = game.config
    rest = [r for r in REGIONS[: cfg.regions] if r not in a and r != king]
    a_tiles = (list(a) + rest)[: cfg.rounds] + [king]
    b_tiles = (
        list(b)
        if b
        else ["king", "most_seats", "fewest_chests", "most_payment", "after_king"][: cfg.rounds]
    )
    c_tiles = list(c) if c else [1, 1, 2, 2][: cfg.rounds - 1]
    return scripted_setup(
        game,
        regions=REGIONS[: cfg.regions],
        tiles=list(range(cfg.regions)),
        a_tiles=a_tiles,
        b_tiles=b_tiles,
        c_tiles=c_tiles,
        **kw,
    )


def view(game, state, name, player=0):
    """One piece of ``player``'s public observation tensor, as nested lists."""
    obs = make_observation(
        game,
        pyspiel.IIGObservationType(
            perfect_recall=False,
            public_info=True,
            private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER,
        ),
    )
    obs.set_from(state, player)
    return obs.dict[name].tolist()


def deploy(state, region, seat, occupant="envoy", nobles=0, noble_to=()):
    """Deploy with the given occupant, nobles among the paid figures and the regions the
    paying nobles go to (each asked only when the rules leave a choice)."""
    play(state, f"deploy {region}", f"seat {seat}")
    if not state.is_terminal() and f"occupy with {occupant}" in legal_strings(state):
        play(state, f"occupy with {occupant}")
    if not state.is_terminal() and any(n.startswith("pay ") for n in legal_strings(state)):
        play(state, f"pay {nobles} noble(s)")
    for target in noble_to:
        if not state.is_terminal() and any(n.startswith("noble to ") for n in legal_strings(state)):
            play(state, f"noble to {target}")


def supply(state, space=1):
    """The player to move takes supply space ``space`` (1-based)."""
    play(state, f"supply {space}")
