"""The end of a Bruxelles 1893 round for the log (the engine's ``round_text``): what the
resolution and the end of turn do that no move shows, so a player at a real table can
check the session's scores against the table's.

A round's end spans one or more moves. The last pass starts the resolution: the column
bids award the bonus cards and the Manneken Pis count names the first player (steps 1 and
2). Won cards that need a choice are then moves of their own; the move after which none is
left (the last pass itself when none needs one) scores the full shields and the Brussels
majority (steps 4 and 5) and ends the turn (assistants back, the theater shifts, the
unclaimed bonus cards and the stock card go).

Everything here is read directly from the cores before and after the move, with the
functions the engine itself uses (``state.column_results``, ``scoring.shield_awards``,
``scoring.brussels_winners``), so no move is replayed: the move that ends a round is a
pass or a bonus card's use, and neither changes the board's occupants, the bids, the
Brussels board, the theater display or the VP track, so ``before`` holds them as the
resolution found them; the City Hall levels shields score with and the Courthouse counts
are ``after``'s (a bonus card's power may have moved them during the resolution, and
nothing after the scoring does before the next decision or chance event). All of it is
public: no Workshop draw (the game's only secret) is read.
"""

from __future__ import annotations

from spiel_games.bruxelles import actions as A
from spiel_games.bruxelles import rules as R
from spiel_games.bruxelles.rounds import bonus_choices
from spiel_games.bruxelles.scoring import brussels_winners, shield_awards
from spiel_games.bruxelles.state import Phase, column_results
from spiel_games.bruxelles.text import bonus_details, power_text


def round_text(before, action: int, after) -> str:
    """The log lines for what the move ``action`` from core ``before`` to core ``after``
    resolved or ended of a round; "" when it did neither."""
    lines = []
    if _starts_resolution(before, action):
        lines += resolution_lines(before)
    if _ends_round(before, after):
        lines += end_lines(before, after)
    return "\n".join(lines)


def _starts_resolution(before, action: int) -> bool:
    """Whether the move is the round's last pass (everyone has passed after it)."""
    everyone = (1 << before.n) - 1
    return (
        before.phase == Phase.MAIN
        and action == A.PASS
        and before.passed | (1 << before.actor) == everyone
    )


def _ends_round(before, after) -> bool:
    """Whether the move ran the round's scoring (the next round began, or the game ended)."""
    return before.phase != Phase.END and (after.round != before.round or after.phase == Phase.END)


def _players(counts, n: int) -> str:
    """The players with a nonzero count, largest first, as in "P2 5, P1 3" (the neutral
    colour, player ``n``, as "neutral")."""
    order = sorted((p for p in range(len(counts)) if counts[p]), key=lambda p: -counts[p])
    return ", ".join(f"{'neutral' if p == n else f'P{p + 1}'} {counts[p]}" for p in order)


def _names(players) -> str:
    return " and ".join(f"P{p + 1}" for p in players)


def resolution_lines(s) -> list[str]:
    """Resolution steps 1 and 2 at the round's last pass (``s`` before it): each column's
    bonus card and bids and who takes it, then the Manneken Pis count and the first player."""
    head = f"  resolution of round {s.round}: "
    lines = []
    mp = list(s.mp)
    if s.first_passer < 0:  # the last pass is also the first (rounds.apply_main's pass)
        mp[s.actor] += R.RULES["pass.first_manneken"]
    for col, card, sums, winners in column_results(s):
        what = f"column {col + 1}, bonus card {R.BONUS_NAMES[card]} ({bonus_details(card)}): "
        if not winners:
            lines.append(head + what + "no bids, the card stays unclaimed")
            continue
        bids = "bids " + _players(sums, s.n)
        if len(winners) > 1:
            lines.append(
                head + what + f"{bids}: {_names(winners)} tie and each take its power"
                f"{_tied_at_once(s, winners, card)}; the card is discarded"
            )
            continue
        p = winners[0]
        mp[p] += R.BONUS[card][2]
        once = _at_once(s, p, card, 1)
        lines.append(head + what + f"{bids}: P{p + 1} wins it" + (f" ({once})" if once else ""))
    first = R.new_first_player(mp, s.first)
    counted = _players(mp, s.n) or "none"
    tie = f" (a tie goes clockwise from P{s.first + 1})" if mp.count(max(mp)) > 1 else ""
    lines.append(
        f"  Manneken Pis this round (exhibition tile and cards won): {counted}; first player"
        f" P{first + 1}{tie}"
    )
    return lines


def _at_once(s, p: int, card: int, tuck_ok: int) -> str:
    """What the card does at once when it leaves ``p`` one choice (rounds._t_bonus), as in
    "applied at once: City Hall +1"; "" when it may ask (the next moves show the choice).
    The rows tucked so far only grow, so one choice now is one choice then."""
    choices = bonus_choices(s, p, card, tuck_ok)
    if len(choices) > 1:
        return ""
    option = R.BONUS[card][0][choices[0] - A.POWER0]
    done = power_text(option)
    if option[0] == "C":  # frees only the assistants there are in the Courthouse
        freed = min(len(option), s.court[p])
        done += "" if freed == len(option) else f": {freed} in the Courthouse to free"
    return f"applied at once: {done}"


def _tied_at_once(s, winners: list[int], card: int) -> str:
    """``_at_once`` for each tied player: once when it says the same for all, else per
    player (each player's own Courthouse, own choices)."""
    notes = [_at_once(s, p, card, 0) for p in winners]
    if len(set(notes)) == 1:
        return f" ({notes[0]})" if notes[0] else ""
    return (
        " ("
        + "; ".join(f"P{p + 1}: {n or 'to choose'}" for p, n in zip(winners, notes, strict=True))
        + ")"
    )


def end_lines(before, after) -> list[str]:
    """Resolution steps 4 and 5, the VP track before and after, and the end of turn (not
    after the last round)."""
    head = f"  end of round {before.round}: "
    n = before.n
    lines = []
    awards = shield_awards(before.cfg.board, before.occ, before.neutral_id)
    for w in awards:
        counts = [w.owners.count(p) for p in range(n + 1)]
        what = f"shield {w.row}-{w.col} (assistants {_players(counts, n)}): "
        if not w.scorers:
            lines.append(head + what + "the neutral colour has most, nobody scores")
            continue
        points = ", ".join(
            f"P{p + 1} +{R.HALL[after.hall[p]]} (City Hall space {after.hall[p] + 1})"
            for p in w.scorers
        )
        lines.append(head + what + points)
    if not awards:
        lines.append(head + "no full shield, nobody scores")
    if before.cfg.brussels:
        lines.append(head + _brussels(before, after))
    track = ", ".join(
        f"P{p + 1} {before.vp[p]}" + (f" -> {after.vp[p]}" if after.vp[p] != before.vp[p] else "")
        for p in range(n)
    )
    lines.append(f"  VP track: {track}")
    if after.phase != Phase.END:
        lines.append(_end_of_turn(before, after))
    return lines


def _brussels(before, after) -> str:
    winners = brussels_winners(before.onbrussels)
    if not winners:
        return "nobody on the Brussels board, nobody goes to the Courthouse"
    court = ", ".join(f"P{p + 1} {after.court[p]}" for p in winners)
    return (
        f"Brussels majority (assistants there: {_players(before.onbrussels, n=before.n)}):"
        f" {_names(winners)} send{'s' if len(winners) == 1 else ''} one to the Courthouse"
        f" (now there: {court})"
    )


def _end_of_turn(before, after) -> str:
    """What the end of turn does before its chance events (rulebook D; rounds._t_endround)."""
    supply = ", ".join(f"P{p + 1} {after.supply[p]}" for p in range(before.n))
    parts = [
        f"assistants back to the supplies ({supply}; the Courthouse keeps its own),"
        " bids to the bank, figures upright"
    ]
    gone = before.display[0]
    if gone >= 0:
        parts.append(
            f"the theater discards {R.FIGURES[gone]} ({R.THEATER_COSTS[0]} BF space)"
            " and its figures move down one space"
        )
    left = [
        f"column {col + 1} {R.BONUS_NAMES[card]}"
        for col, card, _, w in column_results(before)
        if not w
    ]
    if left:
        parts.append("unclaimed bonus cards discarded: " + ", ".join(left))
    if before.stock >= 0:
        parts.append(f"stock card {before.stock + 1} discarded")
    parts.append(f"round {after.round} begins, first player P{after.first + 1}")
    return "  end of turn: " + "; ".join(parts)
