"""Shared fixtures. ``ray_cluster`` is THE one Ray session of the whole test run.

Ray costs ~3 s per node to start, so every Ray test (marked ``@pytest.mark.ray``) shares
this session-scoped fixture instead of starting its own. It is a real multi-node cluster
on loopback (``ray.cluster_utils.Cluster``): a head node with one CPU, to which tests may
add and remove worker nodes, and the test process connected as the driver.
"""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest


def pytest_configure(config):
    """Ctrl-C reaches the tests as a terminal delivers it. A shell without job control (a
    script's ``make test &``, a CI runner) starts background commands with SIGINT ignored,
    which Python keeps and every child inherits: the tests that send SIGINT to themselves
    or to a `meeple` child then saw nothing happen (exit 0, not 130)."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True)
def recovery_dir(tmp_path, monkeypatch):
    """Where `meeple play` keeps unsaved games during a test: never the user's home."""
    path = tmp_path / "recovery"
    monkeypatch.setenv("MEEPLE_RECOVERY_DIR", str(path))
    return path


@pytest.fixture(scope="session")
def ray_cluster():
    ray = pytest.importorskip("ray")
    from ray.cluster_utils import Cluster

    cluster = Cluster(
        initialize_head=True,
        head_node_args={
            "num_cpus": 1,
            "include_dashboard": False,
            # notice a killed node in ~1 s instead of ~15 s
            "_system_config": {
                "health_check_period_ms": 200,
                "health_check_failure_threshold": 3,
                "health_check_initial_delay_ms": 0,
            },
        },
    )
    ray.init(address=cluster.address, logging_level="ERROR", log_to_driver=False)
    try:
        yield cluster
    finally:
        ray.shutdown()
        cluster.shutdown()


def _load_script(name: str):
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def load_script():
    """load_script(NAME): scripts/NAME.py imported as a module (the scripts are no package)."""
    return _load_script


def _damaged_npz(path):
    """Two damaged copies of the .npz at ``path``, beside it: ``.cut.npz`` (the file cut
    off halfway, its zip directory lost) and ``.bad.npz`` (the zip intact but its largest
    member's deflate stream overwritten, which zlib refuses)."""
    import struct
    import zipfile
    from pathlib import Path

    path = Path(path)
    data = path.read_bytes()
    cut = path.with_suffix(".cut.npz")
    cut.write_bytes(data[: len(data) // 2])
    with zipfile.ZipFile(path) as z:
        info = max(z.infolist(), key=lambda i: i.compress_size)
    assert info.compress_type == zipfile.ZIP_DEFLATED and info.compress_size >= 8
    h = info.header_offset
    name_len, extra_len = struct.unpack("<HH", data[h + 26 : h + 30])
    start = h + 30 + name_len + extra_len
    bad = path.with_suffix(".bad.npz")
    bad.write_bytes(data[:start] + b"\xff" * 8 + data[start + 8 :])  # reserved block type
    return cut, bad


@pytest.fixture
def damaged_npz():
    """damaged_npz(PATH): (truncated copy, copy with a corrupted member) of an .npz file."""
    return _damaged_npz


@pytest.fixture
def ended_pid() -> int:
    """The pid of a process that has ended (a writer that died before it finished)."""
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    return ended.pid
