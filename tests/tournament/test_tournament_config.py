"""Config validation: every problem is one line naming the key, raised before anything runs."""

from __future__ import annotations

import pytest

import tournament.config_checks as config_checks
from tournament.config import ConfigError, build_config, parse_override
from tournament.schedule import schedule


@pytest.mark.parametrize(
    ("patch", "key"),
    [
        ({"tournament": {"seedz": 3}}, "tournament.seedz"),
        ({"tournament": {"seeds_per_lineup": "many"}}, "tournament.seeds_per_lineup"),
        ({"tournament": {"seeds_per_lineup": 0}}, "tournament.seeds_per_lineup"),
        ({"tournament": {"schedule": "swiss"}}, "tournament.schedule"),
        ({"tournament": {"failure_policy": "ignore"}}, "tournament.failure_policy"),
        ({"tournament": {"time_limit": -1}}, "tournament.time_limit"),
        ({"tournament": {"seed": -5}}, "tournament.seed"),
        ({"tournament": {"game": "python_nosuchgame"}}, "tournament.game"),
        ({"tournament": {"game": "python_coloretto(players=9)"}}, "tournament.game"),
        ({"tournament": {"schedule": "gauntlet"}}, "tournament.focus"),
        ({"tournament": {"schedule": "gauntlet", "focus": "nobody"}}, "tournament.focus"),
        ({"agents": {"bad": "nosuchkind"}}, "agents.bad"),
        ({"agents": {"bad": "random(depth=3)"}}, "agents.bad"),
        ({"agents": {"bad": 3}}, "agents.bad"),
        ({"extra": {"x": 1}}, "[extra]"),
        ({"tournament": {"schedule": "ladder"}}, "ladder."),
    ],
)
def test_bad_key_or_value_names_the_key(make_raw, patch, key):
    raw = make_raw()
    for section, values in patch.items():
        raw.setdefault(section, {}).update(values)
    with pytest.raises(ConfigError) as e:
        build_config(raw)
    msg = str(e.value)
    assert key in msg and "\n" not in msg


def test_too_few_agents_for_the_player_count(make_raw):
    raw = make_raw(game="python_coloretto(players=3)")
    with pytest.raises(ConfigError, match="agents"):
        build_config(raw)
    assert (
        len(build_config(make_raw(game="python_coloretto(players=3)", self_play=True)).agents) == 2
    )


def test_two_names_for_one_spec_are_refused(make_raw):
    """The error names both agents and what they are (was: 'two names share the same
    spec', naming neither: with `random` and `random()` the two specs even differ)."""
    with pytest.raises(ConfigError, match="distinct spec"):
        build_config(make_raw(agents={"a": "random", "b": "random"}))
    with pytest.raises(
        ConfigError, match=r"a \('random'\) and b \('random\(\)'\) are the same agent \(random\)"
    ):
        build_config(make_raw(agents={"a": "random", "b": "random()", "c": "heuristic"}))


def test_overrides_merge_before_validation(make_raw):
    cfg = build_config(make_raw(), {"tournament.seeds_per_lineup": 2})
    assert cfg.seeds_per_lineup == 2
    with pytest.raises(ConfigError, match="tournament.seed"):
        build_config(make_raw(), {"tournament.seed": "x"})
    with pytest.raises(ConfigError, match="nosuch.key"):
        build_config(make_raw(), {"nosuch.key": 1})
    assert parse_override("seed=4") == ("tournament.seed", 4)
    assert parse_override("agents.m=mcts(sims=5)") == ("agents.m", "mcts(sims=5)")


def test_config_hash_ignores_batch_size_but_not_the_games(make_raw):
    a = build_config(make_raw(batch_size=4))
    assert a.config_hash == build_config(make_raw(batch_size=9)).config_hash
    assert a.config_hash != build_config(make_raw(seed=99)).config_hash
    assert a.config_hash != build_config(make_raw(failure_policy="void")).config_hash


def test_agent_ids_hash_the_canonical_spec(make_raw):
    a = build_config(make_raw())
    b = build_config(make_raw(agents={"rnd": "random()", "greedy": "heuristic"}))
    assert a.agent("random").agent_id == b.agent("rnd").agent_id
    assert a.agent("random").agent_id != a.agent("greedy").agent_id


def test_deals_do_not_depend_on_the_code_version(make_raw, monkeypatch):
    """The agents' ids carry the code version; the deals must not, or every code change
    would deal other cards to the same configuration (and rewrite every documented run)."""
    monkeypatch.setattr(config_checks, "kind_version", lambda game, kind: "version-a")
    a = build_config(make_raw())
    monkeypatch.setattr(config_checks, "kind_version", lambda game, kind: "version-b")
    b = build_config(make_raw())
    assert a.agent("random").agent_id != b.agent("random").agent_id
    assert [t.seed for t in schedule(a)] == [t.seed for t in schedule(b)]
    assert len({t.seed for t in schedule(a)}) > 1


def test_set_reads_toml_values_and_bare_words(make_raw):
    """Was: `--set 'ladder.values=[5,10,20]'` -> `ladder.values must be list, got '[5,10,20]'`
    (the value was read as a word or a number only)."""
    assert parse_override("ladder.values=[5,10,20]") == ("ladder.values", [5, 10, 20])
    tables = parse_override('tables=[["random", "greedy"]]')
    assert tables == ("tournament.tables", [["random", "greedy"]])
    # bare words as before: a game string, an agent spec, true/false, numbers
    assert parse_override("game=python_coloretto(players=3)")[1] == "python_coloretto(players=3)"
    assert parse_override("agents.m='mcts(sims=5)'")[1] == "mcts(sims=5)"
    assert parse_override("self_play=True")[1] is True
    assert parse_override("time_limit=2.5")[1] == 2.5
    assert parse_override("focus=2024-01-01")[1] == "2024-01-01"  # not a TOML date
    assert parse_override("seed=4\nbatch_size = 2")[1] == "4\nbatch_size = 2"  # one value only
    raw = make_raw(schedule="fixed")
    cfg = build_config(raw, dict([tables]))
    assert sorted(cfg.tables[0]) == ["greedy", "random"]


def test_the_game_option_is_an_override_not_a_required_option():
    """Was: `tournament run --help` marked --game "(required)"; the config key is."""
    from typer.testing import CliRunner

    from tournament.cli import app

    text = CliRunner().invoke(app, ["tournament", "run", "--help"], env={"COLUMNS": "300"}).output
    line = next(x for x in text.splitlines() if "--game " in x)
    assert "(required)" not in line and "[required]" not in line
    assert "Override tournament.game (a key the config or this option must set)" in line
