"""What Ray does to a run's output and ending, mostly without starting Ray: its prints stay
off stdout (a lost node's raylet log lines broke `--format json`), `--quiet` drops them,
and a cluster head lost mid-run stops the run with one meeple line before Ray's core ends
the process. One test (marked ray) kills a real worker of `meeple solve --workers 2`."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tournament import cluster, runner
from tournament.cli import app

ROOT = Path(__file__).resolve().parents[2]
GAME2 = "python_coloretto(players=2)"
cli = CliRunner()

# What Ray does on the driver while it runs: one of its threads prints a lost node's
# raylet log lines and a dead worker's warning through sys.stdout, native code may write to
# file descriptor 1, and Ray's loggers write to stderr.
RAY_NOISE = """
import logging, os, sys, threading

def ray_noise():
    def write():
        os.write(1, b"[state-dump] written to fd 1\\n")
        print("(raylet) Raylet is terminated. Termination is unexpected.", flush=True)
        print("(raylet) A worker died or was killed while executing a task.", flush=True)
        logging.getLogger("ray._private.worker").error("listen_error_messages: a Ray log line")
    t = threading.Thread(target=write)
    t.start()
    t.join()
"""
NOISE = ("written to fd 1", "Raylet is terminated", "A worker died", "a Ray log line")


def _noise(text: str) -> list[str]:
    """Which of Ray's prints ``text`` holds."""
    return [n for n in NOISE if n in text]


def _python(code: str, *args: str) -> subprocess.CompletedProcess:
    """``code`` after RAY_NOISE in a fresh interpreter, this checkout first on its path,
    its stdout and stderr real file descriptors (pipes)."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    return subprocess.run(
        [sys.executable, "-c", RAY_NOISE + textwrap.dedent(code), *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": path},
        timeout=300,
    )


def _meeple_while_ray_prints(module: str, name: str, argv: str, arg: str):
    """``meeple`` with ``argv`` (Python source of the argument list, which may use
    ``sys.argv[1]``, set to ``arg``) in a fresh interpreter, ``module.name`` patched to
    first write as Ray does (``ray_noise``)."""
    return _python(
        f"""
        import {module} as patched
        from tournament.cli import main

        real = patched.{name}

        def noisy(*args, **kw):
            ray_noise()
            return real(*args, **kw)

        patched.{name} = noisy
        sys.argv = ["meeple", *{argv}]
        main()
        """,
        arg,
    )


def _ray_prints_went(r: subprocess.CompletedProcess, quiet: bool) -> None:
    """Ray's prints: none on stdout; on stderr every one, or with --quiet none."""
    assert _noise(r.stdout) == [], r.stdout
    assert _noise(r.stderr) == ([] if quiet else list(NOISE)), r.stderr


@pytest.mark.parametrize("quiet", [False, True])
def test_own_stdout_keeps_fd_1_for_the_result(quiet):
    r = _python(
        """
        import json
        from tournament.cli.stdout import own_stdout

        print("before", flush=True)
        with own_stdout(**({"quiet": True} if sys.argv[1:] == ["quiet"] else {})) as out:
            ray_noise()
            out.write(json.dumps({"verdict": "H1"}) + "\\n")
        print("after")
        logging.getLogger("ray").error("logging is back")
        """,
        *(["quiet"] if quiet else []),
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout == 'before\n{"verdict": "H1"}\nafter\n'
    _ray_prints_went(r, quiet)
    assert r.stderr.endswith("logging is back\n")


@pytest.mark.parametrize(("fmt", "quiet"), [("json", False), ("text", True)])
def test_sprt_stdout_is_the_result_alone_while_ray_prints(tmp_path, fmt, quiet):
    """Was: after a Ray node died mid-test, the raylet's last log lines (some 20) came
    first on stdout, and `meeple sprt --format json` printed no JSON; with -q they still
    came, on stderr. Ray is played by a play_sprt that first writes as Ray does."""
    argv = (
        f'["sprt", "{GAME2}", "heuristic", "random", "--elo1", "100", "--max-games", "200", '
        f'"--executor", "serial", "--out", sys.argv[1], "--format", "{fmt}"'
        + (', "-q"]' if quiet else "]")
    )
    r = _meeple_while_ray_prints("tournament.sprt.run", "play_sprt", argv, str(tmp_path / "sprt"))
    assert r.returncode == 0, r.stderr
    if fmt == "json":
        assert json.loads(r.stdout)["verdict"] == "H1"
    else:
        assert r.stdout.startswith(f"SPRT {GAME2}") and "verdict: H1 accepted" in r.stdout
    _ray_prints_went(r, quiet)
    if quiet:
        assert r.stderr == ""


@pytest.mark.parametrize("quiet", [False, True])
def test_train_stdout_is_its_report_alone_while_ray_prints(tmp_path, quiet):
    """Was: train printed its report on a stdout Ray's threads and native code also wrote
    to. The self-play is played by a train that first writes as Ray does."""
    argv = (
        f'["train", "{GAME2}", "--games", "6", "--executor", "serial", '
        '"--out", sys.argv[1] + "/m.json", "--work", sys.argv[1] + "/w"'
        + (', "-q"]' if quiet else "]")
    )
    r = _meeple_while_ray_prints("tournament.training", "train", argv, str(tmp_path))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("6 self-play games") and lines[-1].startswith("wrote "), r.stdout
    _ray_prints_went(r, quiet)


# batches of `meeple solve --workers N` played here (no Ray), each round first writing as
# Ray does while its workers train
SOLVE_WHILE_RAY_PRINTS = """
import solvers.mccfr_train as mt
from tournament.cli import main

class Noisy(mt.SerialExecutor):
    def __init__(self, spec, address=None):
        super().__init__(spec)

    def run_round(self, *args):
        ray_noise()
        return super().run_round(*args)

mt.RayExecutor = Noisy
sys.argv = ["meeple", "solve", "kuhn_poker", "--solver", "mccfr-os", "--workers", "2",
            "--iterations", "8", "--report-every", "4", "-o", sys.argv[1], *sys.argv[2:]]
main()
"""


@pytest.mark.parametrize("quiet", [False, True])
def test_solve_workers_stdout_is_its_report_alone_while_ray_prints(tmp_path, quiet):
    """Was: `meeple solve --workers N` printed its header, report lines and result on the
    stdout Ray's threads and native code also wrote to, `--quiet` or not."""
    flags = ["--quiet"] if quiet else []
    r = _python(SOLVE_WHILE_RAY_PRINTS, str(tmp_path / "k.npz"), *flags)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("mccfr-os on kuhn_poker") and "2 workers" in lines[0], r.stdout
    assert lines[-1].startswith(f"wrote {tmp_path / 'k.npz'}: 12 keys"), r.stdout
    if quiet:
        assert [x.split(":")[0] for x in lines[1:-1]] == ["iteration 4", "iteration 8"]
    _ray_prints_went(r, quiet)
    if quiet:
        assert r.stderr == ""


@pytest.mark.parametrize("quiet", [[], ["-q"]])
def test_tournament_run_stdout_is_its_own_while_ray_prints(
    tmp_path, make_raw, write_toml, monkeypatch, quiet
):
    """Ray's prints through sys.stdout go to stderr (-q: nowhere); the summary line and
    the --verbose game lines stay on stdout."""
    real = runner.run_tournament

    def noisy(*args, **kw):
        print("(raylet) Raylet is terminated. Termination is unexpected.")
        return real(*args, **kw)

    monkeypatch.setattr(runner, "run_tournament", noisy)
    path = write_toml(make_raw())
    out = str(tmp_path / "t")
    r = cli.invoke(app, ["tournament", "run", str(path), "--out", out, "-v", *quiet])
    assert r.exit_code == 0, r.output
    assert "Raylet" not in r.stdout and ("Raylet" in r.stderr) == (not quiet)
    lines = r.stdout.splitlines()
    assert lines[0].startswith("Finished game 1 of ") and "game(s) played" in lines[-1]


# ----- a lost head ------------------------------------------------------------------------


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed on leaving: connections to it are refused


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_head_watch_stops_after_its_patience_and_forgives_a_head_that_answers():
    gone = ("127.0.0.1", _closed_port())
    with socket.socket() as head:
        head.bind(("127.0.0.1", 0))
        head.listen()
        port = head.getsockname()[1]
        clock = Clock()
        watch = cluster.HeadWatch(f"127.0.0.1:{port}", "kept", patience=20.0, clock=clock)
        watch.check()
        assert watch.silent_since is None
        watch.head, clock.now = gone, 5.0  # silent from here
        watch.check()
        assert watch.silent_since == 5.0
        watch.head, clock.now = ("127.0.0.1", port), 10.0  # answers again: forgiven
        watch.check()
        assert watch.silent_since is None
    watch.head, clock.now = gone, 15.0
    watch.check()
    clock.now = 17.0  # asked at most every HEAD_CHECK_SECONDS: not asked
    watch.check()
    clock.now = 30.0
    watch.check()  # silent for 15 s
    clock.now = 35.0
    with pytest.raises(cluster.ClusterLost) as e:
        watch.check()
    assert str(e.value) == (
        f"lost the Ray cluster at 127.0.0.1:{port}: its head has not answered for 20 s; kept"
    )
    never = cluster.HeadWatch("auto", "kept", patience=0.0, clock=clock)
    never.check()  # nothing to ask: never raises


class FakeRay:
    """Ray as the runner uses it, with tasks that never finish and a head that is gone."""

    def __init__(self, initialized: bool):
        self.initialized = initialized
        self.calls: list[str] = []

    def is_initialized(self):
        return self.initialized

    def init(self, **kw):
        self.calls.append("init")

    def shutdown(self):
        self.calls.append("shutdown")

    def remote(self, **kw):
        return lambda f: type("Remote", (), {"remote": staticmethod(lambda *a: object())})

    def cluster_resources(self):
        return {"CPU": 2.0}

    def put(self, x):
        return x

    def wait(self, refs, num_returns=1, timeout=None):
        if timeout is None:
            raise AssertionError("a wait without a timeout never notices a lost head")
        return [], refs


@pytest.mark.parametrize("started_here", [True, False])
def test_a_lost_head_stops_the_run_in_one_line(monkeypatch, started_here):
    """Was: the runner waited on Ray without a timeout; once the head was gone Ray's core
    ended the process after 60 s (std::_Exit(1)) with two lines of its own and no meeple
    line. A session started here is shut down (some 5 s with the head gone) before the
    line; one that was running before is left."""
    ray = FakeRay(initialized=not started_here)
    monkeypatch.setitem(sys.modules, "ray", ray)
    monkeypatch.setattr(cluster, "HEAD_CHECK_SECONDS", 0.0, raising=False)
    monkeypatch.setattr(cluster, "HEAD_PATIENCE", 0.0, raising=False)
    address = f"127.0.0.1:{_closed_port()}"
    stream = runner._ray_results(None, [["a set"]], 2, address)  # type: ignore[arg-type, list-item]
    with pytest.raises(cluster.RunnerError) as e:
        next(stream)
    assert type(e.value).__name__ == "ClusterLost"
    assert str(e.value).startswith(f"lost the Ray cluster at {address}: its head has not")
    assert str(e.value).endswith(
        "the ledger keeps every finished game: run the same command again to resume"
    )
    assert ray.calls == (["init", "shutdown"] if started_here else [])


def test_sprt_on_a_lost_cluster_is_exit_1_on_a_new_ledger(tmp_path, monkeypatch):
    """Was exit 2 (a wrong command line) when the cluster was lost before the test's first
    finished set: sprt took every error of a run on a new ledger for a setup error."""
    import tournament.sprt.run as run

    def lost(*args, **kw):
        raise cluster.RunnerError("lost the Ray cluster at 127.0.0.1:1: its head has ...")

    monkeypatch.setattr(run, "play_sprt", lost)
    r = cli.invoke(app, ["sprt", GAME2, "heuristic", "random", "--out", str(tmp_path / "s")])
    assert r.exit_code == 1, r.output
    assert r.stderr == "error: lost the Ray cluster at 127.0.0.1:1: its head has ...\n"
    assert r.stdout == ""


def test_quiet_keeps_a_lost_head_s_line_and_drops_ray_s(tmp_path):
    """--quiet drops Ray's own prints and log lines, never meeple's one-line error: Ray
    prints, then the head is found lost (HeadWatch's ClusterLost)."""
    r = _python(
        """
        import tournament.sprt.run as run
        from tournament.cli import main
        from tournament.cluster import ClusterLost

        def lost(*args, **kw):
            ray_noise()
            raise ClusterLost("lost the Ray cluster at 127.0.0.1:6379: its head has not answered")

        run.play_sprt = lost
        sys.argv = ["meeple", "sprt", sys.argv[2], "heuristic", "random", "-q", "--out", sys.argv[1]]
        main()
        """,
        str(tmp_path / "s"),
        GAME2,
    )
    assert r.returncode == 1
    assert r.stderr == "error: lost the Ray cluster at 127.0.0.1:6379: its head has not answered\n"
    assert r.stdout == ""


# a worker process of `meeple solve --workers 2` killed between two rounds (SIGKILL): Ray's
# raylet reports it to the driver ("A worker died or was killed ..."), the round replaces it
SOLVE_WITH_A_KILLED_WORKER = """
import os, signal, sys, time
import solvers.mccfr_train as mt
from tournament.cli import main

real = mt.RayExecutor.run_round

def killing(self, tables, view, round_no, plan):
    if round_no == 2:
        pid = self.ray.get(self._actor(1).__ray_call__.remote(lambda actor: os.getpid()))
        os.kill(pid, signal.SIGKILL)
        time.sleep(3)  # Ray's warning reaches the driver meanwhile
    return real(self, tables, view, round_no, plan)

mt.RayExecutor.run_round = killing
sys.argv = ["meeple", "solve", "kuhn_poker", "--solver", "mccfr-os", "--workers", "2",
            "--iterations", "8", "--report-every", "4", "-o", sys.argv[1], *sys.argv[2:]]
main()
"""


@pytest.mark.ray
@pytest.mark.parametrize("quiet", [False, True])
def test_a_killed_worker_s_warning_goes_to_stderr_and_quiet_drops_it(tmp_path, quiet):
    """Was: Ray's "A worker died or was killed" warning (a few hundred characters) came on
    solve's stdout, and --quiet did not drop it (nor, on the other commands, keep it off
    stderr). A local Ray session of its own, in a child process."""
    r = _python(
        SOLVE_WITH_A_KILLED_WORKER, str(tmp_path / "k.npz"), *(["--quiet"] if quiet else [])
    )
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("mccfr-os on kuhn_poker") and "worker died" not in r.stdout
    assert lines[-1].startswith(f"wrote {tmp_path / 'k.npz'}: 12 keys, "), r.stdout
    if quiet:
        assert r.stderr == ""
    else:
        assert "A worker died or was killed" in r.stderr
