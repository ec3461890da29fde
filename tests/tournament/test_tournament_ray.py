"""The one Ray test: a real two-node cluster on loopback loses a worker node mid-tournament,
Ray retries the lost batches with the same seeds, and the ledger equals the serial run."""

from __future__ import annotations

import time

import pytest

from tournament.config import build_config
from tournament.ledger import read_ledger
from tournament.runner import run_tournament
from tournament.schedule import schedule


def _strip(table):
    rows = [{k: v for k, v in r.items() if k != "duration"} for r in table.to_pylist()]
    return sorted(rows, key=lambda r: r["game_id"])


@pytest.mark.ray
def test_killed_worker_node_is_retried_and_the_result_equals_serial(
    ray_cluster, tmp_path, make_raw
):
    import ray

    cfg = build_config(make_raw(seeds_per_lineup=24, batch_size=4))
    total = len(schedule(cfg))
    run_tournament(cfg, tmp_path / "serial", executor="serial")

    worker = ray_cluster.add_node(num_cpus=1)
    ray_cluster.wait_for_nodes()
    assert ray.cluster_resources().get("CPU") == 2
    killed_at = []

    def kill_worker_node(i, rows):
        if i == 1:  # batches are still running on both nodes
            ray_cluster.remove_node(worker, allow_graceful=False)
            killed_at.append(i)

    s = run_tournament(cfg, tmp_path / "ray", executor="ray", on_batch=kill_worker_node)
    assert killed_at == [1] and s.batches > 4
    assert s.played == total
    deadline = time.time() + 60  # the head notices the dead node after missed health checks
    while sum(1 for n in ray.nodes() if n["Alive"]) != 1 and time.time() < deadline:
        time.sleep(0.5)
    assert sum(1 for n in ray.nodes() if n["Alive"]) == 1
    assert _strip(read_ledger(tmp_path / "ray").table) == _strip(
        read_ledger(tmp_path / "serial").table
    )
