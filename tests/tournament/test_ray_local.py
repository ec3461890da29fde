"""Ray's local session and cluster address, without starting Ray: what the runner asks of
ray.init, and what a cluster that wants a token is told."""

from __future__ import annotations

import sys

import pytest

from tournament import cluster, runner


def test_the_local_session_is_its_own_beside_a_running_cluster(monkeypatch):
    """Was: ray.init(num_cpus=...) with no address attached to a cluster started on the
    machine (`ray start --head`) and failed ('num_cpus ... must not be provided')."""
    inits: list[dict] = []

    class Ray:
        def is_initialized(self):
            return False

        def init(self, **kw):
            inits.append(kw)
            raise RuntimeError("stop here")

    monkeypatch.setitem(sys.modules, "ray", Ray())
    with pytest.raises(cluster.RunnerError), runner._ray_session(2, None):
        pass
    assert inits[0]["address"] == "local" and inits[0]["num_cpus"] == 2


def test_a_cluster_that_wants_a_token_is_named_so(monkeypatch):
    """Was: 'cannot reach the Ray cluster' for a cluster that answered and refused the
    client's missing token (Ray's default for `ray start` turns token auth on)."""
    raylet = pytest.importorskip("ray._raylet")

    class Client:
        def __init__(self, address):
            pass

        def get_all_node_info(self, timeout=None):
            raise RuntimeError("RPC error: InvalidAuthToken: Authentication token is missing")

    monkeypatch.setattr(raylet, "GcsClient", Client)
    with pytest.raises(cluster.RunnerError, match="set RAY_AUTH_MODE=token"):
        cluster._probe_gcs("127.0.0.1:1", "127.0.0.1:1", 1.0)
