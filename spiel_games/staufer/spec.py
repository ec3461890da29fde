"""Die Staufer's entry in the meeple-arena registry."""

from __future__ import annotations

from spiel_games.common.registry import GameSpec, ParamDoc
from spiel_games.staufer import abstraction, evaluation, rules
from spiel_games.staufer.game import SHORT_NAME
from spiel_games.staufer.heuristic import heuristic_action
from spiel_games.staufer.resample import perturb_secret

_MEANINGS = {
    "players": "number of players, 2-5 (2 uses the two-player sides)",
    "rounds": "rounds, 1-5 (needs rounds + 1 <= regions)",
    "actions": "actions (family members) per player per round, 1-3",
    "regions": "regions in play, 2-6 (the first ones of Milan, Augsburg, Nijmegen, Aachen, Strasbourg, Palermo)",
    "seats": "seats per region; 0 = by player count, k = leftmost k seats of the 3-5 player side",
    "supply_spaces": "supply-table spaces; 0 = by player count, k = the first k",
    "chests": "english (10 purple + 18 brown), german (18 violet + 10 brown) or none",
    "jobs": "job types dealt: 0-3 (region, design, office in that order)",
    "job_pool": "job cards per type in play (players..6)",
    "privileges": "blue (first-game piles) or red (red-seal piles replace them)",
    "utility": "rank (zero-sum rank difference), score (raw score) or win (1 split among winners)",
}

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
    params=tuple(ParamDoc(k, v, _MEANINGS[k]) for k, v in rules.DEFAULTS.items()),
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
    eval_depth=0,  # depth 0 beat depth 4 here (docs/STRENGTH.md)
    abstraction_name=abstraction.NAME,
    abstraction_version=abstraction.VERSION,
    perturb_secret=perturb_secret,
)
