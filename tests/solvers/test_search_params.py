"""Typed parameter declarations: refusals, help text and ``auto`` all read one ``Param``."""

from __future__ import annotations

import pyspiel
import pytest

import spiel_games
from solvers.base import AgentKind, Auto, AutoValues, Param
from solvers.registry import all_kinds, make_agent, resolve
from solvers.search import COMMON, resolve_auto
from solvers.spec import AgentSpecError
from spiel_games.common.registry import SearchDefaults

DEPTH = Param(
    "depth",
    int,
    -2,
    "moves before the evaluation",
    range=(0, None),
    special=((-1, "to the end"),),
    auto=Auto(-2, "4 here", lambda v: 4),
)
SHARE = Param("share", float, 0.5, "a probability", range=(0.0, 1.0), special=((0.0, "off"),))
MODE = Param(
    "mode",
    str,
    "auto",
    "how",
    choices=("fast", "slow"),
    auto=Auto("auto", "fast", lambda v: "fast"),
)


@pytest.mark.parametrize(
    "param,value,message",
    [
        (SHARE, 1.5, "must be in [0, 1] (0 = off), got 1.5"),
        (SHARE, -0.1, "must be in [0, 1] (0 = off), got -0.1"),
        (DEPTH, -3, "must be >= 0, -1 (to the end) or -2 (auto), got -3"),
        (MODE, "medium", "must be auto, fast or slow, got 'medium'"),
        (Param("n", int, 1, "count", range=(1, None)), 0, "must be >= 1, got 0"),
        (Param("c", float, 1.0, "cap", range=(None, 2.0)), 3.0, "must be <= 2, got 3.0"),
        (SHARE, float("nan"), "must be a finite number (in [0, 1] (0 = off)), got nan"),
        (
            Param("t", float, 0.0, "secs", range=(0.0, None)),
            float("inf"),
            "must be a finite number (>= 0), got inf",
        ),
        (Param("c", float, 1.0, "free"), float("-inf"), "must be a finite number, got -inf"),
    ],
)
def test_a_value_outside_the_declaration_is_refused_with_what_it_accepts(param, value, message):
    assert param.problem(value) == message


@pytest.mark.parametrize(
    "param,value",
    [(SHARE, 0.0), (SHARE, 1.0), (DEPTH, -1), (DEPTH, -2), (DEPTH, 0), (DEPTH, 50), (MODE, "auto")],
)
def test_values_in_range_special_values_and_auto_are_accepted(param, value):
    assert param.problem(value) == ""


def test_an_undeclared_parameter_accepts_any_value_of_its_type():
    free = Param("path", str, "", "a file")
    assert free.problem("anything") == "" and free.allowed() == ""
    assert free.help == "a file"


def test_help_text_is_generated_from_the_declaration():
    assert DEPTH.help == (
        "moves before the evaluation; >= 0, -1 (to the end) or -2 (auto); auto = 4 here"
    )
    assert MODE.help == "how; one of auto, fast or slow; auto = fast"
    assert SHARE.help == "a probability; in [0, 1] (0 = off)"


def test_the_registry_refuses_out_of_range_values_of_every_kind_in_one_line():
    game = pyspiel.load_game("python_coloretto(players=3)")
    for spec, message in (
        ("noisy(eps=1.5)", "parameter 'eps' of agent 'noisy' must be in [0, 1], got 1.5"),
        ("ismcts(rollout_depth=-3)", ">= 0, -1 (to the end) or -2 (auto), got -3"),
        ("pimc(worlds=0)", "parameter 'worlds' of agent 'pimc' must be in [1, 1000000000], got 0"),
        ("mcts(widen=-1.0)", "must be in [0, 1000] (0 = off), got -1.0"),
    ):
        with pytest.raises(AgentSpecError) as e:
            make_agent(spec, game, seed=0)
        assert message in str(e.value)


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "1e999", "1" + "0" * 400])
def test_every_float_parameter_of_every_kind_refuses_a_non_finite_number(value):
    """inf/nan (and an int too large for a float) passed the ranges: time=inf searched
    forever, uct_c=inf never exploited."""
    game = pyspiel.load_game("python_coloretto(players=3)")
    floats = [(k.name, p.name) for k in all_kinds() for p in k.params if p.type is float]
    assert ("ismcts", "time") in floats and ("openspiel-ismcts", "uct_c") in floats
    for kind, name in floats:
        with pytest.raises(AgentSpecError, match=f"'{name}' of agent '{kind}' must be a finite"):
            make_agent(f"{kind}({name}={value})", game, seed=0)


@pytest.mark.parametrize(
    "spec",
    ["mcts(sims=100000000000000000000000)", "pimc(worlds=2000000000)", "ismcts(time=100000)"],
)
def test_budgets_have_a_finite_upper_bound(spec):
    game = pyspiel.load_game("python_coloretto(players=3)")
    with pytest.raises(AgentSpecError, match=r"must be in \[\d+, \d+\]"):
        make_agent(spec, game, seed=0)


def test_auto_rules_read_each_other_in_any_order():
    order = []

    def later(v):
        order.append("b")
        return v["a"] + 1

    def first(v):
        order.append("a")
        return 10

    a = Param("a", int, -1, "first", range=(0, None), auto=Auto(-1, "10", first))
    b = Param("b", int, -1, "second", range=(0, None), auto=Auto(-1, "a + 1", later))
    assert AutoValues((b, a), {"b": -1, "a": -1}).resolved() == {"b": 11, "a": 10}
    assert AutoValues((a, b), {"a": 3, "b": -1}).resolved() == {"a": 3, "b": 4}
    assert order == ["b", "a", "b"]


def test_auto_rules_that_read_each_other_in_a_cycle_are_an_error():
    a = Param("a", int, -1, "x", range=(0, None), auto=Auto(-1, "b", lambda v: v["b"]))
    b = Param("b", int, -1, "y", range=(0, None), auto=Auto(-1, "a", lambda v: v["a"]))
    with pytest.raises(RuntimeError, match="read each other"):
        AutoValues((a, b), {"a": -1, "b": -1}).resolved()


@pytest.mark.parametrize(
    "game_string",
    [s.typical_config for s in spiel_games.all_specs()] + ["kuhn_poker", "tic_tac_toe"],
)
def test_auto_resolution_leaves_every_search_parameter_a_concrete_accepted_value(game_string):
    game = pyspiel.load_game(game_string)
    chosen = resolve_auto(game, resolve("ismcts").params)
    for p in COMMON:
        if p.auto is not None:
            assert chosen[p.name] != p.auto.value, p.name
        assert p.problem(chosen[p.name]) == "", p.name


def test_every_tunable_parameter_declares_a_domain_a_tuner_can_sample():
    for kind in all_kinds():
        for p in kind.tunable():
            domain = p.domain()
            if p.choices:
                assert domain == p.choices and all(c in p.choices for c in domain)
            else:
                lo, hi = domain
                assert lo < hi and p.problem(lo) == "" and p.problem(hi) == "", p.name
                assert not p.log or lo > 0, p.name
        names = {p.name for p in kind.tunable()}
        assert not names & {"sims", "time", "worlds", "model", "path", "fallback"}, kind.name
    ismcts = next(k for k in all_kinds() if k.name == "ismcts")
    assert {"uct_c", "eval", "prior", "root", "unprune"} <= {p.name for p in ismcts.tunable()}


def test_a_parameter_without_bounds_cannot_be_tuned():
    kind = AgentKind("k", "test", (Param("x", float, 1.0, "x", range=(0.0, None)),), print)
    with pytest.raises(ValueError, match="no bounds"):
        kind.params[0].domain()


def test_search_defaults_refuse_unknown_settings():
    with pytest.raises(ValueError, match="eval_rollout"):
        SearchDefaults(eval_rollout="greedy")
    with pytest.raises(ValueError, match="eval_auto"):
        SearchDefaults(eval_auto="score")


def test_every_float_parameter_of_every_kind_has_a_finite_upper_bound():
    """A weight times a budget becomes an int (widen * sqrt(sims), unprune * sims): with no
    upper bound ismcts(widen=1e308) failed mid-search with an OverflowError traceback."""
    unbounded = [
        (k.name, p.name)
        for k in all_kinds()
        for p in k.params
        if p.type is float and (p.range is None or p.range[1] is None)
    ]
    assert unbounded == []


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ismcts(sims=20,widen=1e308)", "'widen' of agent 'ismcts' must be in [0, 1000] (0 = off)"),
        ("mcts(sims=20,unprune=1e308)", "'unprune' of agent 'mcts' must be in [0, 1000]"),
        ("pimc(uct_c=1001)", "'uct_c' of agent 'pimc' must be in [0, 1000]"),
        ("ismcts(prior_w=1e300)", "'prior_w' of agent 'ismcts' must be in [0, 1000]"),
        ("ismcts(opp_prior=1e300)", "'opp_prior' of agent 'ismcts' must be in [0, 1e+06]"),
        ("cfr-search(prior_w=1e300)", "'prior_w' of agent 'cfr-search' must be in [0, 1e+06]"),
    ],
)
def test_huge_weights_are_refused_when_the_spec_is_read(spec, message):
    with pytest.raises(AgentSpecError) as e:
        resolve(spec)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_a_search_at_the_upper_bounds_runs():
    game = pyspiel.load_game("python_coloretto(players=3)")
    spec = "ismcts(sims=30,widen=1000,unprune=1000,root=halving,prior=heuristic,uct_c=1000,prior_w=1000)"
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert make_agent(spec, game, seed=0).analyse(state).moves


def test_meeple_advise_refuses_a_huge_widen_in_one_line():
    from typer.testing import CliRunner

    from tournament.cli import app

    opening = "start: pink; start: blue; start: green; start player: P1; draw; deck: yellow"
    r = CliRunner().invoke(
        app,
        [
            "advise",
            "python_coloretto(players=3)",
            "-H",
            opening,
            "-a",
            "ismcts(sims=20,widen=1e308)",
        ],
    )
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert r.output.strip().splitlines() == [
        "error: parameter 'widen' of agent 'ismcts' must be in [0, 1000] (0 = off), got 1e+308"
    ]
