"""Reaching a Ray cluster: the address check that fails fast, and the runner's error.

``ray.init`` retries an unreachable address for minutes; ``check_address`` answers in
seconds with one line naming the address. Ray itself is imported only by the runner (and
here only Ray's private node-table client, lazily, to tell a Ray head from another
service on the same port).
"""

from __future__ import annotations

import re
import socket

from spiel_games.common.errors import MeepleError, one_line

CONNECT_TIMEOUT = 10.0  # seconds to reach a cluster address


class RunnerError(MeepleError):
    """The run could not go on (unreachable cluster, a batch that failed on a worker)."""


def check_address(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Fail fast, with one line naming it, when a Ray cluster address cannot be reached
    (``ray.init`` would otherwise retry for minutes). ``auto`` is left to Ray."""
    if address == "auto" or address.startswith("local"):
        return
    m = re.fullmatch(r"(?:ray://)?\[?([^\]/]*?)\]?:(\d+)/?", address.strip())
    if not m:
        raise RunnerError(f"Ray address {address!r}: expected HOST:PORT or ray://HOST:PORT")
    host, port = m.group(1), int(m.group(2))
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except TimeoutError:
        raise RunnerError(
            f"cannot reach the Ray cluster at {address}: no answer within {timeout:g} s"
        ) from None
    except OSError as e:
        raise RunnerError(
            f"cannot reach the Ray cluster at {address}: {e.strerror or one_line(e)}"
        ) from None
    if not address.startswith("ray://"):
        _probe_gcs(f"{host}:{port}", address, timeout)


def _probe_gcs(hostport: str, address: str, timeout: float) -> None:
    """Ask the address for Ray's node table once: a port that accepts connections but is not
    a Ray head (a proxy, another service) fails here at once instead of in ray.init's retries."""
    try:
        from ray._raylet import GcsClient  # type: ignore[attr-defined]
    except ImportError:
        return
    try:
        client = GcsClient(address=hostport)
        client.get_all_node_info(timeout=timeout)
    except (TypeError, AttributeError):  # Ray's private client changed: leave it to ray.init
        return
    except Exception as e:
        if "InvalidAuthToken" in str(e):  # it answered, and wants the cluster's token
            raise RunnerError(
                f"the Ray cluster at {address} refused this client's token: it runs with token"
                " authentication (Ray's default for `ray start`); set RAY_AUTH_MODE=token here,"
                " with the cluster's token (~/.ray/auth_token or RAY_AUTH_TOKEN)"
            ) from None
        raise RunnerError(
            f"cannot reach the Ray cluster at {address}: no Ray answer ({one_line(e)})"
        ) from None
