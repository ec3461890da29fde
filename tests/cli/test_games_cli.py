"""`meeple games` through typer's CliRunner."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import spiel_games
from tournament.cli import app

runner = CliRunner()


def test_games_list_shows_every_registered_game_with_players_and_parameters():
    result = runner.invoke(app, ["games", "list"])
    assert result.exit_code == 0, result.output
    for spec in spiel_games.all_specs():
        assert spec.short_name in result.output
        assert f"{spec.min_players}-{spec.max_players} players" in result.output
    assert "players=4" in result.output


def test_games_show_json_has_the_documented_keys():
    result = runner.invoke(app, ["games", "show", "python_coloretto", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {"name", "players", "parameters", "tiny_configs", "assumptions"} <= set(data)
    assert data["name"] == "python_coloretto"
    assert data["players"] == [2, 5]
    assert any(p["name"] == "utility" and p["default"] == "rank" for p in data["parameters"])
    assert all(c.startswith("python_coloretto(") for c in data["tiny_configs"])
    assert any("tie" in a for a in data["assumptions"])


def test_games_show_text_accepts_short_names():
    result = runner.invoke(app, ["games", "show", "coloretto"])
    assert result.exit_code == 0, result.output
    assert "Deviations and assumptions" in result.output


def test_games_simulate_prints_score_and_length_statistics():
    result = runner.invoke(
        app, ["games", "simulate", "python_coloretto(players=3)", "--games", "4", "--seed", "3"]
    )
    assert result.exit_code == 0, result.output
    assert "length in actions (chance outcomes included): mean" in result.output
    assert "P3" in result.output and "score mean" in result.output


def test_games_simulate_is_reproducible_for_a_seed():
    args = ["games", "simulate", "python_coloretto(players=3)", "--games", "3", "--seed", "5"]
    a = runner.invoke(app, args).output
    b = runner.invoke(app, args).output
    strip = lambda text: [ln for ln in text.splitlines() if not ln.startswith("speed")]  # noqa: E731
    assert strip(a) == strip(b)


def test_unknown_game_is_a_one_line_error_with_status_2():
    result = runner.invoke(app, ["games", "show", "python_monopoly"])
    assert result.exit_code == 2
    assert "unknown game" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (["games", "simulate", "coloretto", "--games", "1"], "python_coloretto(players=3)"),
        (["advise", "rococo(players=4)", "-H", "", "-a", "random"], "python_rococo(players=4)"),
    ],
)
def test_a_game_name_without_its_prefix_names_the_game_string(args, shown):
    """Was: 'cannot load ...: Unknown game 'coloretto'. Available games are:' with the list
    cut off (`games show` takes the short name; game strings do not)."""
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    name = shown.split("(")[0].removeprefix("python_")
    assert result.stderr.startswith(f"error: unknown game '{name}'")
    assert f"'{shown}'" in result.stderr


def test_bad_parameter_is_a_one_line_error_with_status_2():
    result = runner.invoke(
        app, ["games", "simulate", "python_coloretto(players=9)", "--games", "1"]
    )
    assert result.exit_code == 2
    assert "2-5 players" in result.output
    assert "Traceback" not in result.output


def test_malformed_game_string_is_a_one_line_error_with_status_2():
    result = runner.invoke(app, ["games", "simulate", "python_coloretto(players=", "--games", "1"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_out_of_range_parameter_is_refused_not_replaced_by_its_default():
    """jokers=-7 was read as the -1 'by edition' sentinel and the game ran with 3 jokers."""
    for game in ("python_coloretto(jokers=-7)", "python_coloretto(cards_per_color=100000)"):
        result = runner.invoke(app, ["games", "simulate", game, "--games", "1"])
        assert result.exit_code == 2, result.output
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), result.output
        assert ("jokers must be -1 (by edition) or 0-" in lines[0]) or (
            "cards_per_color must be 1-" in lines[0]
        )


def test_a_deck_dealt_out_at_setup_is_too_small_for_any_last_round_depth():
    """The range of last_round_depth was printed as "0--1" when no card is left after setup."""
    tiny = (
        "python_coloretto(players=2,colors=2,cards_per_color=1,start_cards=1,plus2=0,jokers=0,"
        "positive_colors=1,rows=2,row_capacity=1{})"
    )
    for depth in ("", ",last_round_depth=0"):
        result = runner.invoke(app, ["games", "simulate", tiny.format(depth), "--games", "1"])
        assert result.exit_code == 2, result.output
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and "0--1" not in lines[0], result.output
        assert lines[0].endswith(
            ": this deck is too small for any last_round_depth: its 2 cards are all dealt at"
            " setup (2 players x 1 start card)"
        ), result.output


def test_a_repeated_game_parameter_is_refused_as_a_repeated_agent_parameter_is():
    """Was: python_coloretto(players=3,players=4) ran with 4 players (OpenSpiel keeps the
    last value), while ismcts(sims=3,sims=4) was refused."""
    for game, key in (
        ("python_coloretto(players=3,players=4)", "players"),
        ("python_coloretto(players=3, jokers=0, players=3)", "players"),
        ("turn_based_simultaneous_game(game=goofspiel(num_cards=3,num_cards=4))", "num_cards"),
    ):
        for argv in (
            ["games", "simulate", game, "--games", "1"],
            ["advise", game, "-H", "x", "-a", "random"],
        ):
            result = runner.invoke(app, argv)
            assert result.exit_code == 2, (argv, result.output)
            assert result.stderr == f"error: game parameter {key!r} given twice in {game!r}\n"
    ok = "turn_based_simultaneous_game(game=goofspiel(num_cards=3,players=2))"  # nested: apart
    assert spiel_games.load_game(ok, any_openspiel=True).num_players() == 2


def test_games_show_says_where_the_source_tags_are_explained():
    """Was: assumptions cited 'RULES-FACTS 1.5', 'ISSUE-3 totals' or 'SEED' with no word
    on what they are (ISSUE-3 and DATA-FOUND were explained nowhere a user can read)."""
    for game in ("coloretto", "rococo", "bruxelles", "staufer"):
        out = runner.invoke(app, ["games", "show", game]).output
        assert "source tags, docs/sources/README.md: RULES-FACTS N.M" in out
        assert "ISSUE-" not in out and "DATA-FOUND" not in out and "issue 11" not in out
