"""Coloretto's entry in the meeple-arena registry."""

from __future__ import annotations

from spiel_games.coloretto import abstraction, evaluation, rules
from spiel_games.coloretto.game import SHORT_NAME
from spiel_games.coloretto.heuristic import heuristic_action
from spiel_games.common.registry import GameSpec, ParamDoc

_MEANINGS = {
    "players": "number of players, 2-5 (2 uses the official two-player rules)",
    "colors": "colours in play; 0 = by the rules (5 at 2p, 6 at 3p, 7 at 4-5p)",
    "cards_per_color": "cards of each colour",
    "plus2": "number of +2 cards",
    "edition": "classic (3 jokers, last-round card on 15) or new (2 jokers + golden joker, 16)",
    "jokers": "plain jokers; -1 = by edition",
    "last_round_depth": "cards below the last-round card; -1 = by edition",
    "rows": "number of rows; 0 = by the rules (one per player, or 3 rows of 1/2/3 at 2p)",
    "row_capacity": "capacity of every row when rows or row_capacity is set; 0 = 3",
    "start_cards": "start cards per player (all of distinct colours); -1 = by the rules",
    "scoring": "standard (1/3/6/10/15/21) or alternative (1/4/8/7/6/5) scoring table",
    "positive_colors": "colours that score positive, at most colors (3; the seed's variant uses 2)",
    "joker_timing": "end (best assignment at scoring) or immediate (owner picks a colour on taking)",
    "utility": "rank (zero-sum rank difference), score (raw score) or win (1 split among winners)",
}

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
    params=tuple(ParamDoc(k, v, _MEANINGS[k]) for k, v in rules.DEFAULTS.items()),
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
    # heuristic moves before the evaluation beat random ones at 3 players and tied at 4
    # (docs/STRENGTH.md, tenth round)
    eval_rollout="heuristic",
    abstraction_name=abstraction.NAME,
    abstraction_version=abstraction.VERSION,
)
