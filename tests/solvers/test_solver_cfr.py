"""CFR family: reference values, exploitability going down, checkpoints that resume exactly."""

from __future__ import annotations

import pyspiel
import pytest

import spiel_games
from solvers import tree_cfr
from solvers.cfr import tabular_pyspiel_policy
from solvers.mccfr import MCCFR
from solvers.train import SolveConfig, SolveError, checkpoint_path, solve

KUHN_VALUE = -1.0 / 18.0


@pytest.fixture(scope="module")
def kuhn():
    return pyspiel.load_game("kuhn_poker")


@pytest.fixture(scope="module")
def kuhn_tree(kuhn):
    return tree_cfr.GameTree(kuhn)


@pytest.mark.parametrize("kind", tree_cfr.KINDS)
def test_cfr_reaches_kuhn_game_value(kuhn_tree, kind):
    solver = tree_cfr.TreeCFR(kuhn_tree, kind)
    for _ in range(1000):
        solver.iterate()
    value = tree_cfr.profile_values(kuhn_tree, solver.average())[0]
    assert value == pytest.approx(KUHN_VALUE, abs=2e-3)
    assert solver.nash_conv() < 5e-3


def test_nash_conv_agrees_with_openspiel(kuhn, kuhn_tree):
    solver = tree_cfr.TreeCFR(kuhn_tree, "cfr")
    for _ in range(7):
        solver.iterate()
    ours = solver.nash_conv()
    theirs = pyspiel.nash_conv(kuhn, tabular_pyspiel_policy(solver.policy_table()))
    assert ours == pytest.approx(theirs, abs=1e-9)
    assert ours > 0.01  # 7 iterations are far from equilibrium: the check is not vacuous


@pytest.mark.parametrize("spec", spiel_games.all_specs(), ids=lambda s: s.short_name)
def test_exploitability_decreases_on_a_tiny_config(spec):
    game = pyspiel.load_game(spec.tiny_configs[0])
    tree = tree_cfr.GameTree(game)
    solver = tree_cfr.TreeCFR(tree, "cfr+")
    solver.iterate()
    first = solver.nash_conv()
    for _ in range(19):
        solver.iterate()
    last = solver.nash_conv()
    assert first > 0
    assert last < 0.5 * first


@pytest.mark.parametrize("variant,iterations,bound", [("es", 3000, 0.06), ("os", 20000, 0.08)])
def test_mccfr_approaches_equilibrium_on_kuhn(kuhn, kuhn_tree, variant, iterations, bound):
    solver = MCCFR(kuhn, variant, "none", seed=3)
    for _ in range(10):
        solver.iteration()
    early = tree_cfr.nash_conv(
        kuhn_tree, tree_cfr.policy_from_table(kuhn_tree, solver.average_policy_table())
    )
    for _ in range(iterations):
        solver.iteration()
    late = tree_cfr.nash_conv(
        kuhn_tree, tree_cfr.policy_from_table(kuhn_tree, solver.average_policy_table())
    )
    assert late < bound < early


def test_mccfr_tables_are_keyed_by_the_abstraction():
    spec = spiel_games.get_spec("python_coloretto")
    game = pyspiel.load_game(spec.typical_config)
    solver = MCCFR(game, "os", spec.abstraction_name, seed=0)
    for _ in range(3):
        solver.iteration()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert spec.abstraction(state, state.current_player()) in solver.regret
    assert all(state.information_state_string(0) != k for k in solver.regret)


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
    assert checkpoint_path(tmp_path / "b.parquet").exists()


def test_checkpoint_of_another_solver_is_refused(tmp_path):
    out = str(tmp_path / "p.parquet")
    solve(SolveConfig("kuhn_poker", "cfr", 5, out, report_every=5))
    with pytest.raises(SolveError, match="different solver"):
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
        solver = MCCFR(game, variant, "coloretto-rows", seed=0, max_keys=50, es_leaves=4)
        for _ in range(3):
            solver.iteration()
        assert len(solver.regret) == 50
        assert solver.untracked > 0
        assert len(solver.average_policy_table()) <= 50


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
    assert checkpoint_path(out).exists()
    resumed = solve(SolveConfig("kuhn_poker", "mccfr-es", 20, out, seed=2))
    assert resumed.resumed_from == 7
    assert resumed.reports[-1] == straight.reports[-1]


@pytest.mark.parametrize("kind", tree_cfr.KINDS)
@pytest.mark.parametrize(
    "game_string", ["kuhn_poker", spiel_games.get_spec("coloretto").tiny_configs[0]]
)
def test_compiled_tree_solvers_match_openspiel_exactly(game_string, kind):
    """The compiled-tree CFR/CFR+/DCFR produce OpenSpiel's average policies, not just similar ones."""
    from solvers.cfr import average_policy_table, make_exact_solver

    game = pyspiel.load_game(game_string)
    theirs = make_exact_solver(game, kind)
    ours = tree_cfr.TreeCFR(tree_cfr.GameTree(game), kind)
    for _ in range(6):
        theirs.evaluate_and_update_policy()
        ours.iterate()
    a, b = average_policy_table(theirs), ours.policy_table()
    assert a.keys() == b.keys()
    assert max(abs(a[k][x] - b[k][x]) for k in b for x in b[k]) < 1e-12
