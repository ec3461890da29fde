"""Reaching a Ray cluster: the address check that fails fast, the watch on its head while
a run goes on, and the runner's error.

``ray.init`` retries an unreachable address for minutes; ``check_address`` answers in
seconds with one line naming the address. A head lost mid-run is worse: Ray's core ends
the driver process itself (``std::_Exit(1)``) once the head has been gone for
``gcs_rpc_server_reconnect_timeout_s`` (60 s), with two lines of its own and none of
meeple's; ``HeadWatch`` notices the loss well before that, so the run stops with one line.
Ray itself is imported only by the runner (and here only Ray's private node-table client,
lazily, to tell a Ray head from another service on the same port).
"""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Callable

from spiel_games.common.errors import MeepleError, one_line

CONNECT_TIMEOUT = 10.0  # seconds to reach a cluster address
HEAD_CHECK_SECONDS = 5.0  # a run asks whether the head answers at most this often
HEAD_PATIENCE = 20.0  # seconds of a silent head before the run stops (Ray's core exits at 60)
PROBE_TIMEOUT = 2.0  # seconds one such question may take
KEPT = "the ledger keeps every finished game: run the same command again to resume"


class RunnerError(MeepleError):
    """The run could not go on (unreachable cluster, a batch that failed on a worker)."""


class ClusterLost(RunnerError):
    """The cluster's head stopped answering while the run went on."""


def head_address(address: str) -> tuple[str, int] | None:
    """(host, port) of a cluster address (HOST:PORT or ray://HOST:PORT); None for ``auto``
    and ``local``, which are left to Ray."""
    if address == "auto" or address.startswith("local"):
        return None
    m = re.fullmatch(r"(?:ray://)?\[?([^\]/]*?)\]?:(\d+)/?", address.strip())
    if not m:
        raise RunnerError(f"Ray address {address!r}: expected HOST:PORT or ray://HOST:PORT")
    return m.group(1), int(m.group(2))


def check_address(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Fail fast, with one line naming it, when a Ray cluster address cannot be reached
    (``ray.init`` would otherwise retry for minutes). ``auto`` is left to Ray."""
    head = head_address(address)
    if head is None:
        return
    host, port = head
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


class HeadWatch:
    """Whether a cluster's head still answers, asked while a run goes on.

    ``check()``, called as often as convenient, asks the head (one TCP connection) at most
    every ``HEAD_CHECK_SECONDS`` and raises ``ClusterLost`` once it has refused (or not
    answered) for ``patience`` seconds on end: early enough to stop with one line before
    Ray's core ends the process (60 s after the head is gone). A head that answers again
    in between resets the count (a head restarted with GCS fault tolerance is kept).
    ``kept`` ends the line: what the run keeps and how to go on (the runner's ledger by
    default). A watch on ``auto`` or ``local`` never raises."""

    def __init__(
        self,
        address: str,
        kept: str = KEPT,
        patience: float | None = None,  # HEAD_PATIENCE
        clock: Callable[[], float] = time.monotonic,
    ):
        self.address, self.kept, self.clock = address, kept, clock
        self.patience = HEAD_PATIENCE if patience is None else patience
        try:
            self.head = head_address(address)
        except RunnerError:  # not HOST:PORT: nothing to ask (ray.init took it, or refused it)
            self.head = None
        self.asked: float | None = None  # when the head was last asked
        self.silent_since: float | None = None

    def answers(self) -> bool:
        if self.head is None:
            return True
        try:
            with socket.create_connection(self.head, timeout=PROBE_TIMEOUT):
                return True
        except OSError:
            return False

    def check(self) -> None:
        now = self.clock()
        if self.asked is not None and now - self.asked < HEAD_CHECK_SECONDS:
            return
        self.asked = now
        if self.answers():
            self.silent_since = None
            return
        if self.silent_since is None:
            self.silent_since = now
        if now - self.silent_since >= self.patience:
            raise ClusterLost(
                f"lost the Ray cluster at {self.address}: its head has not answered for "
                f"{now - self.silent_since:.0f} s; {self.kept}"
            )

    def wait(self, ray, refs: list) -> tuple[object, list]:
        """The first of Ray's ``refs`` to finish, and the others; the head is asked every
        ``HEAD_CHECK_SECONDS`` meanwhile (``ClusterLost`` once it is gone)."""
        while True:
            self.check()
            ready, rest = ray.wait(refs, num_returns=1, timeout=HEAD_CHECK_SECONDS)
            if ready:
                return ready[0], rest
