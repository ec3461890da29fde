"""Ranks, failure policies and determinism of the batch player."""

from __future__ import annotations

import math

from tournament.batch import actions_hash, failure_ranks, play_batch, ranks_from
from tournament.runner import batch_spec
from tournament.schedule import schedule


def test_ranks_follow_returns_then_scores_and_ties_share():
    assert ranks_from([1.0, -1.0, 0.0], [40, 20, 30]) == [1, 3, 2]
    assert ranks_from([0.5, 0.5, -1.0], [30, 30, 10]) == [1, 1, 3]
    # equal returns (e.g. utility=win losers) are separated by raw score
    assert ranks_from([1.0, 0.0, 0.0], [50, 20, 30]) == [1, 3, 2]
    assert ranks_from([0.0, 0.0], [math.nan, 3.0]) == [2, 1]


def test_failure_policies():
    assert failure_ranks(3, 1, "rank-last") == [1, 3, 1]
    assert failure_ranks(3, 1, "void") is None


def test_actions_hash_is_order_sensitive_and_stable():
    assert actions_hash([1, 2, 3]) == actions_hash([1, 2, 3])
    assert actions_hash([1, 2, 3]) != actions_hash([3, 2, 1])
    assert actions_hash([]) == actions_hash([])


def test_a_batch_replays_identically(small_config):
    tasks = schedule(small_config)[:4]
    spec = batch_spec(small_config)
    a, b = play_batch(spec, tasks), play_batch(spec, tasks)
    strip = [{k: v for k, v in r.items() if k != "duration"} for r in a]
    assert strip == [{k: v for k, v in r.items() if k != "duration"} for r in b]
    # the two rotations of a duplicate set see the same deck but swap the agents' seats
    assert a[0]["seed"] == a[1]["seed"] and a[0]["agents"] == a[1]["agents"][::-1]
