"""The nash_conv `meeple solve` reports is that of the policy the `policy` agent plays
(through the abstraction's labels); `to_openspiel_policy` loads that same policy;
n-player OpenSpiel games report nash_conv and play no deals against a heuristic."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pyspiel
import pytest
from open_spiel.python import policy as openspiel_policy
from open_spiel.python.algorithms import exploitability
from typer.testing import CliRunner

import spiel_games
from solvers.baselines import RandomAgent
from solvers.policy_file import (
    PolicyAgent,
    read_meta,
    read_policy,
    to_openspiel_policy,
    write_policy,
)
from solvers.train import SolveConfig, SolveError, solve, validate
from tournament.cli import app

DOC = Path(__file__).resolve().parents[2] / "docs" / "solvers.md"
TINY = spiel_games.get_spec("python_coloretto").tiny_configs[0]
KUHN3 = "kuhn_poker(players=3)"


@pytest.fixture(scope="module")
def tiny_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("t") / "tiny.parquet"
    result = solve(SolveConfig(TINY, "mccfr-os", 300, str(path), report_every=300))
    return path, result


def _agent_policy(game, path) -> openspiel_policy.TabularPolicy:
    """The policy agent's own probabilities at every information state (uniform, as its
    `random` fallback plays, where it has none)."""
    agent = PolicyAgent(game, str(path), RandomAgent, 0)
    pol = openspiel_policy.TabularPolicy(game)
    for i, state in enumerate(pol.states):
        probs = agent._probs(state)
        if probs is None:
            legal = state.legal_actions()
            probs = [(a, 1.0 / len(legal)) for a in legal]
        row = pol.action_probability_array[i]
        row[:] = 0.0
        for a, q in probs:
            row[a] = q
    return pol


def test_the_reported_nash_conv_under_the_abstraction_is_the_agents(tiny_file):
    path, result = tiny_file
    game = pyspiel.load_game(TINY)
    assert read_meta(path)["abstraction"] != "none"
    want = exploitability.nash_conv(game, _agent_policy(game, path))
    assert result.reports[-1][1] == "nash_conv"
    assert result.figures[-1]["nash_conv"] == pytest.approx(want, abs=1e-9)
    assert read_meta(path)["nash_conv"] == pytest.approx(want, abs=1e-9)


def test_to_openspiel_policy_is_what_the_agent_plays(tiny_file):
    path, _ = tiny_file
    game = pyspiel.load_game(TINY)
    agent_pol = _agent_policy(game, path)
    pol = to_openspiel_policy(TINY, path)
    agent = PolicyAgent(game, str(path), RandomAgent, 0)
    for i, state in enumerate(agent_pol.states):
        got = pol.action_probabilities(state)
        assert set(got) == set(state.legal_actions())
        for a, q in got.items():
            assert q == pytest.approx(agent_pol.action_probability_array[i][a], abs=1e-12)
        assert pol.covers(state) == (agent._probs(state) is not None)
    assert exploitability.nash_conv(game, pol) == pytest.approx(read_meta(path)["nash_conv"])


def test_a_decision_the_file_lacks_is_uniform_and_not_covered(tiny_file, tmp_path):
    path, _ = tiny_file
    pol = read_policy(path)
    dropped = sorted(pol.table)[0]
    rows = [
        (k, a, q)
        for k, (acts, probs) in sorted(pol.table.items())
        if k != dropped
        for a, q in zip(acts, probs, strict=True)
    ]
    short = tmp_path / "short.parquet"
    write_policy(short, rows, pol.meta)
    loaded = to_openspiel_policy(TINY, short)
    lacking = [
        s for s in openspiel_policy.TabularPolicy(loaded.game).states if not loaded.covers(s)
    ]
    assert lacking
    for state in lacking:
        legal = state.legal_actions()
        assert loaded.action_probabilities(state) == {a: 1.0 / len(legal) for a in legal}


def test_an_exact_solvers_file_loads_with_its_own_probabilities(tmp_path):
    path = tmp_path / "kuhn.parquet"
    solve(SolveConfig("kuhn_poker", "cfr+", 20, str(path), report_every=20))
    pol = to_openspiel_policy(pyspiel.load_game("kuhn_poker"), path)
    table = read_policy(path).table
    for state in openspiel_policy.TabularPolicy(pol.game).states:
        acts, probs = table[state.information_state_string()]
        assert pol.action_probabilities(state) == pytest.approx(dict(zip(acts, probs, strict=True)))
    assert exploitability.nash_conv(pol.game, pol) == pytest.approx(read_meta(path)["nash_conv"])


def test_a_three_player_openspiel_game_reports_nash_conv_and_plays_no_deals(tmp_path):
    path = tmp_path / "k3.parquet"
    result = solve(SolveConfig(KUHN3, "mccfr-es", 20, str(path), report_every=10))
    assert result.reports and {name for _, name, _ in result.reports} == {"nash_conv"}
    assert "ahead" not in result.figures[-1]
    pol = to_openspiel_policy(KUHN3, path)
    want = exploitability.nash_conv(pol.game, pol)
    assert result.figures[-1]["nash_conv"] == pytest.approx(want, abs=1e-9)


def test_eval_deals_on_a_game_without_a_heuristic_is_a_one_line_usage_error(tmp_path):
    with pytest.raises(SolveError, match="heuristic"):
        validate(SolveConfig(KUHN3, "mccfr-es", 20, str(tmp_path / "a.parquet"), eval_deals=2))
    out = tmp_path / "b.parquet"
    args = ["solve", KUHN3, "--solver", "mccfr-es", "--iterations", "20", "--eval-deals", "2"]
    r = CliRunner().invoke(app, [*args, "--out", str(out), "--quiet"])
    assert r.exit_code == 2
    assert len(r.output.strip().splitlines()) == 1 and "heuristic" in r.output
    assert not out.exists()


def test_the_docs_snippet_loads_a_policy_file_and_prints_its_nash_conv(tmp_path):
    path = tmp_path / "kuhn.parquet"
    solve(SolveConfig("kuhn_poker", "cfr+", 50, str(path), report_every=50))
    section = DOC.read_text().split("## Policy files", 1)[1].split("\n## ", 1)[0]
    snippet = re.search(r"```python\n(.*?)```", section, re.S)
    assert snippet and "to_openspiel_policy" in snippet.group(1)
    code = snippet.group(1).replace('"runs/policies/kuhn.parquet"', repr(str(path)))
    assert str(path) in code
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOC), "exec"), {})
    last = out.getvalue().splitlines()[-1]
    assert float(last) == pytest.approx(read_meta(path)["nash_conv"])


def test_the_export_refuses_keys_that_read_hidden_information():
    from solvers.efg_cfr import export_efg

    with pytest.raises(ValueError, match="differing keys or labels"):
        export_efg(pyspiel.load_game("kuhn_poker"), key_fn=lambda state, p: state.history_str())
