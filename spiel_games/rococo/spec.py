"""Rococo's entry in the meeple-arena registry."""

from __future__ import annotations

from spiel_games.common.registry import GameSpec, ParamDoc
from spiel_games.rococo import abstraction, evaluation, rules
from spiel_games.rococo.game import SHORT_NAME
from spiel_games.rococo.heuristic import heuristic_action
from spiel_games.rococo.resample import perturb_secret, redeal

_MEANINGS = {
    "players": "number of players, 2-5 (2-3 use the small board side, 4-5 the large one)",
    "rounds": "rounds played, 1-7 (7 in the full game)",
    "hand_size": "employee cards selected each round, 1-3",
    "base_deck": "starting cards as letters: M Master, J Journeyman, a/b the two Apprentices",
    "start_money": "Livre each player starts with",
    "display": "employee cards revealed for hire each round, 0-4",
    "levels": "employee levels in the hire stack, 0-6",
    "windows": "workshop windows; 0 = the board side's, else the rightmost N",
    "warehouse": "tiles per warehouse segment; 0 = by board side (3 or 4)",
    "guests": "guest spaces per hall; 0 = by board side (4 or 6)",
    "decorations": "at most N spaces of each decoration kind; 0 = the full board",
    "dresses": "dress tiles in the bag; 0 = all, else N spread over the colours",
    "tiles": "resource tiles; 0 = all, else N spread over the tile types",
    "festivity": "add the 4 Festivity Dresses (cannot be sold, one-time prestige)",
    "fancy": "add the 4 Fancy Dresses and 5 extra resource tiles",
    "jewelry": "the Jewelry Box: jeweller and jewellery, exams, 28 new employees",
    "jeweller": "jeweller spaces, 1-4 (the cheapest N); 0 = all 4; needs jewelry=true",
    "jewels": "jewellery tiles; 0 = all 24, else N spread over the 4 kinds; needs jewelry=true",
    "specialists": "specialised apprentices in the open row, 0-10; needs jewelry=true",
    "exam_cards": "new cards in each exam pool, 0-9; needs jewelry=true",
    "utility": "rank (zero-sum rank difference), score (raw prestige) or win (1 split among winners)",
}

_TINY_BASE = (
    "players=2,rounds=1,hand_size=1,base_deck=MJ,display=0,levels=0,windows=1,"
    "warehouse=1,guests=1,decorations=1,dresses=2,tiles=1"
)
# Jewelry Box: one rented dress per player at most, a jeweller of one space and one piece.
_TINY_JEWELRY = (
    "players=2,rounds=1,hand_size=2,base_deck=MM,display=0,levels=0,windows=1,"
    "warehouse=1,guests=1,decorations=1,dresses=1,tiles=1,jewelry=true,jeweller=1,jewels=1,"
    "specialists=0,exam_cards=0"
)
TINY = (
    f"python_rococo({_TINY_BASE})",
    f"python_rococo({_TINY_BASE.replace('display=0,levels=0', 'display=1,levels=1')})",
    f"python_rococo({_TINY_JEWELRY})",
)
_JEWELRY_TESTS = tuple(
    f"python_rococo(players={n},jewelry=true{extra})"
    for n, extra in (
        (2, ""),
        (3, ",utility=score"),
        (4, ""),
        (5, ",rounds=4"),
        (2, ",festivity=true,fancy=true,utility=win"),
        (3, ",festivity=true,fancy=true"),
        (4, ",festivity=true,fancy=true,rounds=4"),
        (5, ",festivity=true,fancy=true"),
    )
)

SPEC = GameSpec(
    short_name=SHORT_NAME,
    title="Rococo",
    min_players=2,
    max_players=5,
    params=tuple(ParamDoc(k, v, _MEANINGS[k]) for k, v in rules.DEFAULTS.items()),
    summary=(
        "Tailors at the court of Louis XV. Over 7 rounds each player secretly picks 3 "
        "employee cards and plays them one per turn: claim the Queen's favor, buy silk, "
        "make dresses to sell or rent to guests in the 5 halls, hire new employees, depute "
        "employees for Livre, or fund decorations; each card also has a bonus. Prestige "
        "comes from dresses, decorations, hall and fireworks majorities, statues, the "
        "terrace and Livre."
    ),
    tiny_configs=TINY,
    test_configs=TINY
    + (
        "python_rococo(players=2)",
        "python_rococo(players=3)",
        "python_rococo(players=4)",
        "python_rococo(players=5)",
        "python_rococo(players=3,festivity=true,fancy=true,utility=score)",
        "python_rococo(players=4,rounds=3,utility=win)",
    )
    + _JEWELRY_TESTS,
    typical_config="python_rococo(players=4)",
    assumptions=tuple(rules.assumptions()),
    heuristic=heuristic_action,
    abstraction=abstraction.abstract_key,
    abstraction_labels=abstraction.action_labels,
    evaluation=evaluation,
    eval_depth=0,  # depth 0 beat depth 4 and heuristic rollouts (docs/STRENGTH.md, 8th round)
    abstraction_name=abstraction.NAME,
    abstraction_version=abstraction.VERSION,
    perturb_secret=perturb_secret,
    world_sampler=redeal,
)
