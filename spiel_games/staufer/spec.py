"""Die Staufer's entry in the meeple-arena registry."""

from __future__ import annotations

from spiel_games.common.registry import GameSpec
from spiel_games.staufer import abstraction, evaluation, rules
from spiel_games.staufer.game import SHORT_NAME
from spiel_games.staufer.heuristic import heuristic_action
from spiel_games.staufer.resample import perturb_secret

TINY = (
    "python_staufer(players=2,rounds=1,actions=1,regions=2,seats=2,supply_spaces=2,chests=none,"
    "jobs=1,job_pool=3)",
    "python_staufer(players=2,rounds=1,actions=2,regions=2,seats=1,supply_spaces=1,chests=none,"
    "jobs=1,job_pool=2)",
)


SPEC = GameSpec(
    short_name=SHORT_NAME,
    title="Die Staufer",
    min_players=2,
    max_players=5,
    params=rules.PARAMS,
    summary=(
        "Area majority with an itinerant king. Five rounds of three actions each: supply "
        "(figures and chests from the supply table) or deploy (travel clockwise from the "
        "king paying one figure per region, occupy a seat paying its value). Each round "
        "scores the A-tile region and the B-condition region (nobles count double, ties to "
        "the leftmost seat), then the king moves and clears payment areas. Secret job cards, "
        "brown chests and privileges score at the end."
    ),
    tiny_configs=TINY,
    test_configs=TINY
    + (
        "python_staufer(players=2)",
        "python_staufer(players=3)",
        "python_staufer(players=4)",
        "python_staufer(players=5)",
        "python_staufer(players=3,chests=german,privileges=red,utility=score)",
        "python_staufer(players=4,rounds=2,utility=win)",
    ),
    typical_config="python_staufer(players=4)",
    assumptions=tuple(rules.RULES.assumptions()),
    heuristic=heuristic_action,
    abstraction=abstraction.abstract_key,
    abstraction_labels=abstraction.action_labels,
    evaluation=evaluation,
    search_defaults=evaluation.SEARCH_DEFAULTS,
    abstraction_name=abstraction.NAME,
    abstraction_version=abstraction.VERSION,
    perturb_secret=perturb_secret,
)
