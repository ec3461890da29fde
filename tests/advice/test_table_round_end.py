"""Die Staufer's round ends are told in the log (was: nothing: the regions scored, the
points, the bonuses and the king's move happened inside the last turn of the round, and
only the next board showed the VP track changed). Only public facts: a table game with
the other players' jobs entered as '?' prints what the true game scores."""

from __future__ import annotations

import io

import spiel_games
from tests.advice.test_table import Table, _session

CONFIG = "python_staufer(players=3)"
SUMMARY = ("  end of round ", "  VP track: ", "  the king moves ")


def _summaries(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith(SUMMARY)]


def test_staufer_table_mode_tells_each_round_end_from_the_public_position():
    game = spiel_games.load_game(CONFIG)
    table = Table(game, 3)
    out = io.StringIO()
    result = _session(table, CONFIG, out).run()
    text = out.getvalue()
    assert result.finished, text[-2000:]
    assert "P2's region job card: ? (hidden from you" in text  # a placeholder world
    shown = _summaries(text.splitlines())
    rounds = [int(line.split()[3][:-1]) for line in shown if line.startswith("  end of round")]
    assert sorted(set(rounds)) == [1, 2, 3, 4, 5] and rounds == sorted(rounds)
    assert sum(line.startswith("  VP track: ") for line in shown) == 5
    assert sum(line.startswith("  the king moves ") for line in shown) == 4  # not the last
    # the true game's own round ends (its true jobs), line for line
    state, true = game.new_initial_state(), []
    for a in table.truth:
        before = state.clone()
        state.apply_action(a)
        true += state.round_summary(before, a).splitlines()
    assert shown == true
    # the last VP track is the true game's track at the end
    core = state._s
    last = shown[-1].removeprefix("  VP track: ").split(", ")
    assert [int(part.split()[-1]) for part in last] == [
        core.v[core.t.vp + p] for p in range(game.num_players())
    ]
    assert (
        "  end of round 3: Augsburg (B tile most_seats) scores 8/4/2: P1 +8, P2 +4, P3 +2"
        " (majority counts: P1 3, P2 3, P3 2); bonus envoys to P1: +2 envoys" in shown
    )
