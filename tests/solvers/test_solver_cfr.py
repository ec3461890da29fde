"""CFR family: reference values, exploitability going down, checkpoints that resume exactly."""

from __future__ import annotations

import pyspiel
import pytest

import spiel_games
from solvers import efg_cfr
from solvers.cfr import average_policy_table, make_exact_solver, tabular_pyspiel_policy
from solvers.mccfr_sequential import MCCFR
from solvers.train import SolveConfig, SolveError, checkpoint_path, solve
from tests.solvers.mccfr_reference import DictMCCFR

KUHN_VALUE = -1.0 / 18.0


@pytest.fixture(scope="module")
def kuhn():
    return pyspiel.load_game("kuhn_poker")


@pytest.fixture(scope="module")
def kuhn_efg(kuhn):
    return efg_cfr.export_efg(kuhn)


def test_efg_export_keeps_the_game_information_sets_and_chance(kuhn, kuhn_efg):
    """Each EFG information state names the game's own, and chance keeps exact odds."""
    keys = {i.key for i in kuhn_efg.infosets.values()}
    assert keys == {"0", "1", "2", "0p", "1p", "2p", "0b", "1b", "2b", "0pb", "1pb", "2pb"}
    for efg_key, info in kuhn_efg.infosets.items():
        assert efg_key == f"{info.player}-{info.player}-{efg_key.split('-')[2]}-{info.key}"
    state = kuhn_efg.game.new_initial_state()
    assert [p for _, p in state.chance_outcomes()] == [1 / 3] * 3
    state.apply_action(2)
    state.apply_action(0)  # second deal: P1 holds card 2 (third outcome), P2 card 0
    assert state.information_state_string(0).endswith("-2")
    assert kuhn_efg.num_nodes == 58


def test_efg_names_escape_quotes_so_the_parser_keeps_them_whole():
    name = efg_cfr._escape('hand "A" 100%')
    assert name == "hand %22A%22 100%25"
    text = f'EFG 2 R "x" {{ "P1" "P2" }}\np "" 1 1 "{name}" {{ "0" "1" }} 0\n'
    text += 't "" 1 "" { 1.0 -1.0 }\nt "" 2 "" { -1.0 1.0 }\n'
    state = pyspiel.load_efg_game(text).new_initial_state()
    assert state.information_state_string(0) == f"0-0-1-{name}"


def test_export_refuses_trees_beyond_the_node_bound():
    with pytest.raises(ValueError, match="exceeds 100 nodes"):
        efg_cfr.export_efg(pyspiel.load_game("tic_tac_toe"), max_nodes=100)


@pytest.mark.parametrize("kind", efg_cfr.KINDS)
def test_cfr_reaches_kuhn_game_value(kuhn_efg, kind):
    solver = efg_cfr.ExactCFR(kuhn_efg, kind)
    for _ in range(1000):
        solver.iterate()
    value = efg_cfr.profile_values(kuhn_efg, solver.policy_table())[0]
    assert value == pytest.approx(KUHN_VALUE, abs=2e-3)
    assert solver.nash_conv() < 5e-3


def test_nash_conv_on_the_efg_game_equals_nash_conv_on_the_game(kuhn, kuhn_efg):
    solver = efg_cfr.ExactCFR(kuhn_efg, "cfr")
    for _ in range(7):
        solver.iterate()
    ours = solver.nash_conv()
    theirs = pyspiel.nash_conv(kuhn, tabular_pyspiel_policy(solver.policy_table()))
    assert ours == pytest.approx(theirs, abs=1e-9)
    assert ours > 0.01  # 7 iterations are far from equilibrium: the check is not vacuous


@pytest.mark.parametrize("spec", spiel_games.all_specs(), ids=lambda s: s.short_name)
def test_exploitability_decreases_on_a_tiny_config(spec):
    export = efg_cfr.export_efg(pyspiel.load_game(spec.tiny_configs[0]))
    solver = efg_cfr.ExactCFR(export, "cfr+")
    solver.iterate()
    first = solver.nash_conv()
    for _ in range(19):
        solver.iterate()
    last = solver.nash_conv()
    assert first > 0
    assert last < 0.5 * first


@pytest.mark.parametrize("variant,iterations,bound", [("es", 3000, 0.06), ("os", 20000, 0.08)])
def test_mccfr_approaches_equilibrium_on_kuhn(kuhn, kuhn_efg, variant, iterations, bound):
    solver = MCCFR(kuhn, variant, "none", seed=3)
    for _ in range(10):
        solver.iteration()
    early = efg_cfr.nash_conv(kuhn_efg, solver.average_policy_table())
    for _ in range(iterations):
        solver.iteration()
    late = efg_cfr.nash_conv(kuhn_efg, solver.average_policy_table())
    assert late < bound < early


def test_mccfr_tables_are_keyed_by_the_abstraction():
    spec = spiel_games.get_spec("python_coloretto")
    game = pyspiel.load_game(spec.typical_config)
    solver = MCCFR(game, "os", spec.abstraction_name, seed=0)
    for _ in range(3):
        solver.iteration()
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) == 1:  # the first real decision
        state.apply_action(state.legal_actions()[0])
    assert spec.abstraction(state, state.current_player()) in solver.tables.index
    assert all(state.information_state_string(0) != k for k in solver.tables.index)


@pytest.mark.parametrize(
    "game_string,abstraction",
    [
        ("kuhn_poker", "none"),
        (spiel_games.get_spec("coloretto").tiny_configs[0], "none"),
    ],
)
@pytest.mark.parametrize("variant,leaves", [("es", 0), ("es", 4), ("os", 0)])
def test_array_tables_give_the_dict_implementations_strategies(
    game_string, abstraction, variant, leaves
):
    """On the same sampled trajectories (one random stream, tables updated after every
    traversal) the numpy tables give the average strategies of the dict-based MCCFR."""
    game = spiel_games.load_game(game_string, any_openspiel=True)
    theirs = DictMCCFR(game, variant, abstraction, seed=3, es_leaves=leaves)
    ours = MCCFR(game, variant, abstraction, seed=3, es_leaves=leaves)
    for _ in range(150):
        theirs.iteration()
        ours.iteration()
    a, b = theirs.average_policy_table(), ours.average_policy_table()
    assert a.keys() == b.keys()
    assert max(abs(a[k].get(x, 0.0) - b[k].get(x, 0.0)) for k in b for x in a[k] | b[k]) < 1e-9
    assert any(abs(p - 1.0 / len(b[k])) > 0.05 for k in b for p in b[k].values())


@pytest.mark.parametrize("solver", ["cfr+", "mccfr-os"])
def test_interrupted_run_resumes_to_the_same_policy(tmp_path, solver):
    straight = solve(
        SolveConfig("kuhn_poker", solver, 60, str(tmp_path / "a.parquet"), report_every=20, seed=5)
    )
    first = solve(
        SolveConfig("kuhn_poker", solver, 30, str(tmp_path / "b.parquet"), report_every=20, seed=5)
    )
    assert first.iterations == 30
    resumed = solve(
        SolveConfig("kuhn_poker", solver, 60, str(tmp_path / "b.parquet"), report_every=20, seed=5)
    )
    assert resumed.resumed_from == 30
    assert resumed.reports[-1] == straight.reports[-1]
    assert (tmp_path / "b.parquet").read_bytes() != b""
    assert checkpoint_path(tmp_path / "b.parquet", solver).exists()


def test_checkpoint_of_another_solver_is_refused(tmp_path):
    out = str(tmp_path / "p.parquet")
    solve(SolveConfig("kuhn_poker", "cfr", 5, out, report_every=5))
    with pytest.raises(SolveError, match=r"for --solver cfr \(this run: --solver dcfr\)"):
        solve(SolveConfig("kuhn_poker", "dcfr", 5, out, report_every=5))


def test_exact_solvers_refuse_abstractions_and_big_player_counts(tmp_path):
    with pytest.raises(SolveError, match="exact"):
        solve(SolveConfig("kuhn_poker", "cfr", 5, str(tmp_path / "x.parquet"), abstraction="foo"))
    with pytest.raises(SolveError, match="2-player"):
        solve(SolveConfig("kuhn_poker(players=3)", "cfr", 5, str(tmp_path / "y.parquet")))
    with pytest.raises(SolveError, match="unknown solver"):
        solve(SolveConfig("kuhn_poker", "alphazero", 5, str(tmp_path / "z.parquet")))


def test_mccfr_table_never_exceeds_its_bound():
    game = pyspiel.load_game("python_coloretto(players=3)")
    for variant in ("os", "es"):
        solver = MCCFR(game, variant, "coloretto-rows", seed=0, max_keys=20, es_leaves=4)
        for _ in range(3):
            solver.iteration()
        assert solver.tables.rows == 20
        assert solver.untracked > 0
        assert len(solver.average_policy_table()) <= 20


def test_keyboard_interrupt_saves_a_checkpoint_that_resumes(tmp_path):
    out = str(tmp_path / "p.parquet")
    straight = solve(SolveConfig("kuhn_poker", "mccfr-es", 20, str(tmp_path / "s.parquet"), seed=2))

    def interrupt_at_seven(it, total):
        if it == 7:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        solve(
            SolveConfig("kuhn_poker", "mccfr-es", 20, out, seed=2), on_iteration=interrupt_at_seven
        )
    assert checkpoint_path(out, "mccfr-es").exists()
    resumed = solve(SolveConfig("kuhn_poker", "mccfr-es", 20, out, seed=2))
    assert resumed.resumed_from == 7
    assert resumed.reports[-1] == straight.reports[-1]


@pytest.mark.parametrize("kind", efg_cfr.KINDS)
@pytest.mark.parametrize(
    "game_string", ["kuhn_poker", spiel_games.get_spec("coloretto").tiny_configs[0]]
)
def test_efg_route_equals_openspiel_python_solvers_on_the_game(game_string, kind):
    """OpenSpiel's solvers on the EFG copy give the average policies of OpenSpiel's
    Python CFRSolver / CFRPlusSolver / DCFRSolver run on the game itself."""
    game = pyspiel.load_game(game_string)
    theirs = make_exact_solver(game, kind)
    ours = efg_cfr.ExactCFR(efg_cfr.export_efg(game), kind)
    for _ in range(6):
        theirs.evaluate_and_update_policy()
        ours.iterate()
    a, b = average_policy_table(theirs), ours.policy_table()
    assert a.keys() == b.keys()
    assert max(abs(a[k][x] - b[k][x]) for k in b for x in b[k]) < 1e-9
    assert any(abs(p - 1.0 / len(b[k])) > 0.01 for k in b for p in b[k].values())


def test_exact_checkpoint_that_does_not_replay_is_refused(tmp_path):
    import pyarrow.parquet as pq

    out = tmp_path / "p.parquet"
    solve(SolveConfig("kuhn_poker", "cfr", 4, str(out), report_every=4))
    ckpt = checkpoint_path(out)
    t = pq.read_table(ckpt)
    avg = t.column("avg").to_pylist()
    avg[0] = 1.0 - avg[0] if abs(avg[0] - 0.5) > 1e-6 else 0.9
    import pyarrow as pa

    t = t.set_column(t.schema.get_field_index("avg"), "avg", pa.array(avg, pa.float64()))
    pq.write_table(t.replace_schema_metadata(pq.read_table(ckpt).schema.metadata), ckpt)
    with pytest.raises(ValueError, match="does not reproduce"):
        solve(SolveConfig("kuhn_poker", "cfr", 8, str(out), report_every=4))


def test_the_quick_size_estimate_refuses_full_games_and_never_a_tiny_one():
    """``validate`` refuses exact CFR on a tree certainly over the export's bound from a
    few random paths; every configuration the export accepts must pass it."""
    small = ["kuhn_poker", "leduc_poker", "tic_tac_toe"]
    for name in small + [c for s in spiel_games.all_specs() for c in s.tiny_configs]:
        assert not efg_cfr.surely_too_large(spiel_games.load_game(name, any_openspiel=True))
    for spec in spiel_games.all_specs():
        game = spiel_games.load_game(f"{spec.short_name}(players=2)")
        assert efg_cfr.surely_too_large(game), spec.short_name
    leduc = pyspiel.load_game("leduc_poker")  # 9,457 nodes: over 1,000 but not a million times
    assert not efg_cfr.surely_too_large(leduc, max_nodes=1000)  # left to the export's walk
    with pytest.raises(efg_cfr.TreeTooLarge, match="exceeds 1,000 nodes"):
        efg_cfr.export_efg(leduc, max_nodes=1000)
