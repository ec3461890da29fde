"""MCCFR training in rounds: the executor does not change the tables, a checkpoint resumes
after a crash to the tables of an uninterrupted run, Ray workers that die are replaced."""

from __future__ import annotations

import numpy as np
import pytest

import spiel_games
from solvers import mccfr_checkpoint, mccfr_train
from solvers.mccfr_tables import Tables
from solvers.mccfr_train import Journal, SerialExecutor, TrainSpec, train

TINY = spiel_games.get_spec("coloretto").tiny_configs[0]


def _spec(**kw) -> TrainSpec:
    base = dict(
        game=TINY,
        variant="os",
        abstraction="coloretto-rows",
        abstraction_version=spiel_games.get_spec("coloretto").abstraction_version,
        seed=7,
        weighting="sampled",
        baselines=True,
        batch=5,
    )
    return TrainSpec(**{**base, **kw})


def _run(
    spec,
    iterations,
    executor,
    journal=None,
    tables=None,
    done=0,
    rounds=0,
    report_every=10**9,
    on_report=lambda t, p: {},
):
    tables = tables or Tables(spec.max_keys)
    train(
        spec,
        iterations,
        tables,
        done,
        rounds,
        journal,
        executor,
        report_every=report_every,
        on_report=on_report,
    )
    return tables


def _same(a: Tables, b: Tables) -> None:
    x, y = a.to_arrays(), b.to_arrays()
    assert x.keys() == y.keys()
    for name in x:
        assert np.array_equal(x[name], y[name]), name


class Crashing(SerialExecutor):
    """A serial executor killed at the start of round ``at`` (that round is lost)."""

    def __init__(self, spec, at: int):
        super().__init__(spec)
        self.at = at

    def run_round(self, tables, view, round_no, plan):
        if round_no == self.at:
            raise SystemExit("killed")
        return super().run_round(tables, view, round_no, plan)


@pytest.mark.parametrize("share", [0.0, 0.5])  # restricted Nash responses sample alike
def test_rounds_give_the_same_tables_as_sequential_traversals_with_one_batch(share):
    """A round of one batch of one iteration is classic sequential MCCFR."""
    from solvers.mccfr_sequential import MCCFR

    spec = _spec(batch=1, weighting="counterfactual", baselines=False, model_share=share)
    rounds = _run(spec, 40, SerialExecutor(spec))
    classic = MCCFR(
        spiel_games.load_game(TINY),
        "os",
        "coloretto-rows",
        weighting="counterfactual",
        model_share=share,
    )
    # the same random streams: round k's batch 0 seeds one iteration
    for k in range(1, 41):
        view = classic.tables.view()
        rng = mccfr_train.batch_rng(spec.seed, k, 0)
        deltas = classic.traversals.run(view, rng, [0, 1])
        classic.tables.apply(view, [deltas.to_arrays()])
    _same(rounds, classic.tables)


@pytest.mark.parametrize("crash_round", [1, 4])
def test_a_crash_in_any_round_resumes_to_the_uninterrupted_tables(
    tmp_path, monkeypatch, crash_round
):
    monkeypatch.setattr(mccfr_checkpoint, "FLUSH_SECONDS", 0.0)  # a file per round (full games)
    spec = _spec(workers=2)
    straight = _run(spec, 60, SerialExecutor(spec), Journal(tmp_path / "a", spec))

    with pytest.raises(SystemExit):
        _run(spec, 60, Crashing(spec, crash_round), Journal(tmp_path / "b", spec))
    tables, done, rounds = Journal(tmp_path / "b", spec).load()
    assert (done, rounds) == (10 * (crash_round - 1), crash_round - 1)
    resumed = _run(
        spec, 60, SerialExecutor(spec), Journal(tmp_path / "b", spec), tables, done, rounds
    )
    _same(resumed, straight)
    again, done, _ = Journal(tmp_path / "b", spec).load()  # the final snapshot
    assert done == 60
    _same(again, straight)


def test_a_checkpoint_of_another_run_is_refused(tmp_path):
    spec = _spec()
    _run(spec, 10, SerialExecutor(spec), Journal(tmp_path / "c", spec))
    with pytest.raises(mccfr_train.CheckpointError, match="--seed 7 \\(this run: --seed 8\\)"):
        Journal(tmp_path / "c", _spec(seed=8)).load()
    # was accepted: another batch or worker count shapes other rounds, and the resumed
    # tables matched neither an uninterrupted run of the old request nor of the new one
    for other, name in ((_spec(batch=3), "batch"), (_spec(workers=2), "workers")):
        with pytest.raises(mccfr_train.CheckpointError, match=f"for --{name} "):
            Journal(tmp_path / "c", other).load()
    tables, done, _ = Journal(tmp_path / "c", _spec(max_keys=10**6)).load()  # may grow
    assert done == 10 and tables.rows > 0


def test_reports_and_seconds_survive_a_crash_between_snapshots(tmp_path, monkeypatch):
    """Was: the reports and training seconds were saved only with a snapshot (every few
    minutes), so a run killed after its reports resumed without them: the blueprint's
    learning curve and time lost the first run's."""
    monkeypatch.setattr(mccfr_checkpoint, "FLUSH_SECONDS", 0.0)
    spec = _spec()

    journal = Journal(tmp_path / "d", spec)
    with pytest.raises(SystemExit):
        train(
            spec,
            60,
            Tables(spec.max_keys),
            0,
            0,
            journal,
            Crashing(spec, 5),
            report_every=10,
            on_report=lambda t, p: {"iteration": p.iterations},
        )
    resumed = Journal(tmp_path / "d", spec)
    _, done, _ = resumed.load()
    assert done == 20 and [r["iteration"] for r in resumed.reports] == [10, 20]
    assert resumed.earlier[0] > 0.0 and resumed.earlier[1] > 0.0


@pytest.mark.ray
def test_ray_workers_give_the_serial_tables_and_a_killed_worker_is_replaced(ray_cluster):
    import ray

    node = ray_cluster.add_node(num_cpus=1)
    ray_cluster.wait_for_nodes()
    try:
        spec = _spec(workers=2)
        serial = _run(spec, 60, SerialExecutor(spec))
        executor = mccfr_train.RayExecutor(spec)  # spec.workers = 2
        killed = []

        class Killing:
            def run_round(self, tables, view, round_no, plan):
                if round_no == 3:
                    ray.kill(executor.actors[1])  # a worker dies between rounds
                    killed.append(round_no)
                return executor.run_round(tables, view, round_no, plan)

            def close(self):
                executor.close()

        distributed = _run(spec, 60, Killing())
        executor.close()
        assert killed == [3]
        _same(distributed, serial)
    finally:
        ray_cluster.remove_node(node)


@pytest.mark.parametrize("weighting", ["sampled", "counterfactual"])
def test_baselines_learn_only_from_the_traversers_own_decisions(weighting):
    """A slot's baseline is a value for the player whose decision it is. Old: every sampled
    decision recorded the traverser's return, so an opponent's slots averaged returns of
    the other players (Die Staufer's blueprint then preferred its turquoise chests to any
    deployment)."""
    from solvers.mccfr import Traversals

    game = spiel_games.load_game(TINY)
    trav = Traversals(game, "os", "none", 0.3, weighting, baselines=True)
    owner: dict[int, int] = {}
    lookup = trav._lookup

    def recording(state, p, legal):
        r, slots, policy = lookup(state, p, legal)
        owner.update((s, p) for s in slots)
        return r, slots, policy

    trav._lookup = recording
    tables = Tables()
    for player in (0, 1, 0, 1):
        view = tables.view()
        deltas = trav.run(view, mccfr_train.batch_rng(0, player, 0), [player] * 20)
        assert deltas.base_slot
        assert {owner[s] for s in deltas.base_slot} == {player}
        tables.apply(view, [deltas.to_arrays()])


def test_a_damaged_checkpoint_file_is_refused_in_one_line(tmp_path, monkeypatch, damaged_npz):
    """Was: a truncated rounds or tables file raised zipfile.BadZipFile (a damaged member
    zlib.error) out of Journal.load, a traceback from `meeple solve` resuming it."""
    monkeypatch.setattr(mccfr_checkpoint, "FLUSH_SECONDS", 0.0)
    spec = _spec()

    _run(spec, 20, SerialExecutor(spec), Journal(tmp_path / "done", spec))  # a snapshot
    with pytest.raises(SystemExit):
        _run(spec, 60, Crashing(spec, 3), Journal(tmp_path / "cut", spec))  # rounds files
    files = sorted(tmp_path.glob("*/*.npz"))
    assert {f.name.split("-")[0] for f in files} == {"tables", "rounds"}, files
    for kept in files:
        saved = kept.read_bytes()
        for bad in damaged_npz(kept):
            kept.write_bytes(bad.read_bytes())
            bad.unlink()
            with pytest.raises(mccfr_train.CheckpointError, match="cannot be resumed") as e:
                Journal(kept.parent, spec).load()
            assert f"{kept} is truncated, corrupt" in str(e.value) and "\n" not in str(e.value)
        kept.write_bytes(saved)
        Journal(kept.parent, spec).load()  # whole again


class _Ray:
    """What RayExecutor reads of ray, for a cluster of ``cpus`` CPUs whose batches never
    finish (a replaced worker that cannot be placed)."""

    class exceptions:  # noqa: N801 - ray's own module name
        RayActorError = RuntimeError
        RayError = Exception

    def __init__(self, cpus: float):
        self.cpus, self.inits = cpus, []

    def is_initialized(self):
        return False

    def init(self, **kw):
        self.inits.append(kw)

    def cluster_resources(self):
        return {"CPU": self.cpus}

    def wait(self, refs, timeout=None):
        return [], refs

    def shutdown(self):
        pass


def test_too_few_cpus_for_the_workers_is_one_line_not_a_wait_forever(monkeypatch):
    """Was: `--workers 3` on a 2-CPU cluster, or a node lost mid-run, waited forever for an
    actor Ray could never place; and the local session joined a cluster already running on
    the machine (ray.init without an address attaches to it, then refuses num_cpus)."""
    import sys

    from spiel_games.common.errors import MeepleError

    fake = _Ray(2.0)
    monkeypatch.setitem(sys.modules, "ray", fake)
    with pytest.raises(
        MeepleError, match=r"--workers 3 needs 3 CPUs \(one per worker\); the Ray cluster has 2"
    ):
        mccfr_train.RayExecutor(_spec(workers=3))
    assert fake.inits[0]["address"] == "local"  # a session of its own
    fake.cpus = 1.0  # a node lost while a batch runs
    ex = mccfr_train.RayExecutor.__new__(mccfr_train.RayExecutor)
    ex.ray, ex.workers = fake, 2
    with pytest.raises(MeepleError, match="has 1 CPUs for 2 workers"):
        ex._await(object(), patience=2)


def test_extending_a_run_that_ended_mid_round_gives_the_uninterrupted_tables(tmp_path):
    """Was: 25 iterations in rounds of 10 ended with a short round of 5 that went to the
    checkpoint, so extending to 60 ran rounds at 35, 45, 55 (Linear CFR weighting each by
    its round number): other tables than an uninterrupted run of 60, a report at 45."""
    spec = _spec(workers=2, linear=True)
    made: list[int] = []

    def run(iterations, journal, tables=None, done=0, rounds=0):
        def report(t, p):
            made.append(p.iterations)
            return {"iteration": p.iterations}

        executor = SerialExecutor(spec)
        return _run(spec, iterations, executor, journal, tables, done, rounds, 20, report)

    straight = run(60, Journal(tmp_path / "a", spec))
    short = run(25, Journal(tmp_path / "b", spec))
    assert made == [20, 40, 60, 20, 25]
    first = Journal(tmp_path / "b", spec)
    tables, done, rounds = first.load()  # the whole rounds only: 25 resumes at 20
    assert (done, rounds) == (20, 2) and [r["iteration"] for r in first.reports] == [20]
    assert not np.array_equal(short.regret, tables.regret)  # the output had the short round
    made.clear()
    _same(run(60, Journal(tmp_path / "b", spec), tables, done, rounds), straight)
    assert made == [40, 60]
