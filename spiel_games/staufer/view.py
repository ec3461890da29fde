"""Die Staufer as one player sees it: a readable board for ``meeple play``.

``render_view(core, player)`` reads only what ``player`` may know: the whole public
position (the board, courts, provinces, chests lying face up, privileges, the king, every
round tile, the VP track) and the player's own job cards. Other players' job cards are
shown as a count until the end of the game, when every card is revealed. Scores before
the end are the public part (VP track + brown chests + privileges) plus, for the viewer
only, their own jobs -- never a number that depends on someone else's secret.
"""

from __future__ import annotations

from spiel_games.staufer import rules as R
from spiel_games.staufer import scoring as S
from spiel_games.staufer.state import (
    AFTER,
    CUR,
    END,
    ESCORT,
    GIFT,
    KING,
    NDEP,
    NOB_LEFT,
    NSUP,
    PEND_OCC,
    PEND_POS,
    PEND_SEAT,
    PLAYER_PHASES,
    PRIV_PENDING,
    ROUND,
    SCORED_A,
    SCORED_B,
    SETUP,
    STEP,
    TAKE_E,
    TAKE_N,
    TI,
    Phase,
)
from spiel_games.staufer.text import CHEST_NAMES

# Short chest names for the board (the legend line says which colour each belongs to).
_CHEST = ("2vp", "3vp", "envoy", "noble", "escort", "gift", "levy", "purple", "brown")
_CHEST_LEGEND = (
    "Chests: orange 2vp/3vp/envoy/noble (at once), turquoise escort/gift/levy (one use),",
    "        purple (a privilege), brown (end scoring)",
)

_DESIGN_TEXT = {
    "two_seats": "per region where you hold 2+ seats",
    "three_seats": "per region where you hold 3+ seats",
    "nobility": "per noble on a seat",
    "leftmost": "per leftmost seat you hold",
    "presence": "per region where you hold a seat",
    "king_court": "per seat in the king's region",
}
_OFFICE_TEXT = {
    "noble_seat": "per noble-only seat you hold",
    "total_value": "per 2 points of total seat value",
}


def job_text(card: int) -> str:
    """A job card in words: what it is and what it pays."""
    ty, i = divmod(card, R.JOB_POOL_MAX)
    if ty == R.JOB_REGION:
        return f"region job {R.REGION_NAMES[i]}: {R.REGION_JOB_VP} VP for a seat there"
    if ty == R.JOB_DESIGN:
        name, vp = R.DESIGN_JOBS[i]
        return f"design job {name}: {vp} VP {_DESIGN_TEXT[name]}"
    name, vp = R.OFFICE_JOBS[i]
    what = f"per seat of value {name[5:]}" if name.startswith("value") else _OFFICE_TEXT[name]
    return f"office job {name}: {vp} VP {what}"


def _who(o: int, player: int) -> str:
    if o < 0:
        return "free"
    p = o >> 1
    return f"P{p + 1}{'*' if p == player else ''} {'noble' if o & 1 else 'envoy'}"


def _figures(e: int, nb: int) -> str:
    return f"{e}E+{nb}N"


def _chests(counts) -> str:
    return ", ".join(_CHEST[k] + (f" x{c}" if c > 1 else "") for k, c in enumerate(counts) if c)


def render_view(s, player: int) -> str:
    """The position as ``player`` sees it (s is the state's Core)."""
    t = s.t
    n = t.n
    if not 0 <= player < n:
        raise ValueError(f"player must be 0-{n - 1}, got {player}")
    if s.phase == SETUP:
        return _setup_view(s, player)
    end = s.phase == END
    lines = _head(s, player, end)
    lines.extend(_CHEST_LEGEND)
    lines += _regions(s, player)
    lines += _supplies(s)
    lines.extend(_players(s, player, end))
    if not end:
        lines += _order(s)
    return "\n".join(lines)


def _head(s, player: int, end: bool) -> list[str]:
    """Round, phase and mover, the king, the scoring tiles of this and every round."""
    v = s.v
    t = s.t
    ph = s.phase
    rnd = v[ROUND]
    head = f"Die Staufer -- view of P{player + 1} (you are marked *)"
    if end:
        lines = [head, f"Game over after round {rnd + 1}/{t.cfg.rounds}"]
    else:
        mover = f"P{v[CUR] + 1}" if ph in PLAYER_PHASES else "chance"
        lines = [
            head,
            f"Round {rnd + 1}/{t.cfg.rounds}, phase {Phase(ph).name.lower()}, to move: {mover}"
            + (" (you)" if ph in PLAYER_PHASES and v[CUR] == player else ""),
        ]
    king = v[KING]
    lines.append(f"King: {R.REGION_NAMES[s.region_at[king]]} (board position {king + 1})")
    if not end:
        a_pos, b_pos = S.scored_positions(s)[0], S.b_region(s, s.b_tiles[rnd])
        lines.append(
            f"Scores this round: A tile {R.REGION_NAMES[s.region_at[a_pos]]}; "
            f"B tile {R.B_CONDITIONS[s.b_tiles[rnd]]} (now {R.REGION_NAMES[s.region_at[b_pos]]})"
        )
    if v[SCORED_A] >= 0:
        done = [R.REGION_NAMES[s.region_at[p]] for p in (v[SCORED_A], v[SCORED_B]) if p >= 0]
        lines.append("Last scored: " + ", ".join(done))
    lines.append("Round tiles (A region / B condition / C king move; > this round, - played):")
    for i in range(t.cfg.rounds):
        c = f" / C {s.c_tiles[i]}" if i < len(s.c_tiles) else " / no C"
        mark = ">" if i == rnd and not end else (" " if i > rnd else "-")
        lines.append(
            f" {mark} round {i + 1}: A {R.REGION_NAMES[s.a_tiles[i]]} / "
            f"B {R.B_CONDITIONS[s.b_tiles[i]]}{c}"
        )
    return lines


def _regions(s, player: int) -> list[str]:
    """Every region clockwise: point tile, bonus, seats (with chests), payment area."""
    v = s.v
    t = s.t
    n = t.n
    king = v[KING]
    lines = ["Regions, clockwise (K = king; seats left to right, N = noble only):"]
    for pos in range(t.r):
        rid = s.region_at[pos]
        tile = R.POINT_TILES[s.tile_at[pos]]
        lines.append(
            f" {'K' if pos == king else ' '} {pos + 1}. {R.REGION_NAMES[rid]}: points "
            f"{tile[0]}/{tile[1]}/{tile[2]}, bonus {R.REGION_BONUS[rid]}"
        )
        seats = []
        for k, (value, only) in enumerate(t.cfg.seats[rid]):
            j = pos * t.K + k
            chest = v[t.chest + j]
            seats.append(
                f"[{value}{'N' if only else ''} {_who(v[t.seat + j], player)}"
                + (f", {_CHEST[chest]}" if chest >= 0 else "")
                + "]"
            )
        lines.append("      seats: " + " ".join(seats))
        base = t.pay + pos * n * 2
        pay = [
            f"P{p + 1} {_figures(v[base + 2 * p], v[base + 2 * p + 1])}"
            for p in range(n)
            if v[base + 2 * p] or v[base + 2 * p + 1]
        ]
        lines.append("      payment area: " + (", ".join(pay) if pay else "empty"))
    return lines


def _supplies(s) -> list[str]:
    """The supply table, the chest stacks and the privileges on display."""
    v = s.v
    t = s.t
    lines = ["Supply table:"]
    for i, (e, nb) in enumerate(t.cfg.supply):
        base = t.supc + i * R.CHEST_KINDS
        chests = _chests(v[base : base + R.CHEST_KINDS])
        lines.append(f"  {i + 1}. {_figures(e, nb)}, chests: {chests or 'none'}")
    bag = v[t.bag : t.bag + R.CHEST_KINDS]
    lines.append(
        f"Chest stacks (face down): {sum(bag)} left" + (f" ({_chests(bag)})" if sum(bag) else "")
    )
    pile = s.vp_pile()
    piles = ", ".join(
        f"{R.PRIV_NAMES[k]} x{v[t.piles + k]}" for k in range(1, R.PRIV_KINDS) if v[t.piles + k]
    )
    lines.append(
        f"Privileges on display: VP pile {len(pile)} left"
        + (f" (top {pile[-1]} VP)" if pile else "")
        + (f"; {piles}" if piles else "")
    )
    return lines


def _order(s) -> list[str]:
    """Who still acts this round, the two tracks and what the turn has pending."""
    v = s.v
    t = s.t
    order = v[t.order + v[TI] : t.order + t.F] if s.phase in PLAYER_PHASES else []
    lines = ["Still to act this round: " + (" ".join(f"P{p + 1}" for p in order) or "-")]
    lines.append(
        "Tracks: supply "
        + (" ".join(f"P{p + 1}" for p in v[t.sup : t.sup + v[NSUP]]) or "-")
        + "; deploy "
        + (" ".join(f"P{p + 1}" for p in v[t.dep : t.dep + v[NDEP]]) or "-")
    )
    pending = _pending(s)
    if pending:
        lines.append("This turn: " + pending)
    return lines


def _players(s, player: int, end: bool) -> list[str]:
    v = s.v
    t = s.t
    n = t.n
    lines = ["Players:"]
    known = S.scores(s) if end else S.known_scores(s, player)
    for p in range(n):
        pk = t.privs + p * R.PRIV_KINDS
        privs = [R.PRIV_NAMES[k] for k in range(1, R.PRIV_KINDS) if v[pk + k]]
        if v[pk + R.VP_PRIV]:
            privs.insert(0, f"{v[pk + R.VP_PRIV]} VP privilege(s) worth {v[t.vpp + p]}")
        tq = [
            f"{CHEST_NAMES[R.TURQUOISE[i]].split()[1]} x{v[t.tq + p * 3 + i]}"
            for i in range(3)
            if v[t.tq + p * 3 + i]
        ]
        you = " (you)" if p == player else ""
        lines.append(
            f"  P{p + 1}{you}: {v[t.vp + p]} VP on the track; court "
            f"{_figures(v[t.court + 2 * p], v[t.court + 2 * p + 1])}, province "
            f"{_figures(v[t.prov + 2 * p], v[t.prov + 2 * p + 1])}; brown chests {v[t.brown + p]}"
        )
        lines.append(
            f"      turquoise: {', '.join(tq) or 'none'}; privileges: {', '.join(privs) or 'none'}"
        )
        cards = [c for c in v[t.jobs + p * 3 : t.jobs + p * 3 + 3] if c >= 0]
        if p == player or end:
            seats = S.player_seats(s, p)
            for c in cards:
                lines.append(f"      job: {job_text(c)} (now {S.job_vp(s, p, c, seats)} VP)")
        elif cards:
            lines.append(f"      jobs: {len(cards)} hidden")
    if end:
        lines.append("Final scores: " + ", ".join(f"P{p + 1} {known[p]}" for p in range(n)))
    else:
        lines.append(
            "Scores if the game ended now (others' hidden jobs not counted): "
            + ", ".join(f"P{p + 1} {known[p]}" for p in range(n))
        )
    return lines


def _pending(s) -> str:
    v = s.v
    parts = []
    if v[ESCORT]:
        parts.append("escort used (free travel)")
    if v[GIFT]:
        parts.append("gift used (seat costs 1 less)")
    pos = v[PEND_POS]
    if pos >= 0:
        text = f"deploying to {R.REGION_NAMES[s.region_at[pos]]}"
        if v[PEND_SEAT] >= 0:
            value, only = s.seat_def(pos, v[PEND_SEAT])
            text += f", seat {v[PEND_SEAT] + 1} ({value}{'N' if only else ''})"
        if v[PEND_OCC] >= 0:
            text += f", occupied by {'a noble' if v[PEND_OCC] else 'an envoy'}"
        parts.append(text)
    if v[NOB_LEFT]:
        parts.append(f"{v[NOB_LEFT]} paying noble(s) to place")
    if v[TAKE_N] or v[TAKE_E]:
        parts.append(
            f"the province lacks {v[TAKE_E]} envoy(s) and {v[TAKE_N]} noble(s): "
            "take them from payment areas"
        )
    if v[PRIV_PENDING]:
        parts.append(f"{v[PRIV_PENDING]} privilege(s) to choose")
    if s.phase == AFTER:
        parts.append("action done: use a levy now or end the turn")
    return "; ".join(parts)


def _setup_view(s, player: int) -> str:
    """During the setup chance nodes: the regions and tiles placed so far, own jobs."""
    v = s.v
    t = s.t
    lines = [
        f"Die Staufer -- view of P{player + 1}",
        f"Setting up: step {v[STEP] + 1}/{len(t.steps)}",
    ]
    placed = [
        f"{pos + 1}. {R.REGION_NAMES[rid]}"
        + (
            f" (points {'/'.join(map(str, R.POINT_TILES[s.tile_at[pos]]))})"
            if s.tile_at[pos] >= 0
            else ""
        )
        for pos, rid in enumerate(s.region_at)
        if rid >= 0
    ]
    lines.append("Regions placed: " + ", ".join(placed))
    cards = [c for c in v[t.jobs + player * 3 : t.jobs + player * 3 + 3] if c >= 0]
    for c in cards:
        lines.append(f"Your job: {job_text(c)}")
    if s.a_tiles:
        lines.append("A tiles: " + ", ".join(R.REGION_NAMES[x] for x in s.a_tiles))
    return "\n".join(lines)
