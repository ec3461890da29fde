"""scripts/search_regret.py: the quick strength proxy runs and refuses bad input."""

import pytest


@pytest.fixture
def module(load_script):
    return load_script("search_regret")


def test_agreement_and_regret_per_agent(capsys, module):
    argv = ["python_coloretto(players=3)", "random", "ismcts(sims=16)"]
    assert module.main([*argv, "--reference", "ismcts(sims=48)", "--positions", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("python_coloretto(players=3): 3 positions, reference ismcts(sims=48)")
    rows = {line.split()[0]: line.split() for line in out[1:]}
    assert set(rows) == {"random", "ismcts(sims=16)"}
    for row in rows.values():
        assert 0.0 <= float(row[2]) <= 1.0 and float(row[4]) >= 0.0


def test_positions_are_decisions_with_a_choice(module):
    import pyspiel

    states = module.positions(pyspiel.load_game("python_coloretto(players=3)"), 5, 1)
    assert len(states) == 5
    assert all(not s.is_chance_node() and len(s.legal_actions()) > 1 for s in states)


def test_a_bad_agent_spec_is_a_one_line_error(capsys, module):
    assert module.main(["python_coloretto(players=3)", "ismcts(root=best)"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "auto, ucb or halving" in err and err.count("\n") == 1
