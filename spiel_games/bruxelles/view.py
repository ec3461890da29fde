"""Bruxelles 1893 as one player sees it: a readable board for ``meeple play``.

``render_view(state, player)`` reads only what ``player`` may know: the public position
(the Art Nouveau board with its bids and buildings, the bonus strip, the Brussels board,
the theater, the shop, the compass, the supplies, every player's public holdings) plus
the player's own secrets: the works they drew at a Workshop and put back, a Workshop draw
waiting for their choice, and (with ``private_works``) the colours of their own hidden
works. Others' secrets appear only as counts: "N hidden" works. The art stack's colours
are shown only where the observation shows them (with ``private_works`` just its size).
"""

from __future__ import annotations

from spiel_games.bruxelles import rules as R

# The observation's own rules for a pending draw and the visible stack: one source of truth.
from spiel_games.bruxelles.observer import drawer, pending_draw, visible_stack
from spiel_games.bruxelles.state import CHANCE_PHASES, Phase
from spiel_games.bruxelles.text import ACTION_TITLES, BRUSSELS_TITLES, ROW_TITLES

_ACT = "WSTMC"


def _colours(counts) -> str:
    return ", ".join(f"{R.ART[c]} x{k}" for c, k in enumerate(counts) if k) or "none"


def _figures(s, p: int) -> str:
    names = [
        R.FIGURES[f] + (" (used)" if (s.rot[p] >> f) & 1 else "")
        for f in range(len(R.FIGURES))
        if (s.kept[p] >> f) & 1
    ]
    return ", ".join(names) or "none"


def render_view(state, player: int) -> str:
    """The position as ``player`` sees it."""
    s = state._s
    n = s.n
    if not 0 <= player < n:
        raise ValueError(f"player must be 0-{n - 1}, got {player}")
    cfg = s.cfg
    end = s.phase == Phase.END
    lines = [f"Bruxelles 1893 -- view of P{player + 1}"]
    if end:
        lines.append(f"Game over after round {s.round}/{cfg.rounds}")
    else:
        if s.phase in CHANCE_PHASES:
            mover = "chance"
        else:
            mover = f"P{s.actor + 1}" + (" (you)" if s.actor == player else "")
        lines.append(
            f"Round {s.round}/{cfg.rounds}, phase {Phase(s.phase).name.lower()}, to move: {mover}"
        )
    lines.append(
        f"First player (Manneken Pis): P{s.first + 1}"
        + (f"; stock card {s.stock + 1} ({R.STOCK_VALUES[s.stock]} BF)" if s.stock >= 0 else "")
    )
    lines.extend(_board(s))
    lines.extend(_city(s))
    lines.extend(_players(state, player, end))
    if not end:
        pending = _pending(s, player)
        if pending:
            lines.append("Now: " + pending)
    return "\n".join(lines)


def _board(s) -> list[str]:
    b = s.cfg.board
    n = s.n
    if not s.acts:
        return [f"Art Nouveau board: being set up ({len(s.strips)}/{b} strips)"]
    lines = [
        "Art Nouveau board (W Workshop, S Sale, T Theater, M Materials, C Construction;",
        "  * = available this round, Pk = assistant of Pk, N = neutral, $ = bid,"
        " #k = building of Pk):",
    ]
    for r in range(b):
        cells = []
        for c in range(b):
            sp = r * b + c
            occ = s.occ[sp]
            cell = ("*" if (s.area >> sp) & 1 else " ") + _ACT[s.acts[sp]]
            if occ >= 0:
                cell += " N" if occ == n else f" P{occ + 1}"
            if s.bids[sp]:
                cell += f" ${s.bids[sp]}"
            if s.bld[sp] >= 0:
                cell += f" #{s.bld[sp] + 1}"
            cells.append(f"[{cell}]".ljust(14))
        lines.append(f"  row {r + 1}: " + "".join(cells).rstrip())
    bonus = [R.BONUS_NAMES[t] if t >= 0 else "-" for t in s.strip_bonus]
    lines.append("  bonus cards under the columns: " + " | ".join(bonus))
    return lines


def _city(s) -> list[str]:
    lines = []
    if s.cfg.brussels:
        uses = ", ".join(f"{BRUSSELS_TITLES[k]} {u}" for k, u in enumerate(s.uses))
        lines.append(f"Brussels board, uses this round: {uses}")
    display = [
        f"{R.FIGURES[f]} ({R.THEATER_COSTS[k]} BF)" for k, f in enumerate(s.display) if f >= 0
    ]
    lines.append(
        f"Royal Theater: {', '.join(display) or 'empty'}; deck {sum(s.fig_deck)} cards, "
        f"discard {sum(s.fig_disc)}"
    )
    shop = [R.ART[c] if c >= 0 else "empty" for c in s.shop]
    lines.append(
        f"Shop: {' / '.join(shop)} (covered: {_colours(s.shop_pile)}); "
        f"sale cursor at row {s.cursor[0]}, column {s.cursor[1]}"
    )
    stack = visible_stack(s)
    if s.cfg.private_works:
        lines.append(f"Art stacks: {stack[0]} colour works (colours face down), black x{stack[4]}")
    else:
        lines.append(f"Art stacks: {_colours(stack)}")
    if len(s.compass) == len(R.COMPASS):
        tiles = ", ".join(R.COMPASS[t] for t in s.compass)
        lines.append(
            f"Compass: {tiles}; needles on {R.COMPASS[s.compass[s.needles[0]]]}"
            f" and {R.COMPASS[s.compass[s.needles[1]]]}"
        )
    sup = ", ".join(f"{R.CUBES[k]} {x}" for k, x in enumerate(s.cube_supply))
    lines.append(f"Cube supply: {sup}")
    return lines


def _players(state, player: int, end: bool) -> list[str]:
    s = state._s
    lines = ["Players:"]
    for p in range(s.n):
        tags = []
        if p == player:
            tags.append("you")
        if (s.passed >> p) & 1:
            tags.append("passed")
        tag = f" ({', '.join(tags)})" if tags else ""
        lines.append(
            f"  P{p + 1}{tag}: {s.money[p]} BF, {s.vp[p]} VP; City Hall {s.hall[p] + 1}, "
            f"Royal Palace {s.palace[p] + 1}, Architect {s.arch[p] + 1}; built {s.built[p]}, "
            f"exhibitions {s.exhib[p]}"
        )
        lines.append(
            f"      assistants: {s.supply[p]} in supply, {s.onboard[p]} on the Art Nouveau "
            f"board, {s.onbrussels[p]} on Brussels, {s.court[p]} in the Courthouse"
        )
        if p == player:
            works = _colours(s.works[p])
        else:
            hidden = sum(s.works[p]) - sum(s.pub_works[p])
            shown = [f"{R.ART[c]} x{k}" for c, k in enumerate(s.pub_works[p]) if k]
            works = ", ".join(shown + ([f"{hidden} hidden"] if hidden else [])) or "none"
        cubes = ", ".join(f"{R.CUBES[k]} {x}" for k, x in enumerate(s.cubes[p]) if x) or "none"
        lines.append(f"      works: {works}; cubes: {cubes}")
        rows = ", ".join(f"{t} x{k}" for t, k in zip(ROW_TITLES, s.rows[p], strict=True))
        lines.append(f"      figures: {_figures(s, p)}; endgame rows: {rows}")
        if p == player and s.seen[p]:
            seen = "; ".join(
                f"kept {R.ART[k]}, put back {', '.join(R.ART[c] for c in o) or 'none'}"
                for k, o in s.seen[p]
            )
            lines.append(f"      your Workshop draws (secret): {seen}")
    scores = state.scores()
    label = "Final scores" if end else "Scores if the game ended now"
    lines.append(f"{label}: " + ", ".join(f"P{p + 1} {scores[p]}" for p in range(s.n)))
    return lines


def _space(s, sp: int) -> str:
    b = s.cfg.board
    return f"row {sp // b + 1}, column {sp % b + 1}"


def _pending(s, player: int) -> str:
    """The decision under way, from its public arguments (and a draw only to its drawer)."""
    d = drawer(s)
    if d >= 0:
        who = "you" if d == player else f"P{d + 1}"
        text = f"Workshop draw for {who}"
        if d == player:
            drawn = pending_draw(s)
            text += f": drawn so far {', '.join(R.ART[c] for c in drawn) or 'nothing'}"
        return text
    ph, ctx = s.phase, s.ctx
    if ph == Phase.BID:
        return f"bid under the assistant on {_space(s, ctx[0])}"
    if ph == Phase.DO:
        return f"perform {ACTION_TITLES[ctx[0]]} or skip it"
    if ph in (Phase.CURSOR, Phase.SLOT):
        return f"selling a {R.ART[ctx[0]]} work"
    if ph == Phase.KEEP_FIG:
        return f"keep {R.FIGURES[ctx[0]]} or discard it"
    if ph == Phase.PAY:
        return f"construction: {ctx[0]} unit(s) still to pay"
    if ph == Phase.NOBLE:
        return f"take {ctx[0]} noble cube(s)"
    if ph == Phase.BONUS:
        return f"bonus card {R.BONUS_NAMES[ctx[0]]}: use a power or tuck it"
    return ""
