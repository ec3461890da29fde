"""Policy files: Parquet with metadata, never pickle; playing from them; clear mismatch errors."""

from __future__ import annotations

import pyarrow.parquet as pq
import pyspiel
import pytest

import spiel_games
from solvers.policy_file import PolicyFileError, read_meta, read_policy, write_policy
from solvers.registry import make_agent
from solvers.train import SolveConfig, solve
from tournament.match import play_match

COLORETTO = spiel_games.get_spec("python_coloretto")


@pytest.fixture(scope="module")
def kuhn_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("k") / "kuhn.parquet"
    solve(SolveConfig("kuhn_poker", "cfr+", 300, str(path), report_every=300))
    return path


def test_file_is_plain_parquet_with_metadata(kuhn_file):
    assert kuhn_file.read_bytes()[:4] == b"PAR1"
    table = pq.read_table(kuhn_file)
    assert table.column_names == ["key", "action", "probability"]
    meta = read_meta(kuhn_file)
    assert meta["game"] == "kuhn_poker()"
    assert meta["solver"] == "cfr+" and meta["iterations"] == 300
    assert meta["abstraction"] == "none" and "code_version" in meta
    assert meta["nash_conv"] < 0.01


def test_probabilities_sum_to_one_per_key(kuhn_file):
    pol = read_policy(kuhn_file)
    assert len(pol.table) == 12
    for actions, probs in pol.table.values():
        assert sum(probs) == pytest.approx(1.0)
        assert len(set(actions)) == len(actions)


def test_policy_agent_plays_the_equilibrium(kuhn_file):
    game = pyspiel.load_game("kuhn_poker")
    agent = make_agent(f"policy(path={kuhn_file},fallback=random)", game, seed=0)
    state = game.new_initial_state()
    state.apply_action(0)  # player 0 holds the jack
    state.apply_action(2)
    analysis = agent.analyse(state)
    probs = {m.action_str: m.prob for m in analysis.moves}
    # With the lowest card, player 0 never calls... it checks or bluffs with a bet below 1/3.
    assert probs["Bet"] < 0.34
    for seed in range(5):
        result = play_match(game, [agent, make_agent("random", game, seed)], seed)
        assert result.failure == ""
    assert agent.fallbacks == 0 and agent.lookups > 0


def test_unseen_keys_fall_back_and_are_counted(tmp_path):
    game = pyspiel.load_game(COLORETTO.tiny_configs[0])
    path = tmp_path / "p.parquet"
    write_policy(
        path,
        {"no such key": {0: 1.0}},
        {
            "game": str(game),
            "abstraction": COLORETTO.abstraction_name,
            "abstraction_version": COLORETTO.abstraction_version,
            "iterations": 0,
            "solver": "test",
        },
    )
    agent = make_agent(f"policy(path={path},fallback=heuristic)", game, seed=0)
    result = play_match(game, [agent, make_agent("random", game, 1)], 3)
    assert result.failure == ""
    assert agent.fallbacks == agent.lookups > 0


def test_mismatched_game_string_is_a_clear_error(tmp_path):
    path = tmp_path / "p.parquet"
    solve(SolveConfig(COLORETTO.tiny_configs[0], "mccfr-os", 5, str(path)))
    other = pyspiel.load_game(COLORETTO.tiny_configs[1])
    with pytest.raises(PolicyFileError, match="policy file is for game"):
        make_agent(f"policy(path={path})", other, seed=0)


def test_mismatched_abstraction_version_is_a_clear_error(tmp_path):
    game = pyspiel.load_game(COLORETTO.tiny_configs[0])
    path = tmp_path / "p.parquet"
    write_policy(
        path,
        {"k": {0: 1.0}},
        {
            "game": str(game),
            "abstraction": COLORETTO.abstraction_name,
            "abstraction_version": COLORETTO.abstraction_version + 1,
            "iterations": 1,
            "solver": "test",
        },
    )
    with pytest.raises(PolicyFileError, match="version"):
        make_agent(f"policy(path={path})", game, seed=0)


def test_missing_or_foreign_files_are_refused(tmp_path):
    game = pyspiel.load_game("kuhn_poker")
    with pytest.raises(PolicyFileError, match="not found"):
        make_agent(f"policy(path={tmp_path / 'nope.parquet'},fallback=random)", game, seed=0)
    bogus = tmp_path / "bogus.parquet"
    pq.write_table(pq.read_table(_plain_table(tmp_path)), bogus)
    with pytest.raises(PolicyFileError, match="not a meeple policy file"):
        make_agent(f"policy(path={bogus},fallback=random)", game, seed=0)


def _plain_table(tmp_path):
    import pyarrow as pa

    path = tmp_path / "plain.parquet"
    pq.write_table(pa.table({"key": ["a"], "action": [0], "probability": [1.0]}), path)
    return path


def _policy_with(tmp_path, table, meta: bytes):
    import pyarrow as pa  # noqa: F401  (pyarrow.parquet needs the table's module loaded)

    path = tmp_path / "p.parquet"
    pq.write_table(table.replace_schema_metadata({b"meeple": meta}), path)
    return path


def _good_meta() -> bytes:
    import json

    return json.dumps(
        {
            "format": 1,
            "game": "kuhn_poker()",
            "abstraction": "none",
            "abstraction_version": 0,
            "iterations": 1,
            "solver": "cfr",
        }
    ).encode()


def test_metadata_that_is_a_json_list_is_one_line(tmp_path):
    """Old: read_meta returned the list and `meta.get` raised AttributeError."""
    import pyarrow as pa

    table = pa.table({"key": ["k"], "action": [0], "probability": [1.0]})
    path = _policy_with(tmp_path, table, b"[1, 2, 3]")
    with pytest.raises(PolicyFileError, match="not a JSON object"):
        read_policy(path)


def test_wrong_column_types_are_refused(tmp_path):
    """Old: a file whose `probability` column held strings (or `action` floats) was
    accepted silently and failed, or misplayed, only during games."""
    import pyarrow as pa

    table = pa.table({"key": ["k"], "action": [0], "probability": ["1.0"]})
    with pytest.raises(PolicyFileError, match="column 'probability' has type string"):
        read_policy(_policy_with(tmp_path, table, _good_meta()))
    table = pa.table({"key": ["k"], "action": [0.5], "probability": [1.0]})
    with pytest.raises(PolicyFileError, match="column 'action'"):
        read_policy(_policy_with(tmp_path, table, _good_meta()))
    table = pa.table({"key": ["k"], "probability": [1.0]})
    with pytest.raises(PolicyFileError, match="no column 'action'"):
        read_policy(_policy_with(tmp_path, table, _good_meta()))


def test_nan_or_out_of_range_probabilities_are_refused(tmp_path):
    import pyarrow as pa

    for bad in (float("nan"), -0.5, 1.5):
        table = pa.table({"key": ["k"], "action": [0], "probability": [bad]})
        with pytest.raises(PolicyFileError, match="outside"):
            read_policy(_policy_with(tmp_path, table, _good_meta()))


def test_a_failed_write_leaves_no_temporary_file(tmp_path):
    """Old: an error while writing left `<out>.tmp` behind."""

    def rows():
        yield "k", 0, 1.0
        raise RuntimeError("disk full")

    meta = {"game": "kuhn_poker()", "abstraction": "none", "abstraction_version": 0}
    with pytest.raises(RuntimeError):
        write_policy(tmp_path / "p.parquet", rows(), {**meta, "iterations": 1, "solver": "cfr"})
    assert list(tmp_path.iterdir()) == []
