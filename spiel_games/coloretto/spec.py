"""Coloretto's entry in the meeple-arena registry."""

from __future__ import annotations

from spiel_games.coloretto import abstraction, evaluation, rules
from spiel_games.coloretto.game import SHORT_NAME
from spiel_games.coloretto.heuristic import heuristic_action
from spiel_games.common.registry import GameSpec

# Two-player configurations small enough for exact CFR: full trees of about
# 1.7k, 3.5k and 3.5k nodes (counted with chance nodes).
_TINY_BASE = (
    "python_coloretto(players=2,colors=2,cards_per_color=2,start_cards=1,last_round_depth=0,"
)
TINY = (
    _TINY_BASE + "plus2=1,jokers=0,positive_colors=1,rows=2,row_capacity=1)",
    _TINY_BASE + "plus2=1,jokers=0,positive_colors=1,rows=2,row_capacity=2)",
    _TINY_BASE + "plus2=0,jokers=1,positive_colors=1,rows=2,row_capacity=2)",
)

SPEC = GameSpec(
    short_name=SHORT_NAME,
    title="Coloretto",
    min_players=2,
    max_players=5,
    params=rules.PARAMS,
    summary=(
        "Card drafting. On your turn either draw the top card and add it to a row that is "
        "not full, or take a row and sit out the rest of the round. When the last-round "
        "card appears the game ends after that round. Your best three colours score "
        "1/3/6/10/15/21 points, every other colour scores that much negative, +2 cards "
        "score 2 and jokers join the colour that helps most."
    ),
    tiny_configs=TINY,
    test_configs=TINY
    + (
        "python_coloretto(players=2)",
        "python_coloretto(players=3)",
        "python_coloretto(players=4)",
        "python_coloretto(players=5)",
        "python_coloretto(players=3,edition=new,joker_timing=immediate)",
        "python_coloretto(players=4,scoring=alternative,positive_colors=2,utility=score)",
        "python_coloretto(players=3,utility=win)",
    ),
    typical_config="python_coloretto(players=4)",
    assumptions=tuple(rules.RULES.assumptions()),
    heuristic=heuristic_action,
    abstraction=abstraction.abstract_key,
    abstraction_labels=abstraction.action_labels,
    evaluation=evaluation,
    search_defaults=evaluation.SEARCH_DEFAULTS,
    abstraction_name=abstraction.NAME,
    abstraction_version=abstraction.VERSION,
)
