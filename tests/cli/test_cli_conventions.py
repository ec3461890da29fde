"""Conventions every `meeple` command shares (issue 14): one style of error, `-h`,
`--version`, `--format text|json` beside `--json`, `-s` for `--seed`.

Walks the real click tree, so a command added later is held to the same rules."""

from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

from tournament.cli import app, version_line

runner = CliRunner()
ROOT = typer.main.get_command(app)


def _commands(group=ROOT, path=()):
    """(path, click command) for every leaf command."""
    for name, cmd in sorted(getattr(group, "commands", {}).items()):
        if getattr(cmd, "commands", None):
            yield from _commands(cmd, (*path, name))
        else:
            yield (*path, name), cmd


COMMANDS = list(_commands())
IDS = [" ".join(p) for p, _ in COMMANDS]


def _options(cmd) -> dict[str, list[str]]:
    return {p.name: list(p.opts) + list(p.secondary_opts) for p in cmd.params if p.opts}


def test_the_walk_finds_every_command_group():
    names = {p[0] for p, _ in COMMANDS}
    assert {"games", "agents", "solve", "tournament", "ratings", "advise", "play"} <= names


@pytest.mark.parametrize(("path", "cmd"), COMMANDS, ids=IDS)
def test_dash_h_is_help_on_every_command(path, cmd):
    """Old: only `--help` worked; `-h` was "No such option: -h" in a box."""
    r = runner.invoke(app, [*path, "-h"])
    assert r.exit_code == 0, r.output
    assert "Usage:" in r.output


@pytest.mark.parametrize(("path", "cmd"), COMMANDS, ids=IDS)
def test_an_unknown_option_is_one_line_with_status_2_on_every_command(path, cmd):
    """Old: typer printed a boxed, multi-line usage error (╭─ Error ─╮) beside the
    project's own one-line `error: ...`."""
    r = runner.invoke(app, [*path, "--no-such-option"])
    assert r.exit_code == 2
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    assert "--no-such-option" in lines[0] and "-h" in lines[0]
    assert "╭" not in r.stderr and "Usage:" not in r.stderr


def test_a_bad_option_value_is_one_line_with_status_2():
    """Old: a boxed 'Invalid value for --games' error."""
    r = runner.invoke(app, ["games", "simulate", "python_coloretto", "--games", "zero"])
    assert r.exit_code == 2
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("error: invalid value for '--games'")


@pytest.mark.parametrize(
    "args",
    [
        ["advise", "nope", "-H", "", "-a", "heuristic"],
        ["advise", "python_coloretto(players=3)", "-H", "", "-a", "nokind"],
        ["review", "no-such-record.json", "--agent", "nokind"],
        ["play", "nope", "--seats", "human,heuristic"],
    ],
    ids=["advise-game", "advise-agent", "review-agent", "play-game"],
)
def test_an_unknown_game_or_agent_is_status_2_on_the_advice_commands(args):
    """Old: advise and review answered an unknown game or agent kind with 1 (the status
    of a request that ran and failed) while every other command answered 2."""
    r = runner.invoke(app, args)
    assert r.exit_code == 2, r.output
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("error: unknown ")


def test_an_unknown_command_is_one_line_with_status_2():
    r = runner.invoke(app, ["simulate"])
    assert r.exit_code == 2
    assert r.stderr.count("\n") == 1 and "no such command 'simulate'" in r.stderr


def test_a_domain_error_exits_1_and_a_usage_error_exits_2(tmp_path):
    """The two codes mean different things on every command: 2 = the command line is wrong
    (nothing ran), 1 = the request ran and failed (here: a ledger whose manifest is corrupt;
    a directory that holds no ledger at all is a wrong command line, 2)."""
    usage = runner.invoke(app, ["solve", "kuhn_poker", "--solver", "nope"])
    assert usage.exit_code == 2 and usage.stderr.startswith("error: unknown solver")
    assert runner.invoke(app, ["ratings", str(tmp_path)]).exit_code == 2
    (tmp_path / "manifest.json").write_text("{not json")
    failed = runner.invoke(app, ["ratings", str(tmp_path)])
    assert failed.exit_code == 1
    assert failed.stderr.count("\n") == 1 and failed.stderr.startswith("error: ")


def test_version():
    """Old: `meeple --version` was 'No such option'."""
    r = runner.invoke(app, ["--version"])
    assert r.exit_code == 0
    assert r.output.strip() == version_line()
    assert r.output.startswith("meeple-arena ") and "open-spiel" in r.output


@pytest.mark.parametrize(("path", "cmd"), COMMANDS, ids=IDS)
def test_every_seed_option_has_dash_s(path, cmd):
    """Old: `-s` worked on advise and play only (not on simulate, solve, tournament run,
    ratings)."""
    opts = _options(cmd)
    if "seed" in opts:
        assert "-s" in opts["seed"], opts["seed"]


@pytest.mark.parametrize(("path", "cmd"), COMMANDS, ids=IDS)
def test_every_json_flag_has_a_format_option(path, cmd):
    """Old: `--json` on games show, agents and advise, `--format json` on ratings only."""
    opts = _options(cmd)
    if "as_json" in opts:
        assert "fmt" in opts and opts["fmt"] == ["--format"], opts


@pytest.mark.parametrize(
    "argv",
    [["agents"], ["games", "show", "coloretto"]],
)
def test_format_json_and_its_json_alias_print_the_same_object(argv):
    a = runner.invoke(app, [*argv, "--format", "json"])
    b = runner.invoke(app, [*argv, "--json"])
    assert a.exit_code == 0 and b.exit_code == 0
    assert json.loads(a.stdout) == json.loads(b.stdout)
    text = runner.invoke(app, [*argv, "--format", "text"])
    assert text.exit_code == 0 and not text.stdout.startswith(("{", "["))


def test_an_unknown_format_is_a_usage_error():
    r = runner.invoke(app, ["agents", "--format", "xml"])
    assert r.exit_code == 2 and r.stderr.startswith("error: ") and "'--format'" in r.stderr


def test_simulate_refuses_a_negative_seed_in_one_line():
    """Old: `games simulate --seed -1` ended in a numpy traceback ('Seed must be between 0
    and 2**32 - 1')."""
    r = runner.invoke(app, ["games", "simulate", "python_coloretto", "-n", "1", "--seed", "-1"])
    assert r.exit_code == 2
    assert r.stderr.count("\n") == 1 and "'--seed'" in r.stderr
    assert "Traceback" not in r.output


@pytest.mark.parametrize(
    "args",
    [["games", "show", "x" * 5000], ["play", "x" * 5000, "--seats", "human,heuristic"]],
    ids=["fail", "domain-error"],
)
def test_an_error_echoing_a_huge_input_is_cut_once_and_keeps_its_reason(args):
    """Was: fail() printed a message's whole first line (`meeple games show` with a 5,000
    character name echoed all of it); only domain errors went through one_line's cut."""
    r = runner.invoke(app, args)
    assert r.exit_code == 2 and r.stderr.count("\n") == 1
    line = r.stderr.rstrip("\n")
    assert line.startswith("error: unknown game 'xxx") and len(line) <= len("error: ") + 2000
    assert line.count("characters cut") == 1 and line.endswith("python_staufer")


@pytest.mark.parametrize("args", [["--" + "x" * 5000], ["x" * 5000], ["agents", "--" + "q" * 5000]])
def test_a_usage_error_echoing_a_huge_input_is_cut_to_one_readable_line(args):
    """Was: click's usage errors (an unknown option or command) bypassed the cut, so a
    5,000-character option name made a 5,000-character line."""
    r = runner.invoke(app, args)
    assert r.exit_code == 2 and r.stderr.count("\n") == 1
    line = r.stderr.rstrip("\n")
    assert line.startswith("error: no such ") and len(line) <= len("error: ") + 2000
    assert line.count("characters cut") == 1 and line.endswith("-h')")


def test_the_cli_line_limit_is_the_error_module_s():
    from spiel_games.common.errors import MAX_LINE
    from tournament.cli.common import MAX_LINE as CLI_MAX_LINE

    assert CLI_MAX_LINE == MAX_LINE
