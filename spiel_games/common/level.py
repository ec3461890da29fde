"""The level of the players' final scores, for search under ``utility=score``.

Each game's evaluation module fits its ``estimate`` on score *differences* between the
players of a position: what every player will still gain cancels out of that fit, so the
estimates have no level (early in Coloretto they are about half the current score). The
rank and win utilities compare players and need none; ``utility=score`` returns a player's
own final score, so a search cut short must add one: the players' mean final score
expected from the position, ``level = mean current score + expected remaining gain``.

The remaining gain is read from a table of the game's rules: the game is cut into
``segments`` (its rounds, or tenths of Coloretto's deck, ``evaluation.position``); per
segment the table holds the mean remaining gain at its start and at its end, and a
position in between reads the straight line between them by the share of its segment
still to play (points are scored in lumps at a round's end, so the gain drops at every
segment border). The table is measured on heuristic self-play (``measure``: the game's
heuristic in every seat, a random move 10% of the time, as the evaluations were fitted):
per segment a least-squares line of the players' mean remaining gain on the share left.

Each evaluation module ships the tables of the default rules (``LEVEL``, per player count,
measured by ``scripts/measure_score_level.py`` on 300 games each). A game with any other
rule option (another deck, board, number of rounds, scoring) is measured the first time
its level is read, on ``MEASURE_GAMES`` games with a fixed seed (deterministic; a few
seconds for the largest games, once per process and rules; ``prepare`` lets a search do
it when it is built rather than in its first simulation).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import numpy as np
import pyspiel

from spiel_games.common.registry import get_spec

Rows = Sequence[tuple[float, float]]  # per segment: (gain at its start, gain at its end)
Table = Mapping[int, Rows]  # per player count

MEASURE_GAMES = 48  # games a table of other rules is measured on
MEASURE_SEED = 0
EPS = 0.1  # the self-play's random moves
_UNRULED = ("players", "utility")  # parameters that are no rule option for the table


def remaining_gain(rows: Rows, segment: int, share_left: float) -> float:
    """The mean remaining gain in ``rows`` at ``segment`` with ``share_left`` of it still to
    play (1 = its start, 0 = its end)."""
    start, end = rows[max(0, min(len(rows) - 1, segment))]
    share = min(1.0, max(0.0, share_left))
    return end + (start - end) * share


def mean_level(scores: Sequence[float], gain: float) -> float:
    """The players' mean final score expected: their mean score now plus ``gain``."""
    return sum(scores) / max(1, len(scores)) + gain


_ROWS: dict[int, tuple[object, Rows]] = {}


def rows_for(state, cfg, shipped: Table) -> Rows:
    """The table of ``state``'s game (``cfg`` is its configuration object, the cache key):
    ``shipped[players]`` under the default rules, else measured once (``measure``)."""
    hit = _ROWS.get(id(cfg))
    if hit is not None and hit[0] is cfg:
        return hit[1]
    game = state.get_game()
    params = dict(game.get_parameters())
    players = int(params.get("players", game.num_players()))
    default = dict(pyspiel.load_game(game.get_type().short_name).get_parameters())
    if players in shipped and all(
        params.get(k) == v for k, v in default.items() if k not in _UNRULED
    ):
        rows = tuple(shipped[players])
    else:
        rows = measure(game, MEASURE_GAMES, MEASURE_SEED)[0]
    _ROWS[id(cfg)] = (cfg, rows)
    return rows


def prepare(game) -> None:
    """Read the level once at the game's first decision, so a table the rules need is
    measured now (a search calls this when it is built under ``utility=score``)."""
    evaluation = get_spec(game.get_type().short_name).evaluation
    if evaluation is None or not hasattr(evaluation, "level"):
        return
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    if not state.is_terminal():
        evaluation.level(state)


def noisy_game(game, heuristic, seed: int, eps: float = EPS):
    """(move list, final state) of one game: the heuristic in every seat, a uniformly
    random legal move with probability ``eps``, chance by its probabilities."""
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    state = game.new_initial_state()
    actions = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            a = rng.choices(outcomes, probs)[0]
        elif rng.random() < eps:
            a = rng.choice(state.legal_actions())
        else:
            a = int(heuristic(state, nrng))
        actions.append(a)
        state.apply_action(a)
    return actions, state


def samples(game, seed: int, eps: float = EPS) -> list[tuple[float, int, int, float, float, float]]:
    """Per decision position of one self-play game: (stage, segment, segments, share left,
    mean score now, mean final score)."""
    spec = get_spec(game.get_type().short_name)
    evaluation = spec.evaluation
    actions, end = noisy_game(game, spec.heuristic, seed, eps)
    final = mean_level([float(x) for x in end.scores()], 0.0)
    state = game.new_initial_state()
    rows = []
    for a in actions:
        if not state.is_chance_node() and state.current_player() >= 0:
            now = mean_level([float(x) for x in state.scores()], 0.0)
            rows.append((evaluation.stage(state), *evaluation.position(state), now, final))
        state.apply_action(a)
    return rows


def fit_rows(data: np.ndarray, segments: int) -> tuple[tuple[float, float], ...]:
    """Per segment, the least-squares line of the remaining gain on the share left (rows
    of ``samples``), read at share 1 (the segment's start) and 0 (its end)."""
    out: list[tuple[float, float]] = []
    for k in range(segments):
        q = data[data[:, 1] == k]
        if len(q) == 0:  # never reached: the previous segment's end
            last = out[-1][1] if out else 0.0
            out.append((last, last))
            continue
        gain = q[:, 5] - q[:, 4]
        share = q[:, 3]
        if len(q) < 10 or float(np.var(share)) < 1e-6:
            out.append((round(float(gain.mean()), 2),) * 2)
            continue
        x = np.c_[np.ones(len(q)), share]
        (end, slope), *_ = np.linalg.lstsq(x, gain, rcond=None)
        out.append((round(float(end + slope), 2), round(float(end), 2)))
    return tuple(out)


def measure(game, games: int, seed: int, eps: float = EPS):
    """(the table's rows for ``game``, the samples they were fitted on as an array) from
    ``games`` self-play games (seeds ``seed * 1_000_003 + g``)."""
    data: list = []
    for g in range(games):
        data += samples(game, seed * 1_000_003 + g, eps)
    arr = np.array(data, dtype=float)
    return fit_rows(arr, int(arr[0, 2])), arr
