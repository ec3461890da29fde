"""Rococo's entry in the meeple-arena registry."""

from __future__ import annotations

from spiel_games.common.registry import GameSpec
from spiel_games.rococo import abstraction, evaluation, rules
from spiel_games.rococo.game import SHORT_NAME
from spiel_games.rococo.heuristic import heuristic_action
from spiel_games.rococo.resample import perturb_secret, redeal
from spiel_games.rococo.rules.config import PARAMS

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
    params=PARAMS,
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
    search_defaults=evaluation.SEARCH_DEFAULTS,
    abstraction_name=abstraction.NAME,
    abstraction_version=abstraction.VERSION,
    perturb_secret=perturb_secret,
    world_sampler=redeal,
)
