"""Issue 14: defects a new user hit in tournaments, each with the behaviour that was wrong.

Agent specs validated before anything is written, progress without a terminal, a wrong
cluster address, two runs racing on a fresh directory, executor choice, dry-run size, and
one-line errors for bad input."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import spiel_games
from solvers.policy_file import PolicyFileError, write_policy
from tournament import runner as runner_module
from tournament.cli import app
from tournament.config import build_config
from tournament.ledger import LedgerError, read_ledger
from tournament.runner import RunnerError, run_tournament
from tournament.schedule import schedule

cli = CliRunner()
GAME2 = "python_coloretto(players=2)"


def _invoke(*args, **kw):
    return cli.invoke(app, [str(a) for a in args], **kw)


def _policy_file(path):
    """An empty but valid policy file for 2-player Coloretto (every move from the fallback)."""
    meta = {
        "game": str(spiel_games.load_game(GAME2)),
        "abstraction": "none",
        "abstraction_version": 0,
        "iterations": 0,
        "solver": "test",
    }
    write_policy(path, {}, meta)
    return path


# ----- item 1: every agent spec validated in the step --dry-run runs --------------------


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("mcts(sims=-5)", "'sims'"),
        ("ismcts(sims=0)", "'sims'"),
        ("mcts(rollout=zzz)", "rollout"),
        ("pimc(worlds=0)", "'worlds'"),
        ("mcts(epsilon=2)", "epsilon"),
        ("policy(path=missing.parquet)", "not found"),
        ("policy", "needs path"),
    ],
)
def test_bad_agent_values_fail_the_dry_run_before_anything_is_written(
    tmp_path, make_raw, write_toml, spec, words
):
    """Was: values and policy paths were checked only when games started, so `--dry-run`
    passed and the real run created the ledger before stopping."""
    path = write_toml(make_raw(agents={"random": "random", "bad": spec}))
    out = tmp_path / "o"
    for extra in (["--dry-run"], ["--executor", "serial"]):
        r = _invoke("tournament", "run", path, "--out", out, *extra)
        assert r.exit_code == 2, r.output
        assert r.output.startswith("error: agents.bad: ") and words in r.output
        assert len(r.output.strip().splitlines()) == 1
        assert not out.exists()


def test_a_damaged_blueprint_fails_validation_in_one_line(
    tmp_path, make_raw, write_toml, damaged_npz
):
    """Was: a traceback (zipfile.BadZipFile or zlib.error) from `tournament run` and `sprt`;
    now refused as a missing or unreadable blueprint is (exit 2), nothing written."""
    copy = tmp_path / "bp.npz"
    copy.write_bytes(
        (Path(spiel_games.__file__).parent / "coloretto/blueprint_3p.npz").read_bytes()
    )
    for bad in damaged_npz(copy):
        spec = f"blueprint(path={bad})"
        path = write_toml(make_raw(agents={"random": "random", "bp": spec}))
        r = _invoke("tournament", "run", path, "--out", tmp_path / "o", "--executor", "serial")
        assert r.exit_code == 2 and r.output.count("\n") == 1, r.output
        assert r.output.startswith("error: agents.bp: ") and "truncated, corrupt" in r.output
        r = _invoke("sprt", GAME2, spec, "random", "--out", tmp_path / "s", "-q")
        assert r.exit_code == 2 and r.output.count("\n") == 1, r.output
        assert "truncated, corrupt" in r.output
        assert not (tmp_path / "o").exists() and not (tmp_path / "s").exists()


def test_policy_file_for_another_game_or_not_a_policy_fails_validation(tmp_path, make_raw):
    """Was: a policy file that is unreadable or trained for another game passed validation."""
    junk = tmp_path / "junk.parquet"
    junk.write_bytes(b"not parquet at all")
    with pytest.raises(Exception, match="cannot read policy file") as e:
        build_config(make_raw(agents={"random": "random", "p": f"policy(path={junk})"}))
    assert "agents.p" in str(e.value)
    other = tmp_path / "three.parquet"
    meta = {
        "game": str(spiel_games.load_game("python_coloretto(players=3)")),
        "abstraction": "none",
        "abstraction_version": 0,
        "iterations": 0,
        "solver": "test",
    }
    write_policy(other, {}, meta)
    with pytest.raises(Exception, match="policy file is for game"):
        build_config(make_raw(agents={"random": "random", "p": f"policy(path={other})"}))
    good = _policy_file(tmp_path / "good.parquet")
    cfg = build_config(make_raw(agents={"random": "random", "p": f"policy(path={good})"}))
    assert [a.name for a in cfg.agents] == ["random", "p"]


def test_a_run_stopped_by_an_agent_error_leaves_no_ledger(tmp_path, make_raw):
    """Was: the ledger was created, the run stopped with "rerun to resume" (which failed the
    same way), and after the fix the same --out was refused as holding another tournament."""
    pol = _policy_file(tmp_path / "p.parquet")
    cfg = build_config(make_raw(agents={"random": "random", "p": f"policy(path={pol})"}))
    pol.unlink()  # gone between validation and play
    out = tmp_path / "o"
    with pytest.raises(PolicyFileError, match="not found"):
        run_tournament(cfg, out, executor="serial")
    assert not out.exists()
    fixed = build_config(make_raw(agents={"random": "random", "greedy": "heuristic"}))
    assert run_tournament(fixed, out, executor="serial").played == len(schedule(fixed))


# ----- item 2: progress without a terminal, --verbose ------------------------------------


def test_progress_lines_on_stderr_without_a_terminal_and_verbose_game_lines(
    tmp_path, make_raw, write_toml
):
    """Was: with stdout not a terminal (nohup, CI) nothing was printed until the end."""
    path = write_toml(make_raw())
    r = _invoke("tournament", "run", path, "--out", tmp_path / "o", "--executor", "serial", "-v")
    assert r.exit_code == 0, r.output
    err = r.stderr.splitlines()
    assert err[0] == "tournament: 12 games scheduled, 0 already in the ledger"
    status = [line for line in err if line.startswith("[")]
    assert len(status) == 3  # batch_size 4: one line per finished batch
    assert status[0].startswith("[ 4/12  33.3%]") and status[-1].startswith("[12/12 100.0%]")
    assert all(
        "games/s, ETA" in s and "; top (share of pairwise results won): " in s for s in status
    )
    assert "greedy" in status[-1].split("won): ")[1]
    games = [line for line in r.stdout.splitlines() if line.startswith("Finished game")]
    assert len(games) == 12 and games[0].startswith("Finished game 1 of 12 (")
    assert " vs " in games[0] and "{scores " in games[0] and " id " in games[0]
    quiet = _invoke("tournament", "run", path, "--out", tmp_path / "q", "-q")
    assert quiet.exit_code == 0 and not any(x.startswith("[") for x in quiet.stderr.splitlines())


# ----- item 3: a wrong cluster address fails fast, writing nothing -----------------------


def test_unreachable_address_is_one_line_and_writes_nothing(tmp_path, make_raw, write_toml):
    """Was: `--address` to nothing hung for minutes after writing manifest.json."""
    path = write_toml(make_raw())
    out = tmp_path / "o"
    t = time.perf_counter()
    r = _invoke("tournament", "run", path, "--out", out, "--address", "127.0.0.1:9")
    assert r.exit_code == 1 and time.perf_counter() - t < 10
    assert r.output.startswith("error: cannot reach the Ray cluster at 127.0.0.1:9")
    assert len(r.output.strip().splitlines()) == 1 and not out.exists()
    r = _invoke("tournament", "run", path, "--out", out, env={"RAY_ADDRESS": "127.0.0.1:9"})
    assert r.exit_code == 1 and "127.0.0.1:9" in r.output and not out.exists()
    r = _invoke("tournament", "run", path, "--out", out, "--address", "no-port")
    assert r.exit_code == 1 and "HOST:PORT" in r.output and not out.exists()
    # was exit 2 from sprt (its setup errors), 1 from tournament run and solve
    game = "python_coloretto(players=3)"
    r = _invoke("sprt", game, "random", "heuristic", "--out", out, "--address", "127.0.0.1:9")
    assert r.exit_code == 1 and "cannot reach the Ray cluster" in r.output and not out.exists()


def test_address_that_never_answers_times_out(tmp_path, small_config):
    """A black-holed address fails after the connection timeout, not after minutes."""
    t = time.perf_counter()
    with pytest.raises(RunnerError, match="cannot reach the Ray cluster at 10.255.255.1:6379"):
        run_tournament(
            small_config, tmp_path / "o", address="10.255.255.1:6379", connect_timeout=0.5
        )
    assert time.perf_counter() - t < 5 and not (tmp_path / "o").exists()


# ----- item 7: two configs racing on a fresh directory -----------------------------------


def test_two_configs_started_together_never_corrupt_a_fresh_ledger(tmp_path, make_raw):
    """Was: the manifest was written before the lock was taken, so two configs started
    together could both write into one directory (7 of 27 trials corrupted it)."""
    configs = [build_config(make_raw(seeds_per_lineup=1, seed=s, batch_size=1)) for s in (1, 2)]
    for trial in range(12):
        out = tmp_path / f"t{trial}"
        barrier = threading.Barrier(2)
        outcome: dict[int, object] = {}

        def go(i, out=out, barrier=barrier, outcome=outcome):
            barrier.wait()
            try:
                outcome[i] = run_tournament(configs[i], out, executor="serial")
            except LedgerError as e:
                outcome[i] = e

        threads = [threading.Thread(target=go, args=(i,)) for i in (0, 1)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        winners = [i for i in (0, 1) if not isinstance(outcome[i], Exception)]
        assert len(winners) >= 1
        led = read_ledger(out)  # readable, one config's games only
        owner = [i for i in (0, 1) if configs[i].run_id == led.manifest["run_id"]]
        assert owner and owner[0] in winners
        assert sorted(led.game_ids) == sorted(t.game_id for t in schedule(configs[owner[0]]))
        for i in set((0, 1)) - set(winners):
            assert "another run" in str(outcome[i]) or "another tournament" in str(outcome[i])


# ----- item 10: executor choice ----------------------------------------------------------


def test_rerun_of_a_finished_tournament_never_starts_ray(tmp_path, small_config, monkeypatch):
    """Was: a rerun with nothing to play still started Ray (9-29 s to play 0 games)."""
    ray = pytest.importorskip("ray")
    out = tmp_path / "o"
    run_tournament(small_config, out, executor="serial")

    def no_ray(*a, **k):
        raise AssertionError("Ray was started")

    monkeypatch.setattr(ray, "init", no_ray)
    for executor in ("auto", "ray"):
        s = run_tournament(small_config, out, executor=executor)
        assert s.played == 0 and s.executor == "none"


def test_auto_executor_plays_small_runs_serially_and_switches_past_break_even(
    tmp_path, small_config, monkeypatch
):
    """Was: Ray was the default for every run (demo 24 s with Ray vs 16 s serial)."""
    ray = pytest.importorskip("ray")
    monkeypatch.setattr(ray, "init", lambda *a, **k: pytest.fail("Ray was started"))
    small = run_tournament(small_config, tmp_path / "a")
    assert small.executor == "serial" and small.played == len(schedule(small_config))

    sent = []

    def fake_ray(spec, chunks, workers, address):
        for c in chunks:
            sent.append(len(c))
            yield runner_module.play_batch(spec, c)

    monkeypatch.setattr(runner_module, "BREAK_EVEN_SECONDS", 0.0)
    monkeypatch.setattr(runner_module, "PROBE_SECONDS", 0.0)
    monkeypatch.setattr(runner_module, "_ray_results", fake_ray)
    big = run_tournament(small_config, tmp_path / "b")
    assert big.executor == "serial, then ray" and sum(sent) == big.played - 2
    a = read_ledger(tmp_path / "a").table.drop_columns(["duration"]).sort_by("game_id")
    b = read_ledger(tmp_path / "b").table.drop_columns(["duration"]).sort_by("game_id")
    assert a.equals(b)
    one = run_tournament(small_config, tmp_path / "c", workers=1)  # one worker: never Ray
    assert one.executor == "serial"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux")
def test_ray_worker_hook_ties_the_worker_to_its_parent():
    """Was: Ray workers outlived a `kill -9` of the driver by 1-2 minutes. The hook every
    worker runs asks the kernel for SIGKILL when its parent (the raylet) dies."""
    code = (
        "import ctypes, signal; from tournament.runner import die_with_parent; "
        "die_with_parent(); sig = ctypes.c_int(); "
        "ctypes.CDLL(None).prctl(2, ctypes.byref(sig)); print(sig.value)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert int(out.stdout) == signal.SIGKILL


# ----- also seen: dry-run size, --seed -1, non-UTF-8 TOML --------------------------------


def test_dry_run_of_a_huge_schedule_is_instant_and_absurd_sizes_are_refused(
    tmp_path, make_raw, write_toml
):
    """Was: a dry run with seeds_per_lineup = 1000000 built the whole schedule (113 s,
    1.2 GB); larger values hung."""
    path = write_toml(make_raw())
    t = time.perf_counter()
    r = _invoke("tournament", "run", path, "--dry-run", "--seeds-per-lineup", "500000")
    assert r.exit_code == 0 and r.stdout.startswith("1000000 games, 2 agents")
    r = _invoke("tournament", "run", path, "--dry-run", "--seeds-per-lineup", "1000000")
    assert time.perf_counter() - t < 10
    assert r.exit_code == 2 and "2,000,000 games, over the limit of 1,000,000" in r.output


def test_ratings_negative_seed_and_non_utf8_config_are_one_line_errors(
    tmp_path, make_raw, write_toml
):
    """Was: tracebacks (`ratings --seed -1`: numpy's ValueError; a TOML file with a
    non-UTF-8 byte: UnicodeDecodeError)."""
    out = tmp_path / "o"
    run_tournament(build_config(make_raw(seeds_per_lineup=2)), out, executor="serial")
    r = _invoke("ratings", out, "--seed", "-1")
    assert r.exit_code == 2 and r.output.startswith("error: ") and "--seed" in r.output
    assert r.output.count("\n") == 1
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b'[tournament]\ngame = "python_coloretto(players=2)" # caf\xe9\n')
    r = _invoke("tournament", "run", bad, "--dry-run")
    assert r.exit_code == 2 and r.output.startswith("error: ") and "not UTF-8" in r.output
    assert len(r.output.strip().splitlines()) == 1


@pytest.mark.parametrize("value", ["nan", "inf"])
def test_a_time_limit_that_is_not_a_finite_number_is_refused(tmp_path, make_raw, write_toml, value):
    """Was: --time-limit nan was accepted (no move could ever time out; NaN in the manifest)."""
    r = _invoke("tournament", "run", write_toml(make_raw()), "--dry-run", "--time-limit", value)
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "time_limit" in r.output


def test_a_manifest_that_cannot_be_read_is_one_line(tmp_path, make_raw):
    """Was: a manifest.json that is a directory (or unreadable) was an IsADirectoryError
    traceback from ratings, replay and review."""
    out = tmp_path / "o"
    run_tournament(build_config(make_raw(seeds_per_lineup=1)), out, executor="serial")
    (out / "manifest.json").unlink()
    (out / "manifest.json").mkdir()
    with pytest.raises(LedgerError, match="unreadable manifest"):
        read_ledger(out)
    for argv in (["ratings", out], ["replay", out, "0" * 16], ["review", out, "--list"]):
        r = _invoke(*argv)
        assert r.exit_code == 1 and r.output.startswith("error: "), r.output
        assert r.output.count("\n") == 1 and "unreadable manifest" in r.output


def test_a_manifest_that_is_not_an_object_says_what_it_holds(tmp_path):
    """Was: only 'not a meeple ledger manifest (version 3)' for `[1, 2, 3]`."""
    for text, what in (("[1, 2, 3]", "an array"), ('"x"', "a string"), ("7", "a number")):
        (tmp_path / "manifest.json").write_text(text)
        with pytest.raises(LedgerError, match=f"manifest \\(version 3\\): {what}, not an object$"):
            read_ledger(tmp_path)


# ----- Ray: a worker's agent error arrives as the project's one line ---------------------


@pytest.mark.ray
def test_agent_error_on_a_ray_worker_is_one_clean_line(ray_cluster, tmp_path, make_raw):
    """Was: `RayTaskError(AgentSpecError): \\x1b[36mray::play_batch()...` reached the user."""
    pol = _policy_file(tmp_path / "p.parquet")
    cfg = build_config(make_raw(agents={"random": "random", "p": f"policy(path={pol})"}))
    pol.unlink()
    with pytest.raises(PolicyFileError) as e:
        run_tournament(cfg, tmp_path / "o", executor="ray")
    text = str(e.value)
    assert text.startswith("policy file not found") and "\x1b" not in text
    assert "RayTaskError" not in text and "\n" not in text
    assert not (tmp_path / "o").exists()


def test_an_out_that_is_a_file_is_a_usage_error_and_the_file_kept(tmp_path, make_raw, write_toml):
    """Was: exit 1 (the ledger's refusal, after the config was resolved and Ray maybe
    started) where tune, solve and train answer the same mistake with 2."""
    mine = tmp_path / "game.json"
    mine.write_text("mine")
    r = CliRunner().invoke(
        app, ["tournament", "run", str(write_toml(make_raw(), "a.toml")), "--out", str(mine)]
    )
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "not a directory" in r.output
    assert mine.read_text() == "mine"
