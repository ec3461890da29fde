"""Die Staufer's round ends are told in the log (was: nothing: the regions scored, the
points, the bonuses and the king's move happened inside the last turn of the round, and
only the next board showed the VP track changed). Only public facts: a table game with
the other players' jobs entered as '?' prints what the true game scores. Bruxelles 1893's
likewise (the resolution and the round's scoring), with the others' Workshop draws as '?'."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

import spiel_games
from spiel_games.staufer import rules as STAUFER
from spiel_games.staufer import state as STAUFER_STATE
from spiel_games.staufer.phases import TABLE as STAUFER_TABLE
from tests.advice.test_table import Table, _session

CONFIG = "python_staufer(players=3)"
ADVICE_MD = Path(__file__).resolve().parents[2] / "docs" / "advice.md"


def _doc_lines(block: int) -> list[str]:
    """The lines of the ``block``-th example of round-end lines in docs/advice.md (0: Die
    Staufer's, 1: Bruxelles 1893's), without the "..." that stands for lines left out."""
    text = ADVICE_MD.read_text(encoding="utf-8")
    text = text[text.index("A round's end that no move shows") :]
    blocks = [b.split("```", 1)[0] for b in text.split("```\n")[1::2]]
    return [ln for ln in blocks[block].splitlines() if ln.strip() != "..."]


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
    # docs/advice.md's example is this game's output, line for line (docs never go stale)
    doc = _doc_lines(0)
    assert doc and all(line in shown for line in doc), doc


def _vp_scored(core, done) -> list[int]:
    """Per player: the VP a recorded round end gave (places, and the vp and presence
    bonuses; the privilege bonus gives a card, not track points)."""
    out = [0] * core.t.n
    for region in done.regions:
        for p, vp in enumerate(region.awards):
            out[p] += vp
        if region.holder >= 0 and STAUFER.REGION_BONUS[core.region_at[region.pos]] in (
            "vp",
            "presence",
        ):
            out[region.holder] += region.gained
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_staufer_round_end_lines_come_from_the_engines_scoring_record(monkeypatch, seed):
    """The lines are built from what the engine recorded as it scored (the core's
    ``scoring``, made by scoring.score_region), no move replayed (was: the round's last
    move replayed on a copy of the position before it, its turn count one short). The
    phase table's applies fail here (the engine's moves use their own bound copies), and
    every round end is still told; the record adds up to the VP track."""
    monkeypatch.setattr(STAUFER_TABLE, "apply", (_replayed,) * len(STAUFER_TABLE.apply))
    rng = random.Random(seed)
    state, told = spiel_games.load_game(CONFIG).new_initial_state(), 0
    while not state.is_terminal():
        before = state.clone()
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            action = rng.choices(outcomes, probs)[0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        lines = state.round_summary(before, action).splitlines()
        if not lines:
            continue
        core, done = state._s, state._s.scoring
        assert done.round == told and len(lines) == len(done.regions) + 1 + (told < 4)
        assert list(done.vp_after) == core.v[core.t.vp : core.t.vp + core.t.n]
        gained = [now - was for was, now in zip(done.vp_before, done.vp_after, strict=True)]
        assert gained == _vp_scored(core, done)
        told += 1
    assert told == 5


def _replayed(core, action):
    pytest.fail("a move was replayed outside the engine")


# ----- Bruxelles 1893 ------------------------------------------------------------------------
BRX_SUMMARY = (
    "  resolution of round ",
    "  Manneken Pis this round ",
    "  end of round ",
    "  VP track: ",
    "  end of turn: ",
)


def _shield_points(lines: list[str], n: int) -> list[int]:
    """Each player's VP from the full shields the lines name ("P1 +3 (City Hall space 3)")."""
    gain = [0] * n
    for line in lines:
        if line.startswith("  end of round ") and ": shield " in line:
            for part in line.split("): ", 1)[1].split(", "):
                if part.startswith("P") and " +" in part:
                    who, points = part.split()[:2]
                    gain[int(who[1:]) - 1] += int(points)
    return gain


@pytest.mark.parametrize(
    "config, seed", [("python_bruxelles(players=3)", 5), ("python_bruxelles(players=2)", 4)]
)
def test_bruxelles_table_mode_tells_each_round_end_and_its_scores(config, seed):
    """Bruxelles 1893's resolution and end of round are told in the log (was: nothing; the
    bonus cards, the first player, the shields' VP and the Brussels majority showed only in
    the next board). The others' Workshop draws are '?' in the session, and the lines are
    the true game's, whose VP changes they account for."""
    game = spiel_games.load_game(config)
    n = game.num_players()
    table = Table(game, seed)
    out = io.StringIO()
    result = _session(table, config, out).run()
    text = out.getvalue()
    assert result.finished, text[-2000:]
    assert "Workshop draw 1 of " in text and "? (hidden from you" in text  # a placeholder world
    table.sync()  # the last entry ended the game: no prompt read it into the truth
    shown = [line for line in text.splitlines() if line.startswith(BRX_SUMMARY)]
    state, true = game.new_initial_state(), []
    for a in table.truth:
        before = state.clone()
        state.apply_action(a)
        lines = state.round_summary(before, a).splitlines()
        true += lines
        if any(line.startswith("  Manneken Pis this round ") for line in lines):
            first = next(line for line in lines if line.startswith("  Manneken Pis"))
            assert f"; first player P{state._s.first + 1}" in first  # the true game's
        if any(line.startswith("  VP track: ") for line in lines):
            gained = [state._s.vp[p] - before._s.vp[p] for p in range(n)]
            assert _shield_points(lines, n) == gained, lines
    assert shown == true
    assert sum(line.startswith("  VP track: ") for line in shown) == 5
    assert sum(line.startswith("  end of turn: ") for line in shown) == 4  # not the last
    assert sum(line.startswith("  Manneken Pis this round ") for line in shown) == 5
    assert any(": shield " in line and " +" in line for line in shown)  # a shield scored
    assert any(" tie and each take its power" in line for line in shown)
    last = shown[-1].removeprefix("  VP track: ").split(", ")
    assert [int(part.split()[-1]) for part in last] == state._s.vp
    if (config, seed) == ("python_bruxelles(players=3)", 5):  # docs/advice.md's example
        doc = _doc_lines(1)
        assert doc and all(line in shown for line in doc), [ln for ln in doc if ln not in shown]
    if n == 2:  # the neutral assistant's majority scores nobody
        assert any("the neutral colour has most, nobody scores" in line for line in shown)


def test_bruxelles_says_when_a_free_power_has_fewer_assistants_to_free():
    """Was: 'applied at once: free 2 assistants' for a player with one assistant (or none)
    in the Courthouse, where the power frees only what is there."""
    config = "python_bruxelles(players=3)"
    game = spiel_games.load_game(config)
    table = Table(game, 5)
    _session(table, config, io.StringIO()).run()
    state = game.new_initial_state()
    for a in table.truth:
        before = state.clone()
        state.apply_action(a)
        if "P1 wins it (applied at once: free 2 assistants)" in state.round_summary(before, a):
            break
    else:
        raise AssertionError("the game of seed 5 no longer has the CC card won by P1")
    core = before._s
    core.court = (1, *core.court[1:])  # P1 has one assistant there
    text = state.round_summary(before, a)
    assert "P1 wins it (applied at once: free 2 assistants: 1 in the Courthouse to free)" in text


def test_bruxelles_a_tie_on_a_free_card_says_it_for_each_tied_player():
    """Was: the note came from the first tied player's Courthouse only ('applied at once:
    free 1 assistant' for P1 with 4 there, nothing said of P2 with none)."""
    import random

    game = spiel_games.load_game("python_bruxelles(players=2)")
    rng, state = random.Random(96), game.new_initial_state()
    lines: list[str] = []
    while not state.is_terminal():
        if state.is_chance_node():
            outs = state.chance_outcomes()
            a = rng.choices([o for o, _ in outs], [p for _, p in outs])[0]
        else:
            a = rng.choice(state.legal_actions())
        before = state.clone()
        state.apply_action(a)
        lines += state.round_summary(before, a).splitlines()
    tie = [ln for ln in lines if "round 3: column 1, bonus card C " in ln]
    assert tie == [
        "  resolution of round 3: column 1, bonus card C (free 1 assistant, 1 VP symbol, 1"
        " Manneken Pis): bids P1 4, P2 4: P1 and P2 tie and each take its power (P1: applied"
        " at once: free 1 assistant; P2: applied at once: free 1 assistant: 0 in the"
        " Courthouse to free); the card is discarded"
    ]


def test_staufer_round_end_says_an_envoy_came_for_a_noble_none_is_left_of():
    """A noble bonus whose colour has no noble left anywhere gives an envoy (the rules'
    fallback in state.gain); the log said '+1 noble' all the same."""
    from spiel_games.staufer import scoring, text

    game = spiel_games.load_game(CONFIG)
    rng = random.Random(5)
    for _ in range(200):
        state = game.new_initial_state()
        while not state.is_terminal() and state._s.v[STAUFER_STATE.ROUND] < 2:
            state.apply_action(rng.choice(state.legal_actions()))
        c = state._s.__deepcopy__(None)
        t = c.t
        for pos in range(t.r):
            if STAUFER.REGION_BONUS[c.region_at[pos]] != "noble":
                continue
            counts, left = scoring.majority_counts(c, pos)
            holder = scoring.majority_holder(counts, left)
            if holder < 0:
                continue
            noble = holder * 2 + 1
            c.v[t.prov + noble] = 0  # no noble of the holder's colour anywhere
            for where in range(t.r):
                c.v[t.pay + where * t.n * 2 + noble] = 0
            envoys = c.v[t.court + holder * 2]
            region = scoring.score_region(c, pos)
            assert region.figures == (1, 0)
            assert c.v[t.court + holder * 2] == envoys + 1
            line = text._scored_line(c, 1, region, "A tile")
            assert line.endswith(f"bonus noble to P{holder + 1}: +1 envoy (no noble left to take)")
            return
    pytest.fail("no noble region with a majority holder in 200 games")
