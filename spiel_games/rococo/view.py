"""Rococo as one player sees it: the readable board `meeple play` shows a human.

``render_view(core, player)`` reads only what ``player`` may know, the same
knowledge as the information state (observer.py):

- the whole board (display, warehouse, workshop windows, guest spaces,
  decorations, All-halls and terrace spaces, the bag and the discard piles,
  the jeweller and the jewellery left face down);
- every player's Livre, yarn, lace, prestige, face-up silk tiles, jewellery, discard pile
  and the hand cards everyone saw go to the hand (hired or taken automatically);
- of another player's secrets only what is public: how many face-down stack
  tiles they hold, how many cards are in their hand, and which cards are still
  hidden (supply and secretly selected hand together, as one multiset);
- the viewer's own hand, supply and face-down tiles in full;
- the face-down tile being decided on, only for the player who drew it.

Tiles nobody at the table can place for the viewer (the stack plus the other
players' face-down tiles) are listed as one multiset, as the observer does.
"""

from __future__ import annotations

from spiel_games.rococo import rules as R
from spiel_games.rococo.rules import COLOURS
from spiel_games.rococo.scoring import scores
from spiel_games.rococo.state import CHANCE_PHASES, PH_END, Phase, exam_stack
from spiel_games.rococo.text import (
    BONUS_TEXT,
    deco_name,
    exam_text,
    guest_name,
    jeweller_text,
    jewels_text,
)


def _cards(counts) -> str:
    parts = [
        f"{R.CARDS[k].name}{' x' + str(n) if n > 1 else ''}" for k, n in enumerate(counts) if n
    ]
    return ", ".join(parts) or "-"


def _tiles(counts) -> str:
    parts = [
        f"{R.TILES[t].code}{' x' + str(n) if n > 1 else ''}" for t, n in enumerate(counts) if n
    ]
    return " ".join(parts) or "-"


def _dresses(counts) -> str:
    parts = [
        f"{R.DRESSES[d].name}{' x' + str(n) if n > 1 else ''}" for d, n in enumerate(counts) if n
    ]
    return ", ".join(parts) or "-"


def _player_lines(c, q: int, viewer: int) -> list[str]:
    me = q == viewer
    who = f"P{q + 1}{' (you)' if me else ''}"
    lines = [
        f"{who}: {c.money[q]} Livre, yarn {c.yarn[q]}, lace {c.lace[q]}, "
        f"prestige so far {c.prestige[q]}"
    ]
    if me:
        lines.append(f"  silk tiles: {_tiles(c.tpub[q])}; face down: {_tiles(c.tsec[q])}")
        lines.append(f"  hand: {_cards(c.hand[q])}")
        lines.append(f"  supply: {_cards(c.supply[q])}")
    else:
        lines.append(f"  silk tiles: {_tiles(c.tpub[q])}; face down: {sum(c.tsec[q])}")
        hidden = tuple(
            s + h - k for s, h, k in zip(c.supply[q], c.hand[q], c.known[q], strict=True)
        )
        lines.append(f"  hand: {sum(c.hand[q])} cards, seen going there: {_cards(c.known[q])}")
        lines.append(f"  hidden cards (supply or hand): {_cards(hidden)}")
    lines.append(f"  discard pile: {_cards(c.discard[q])}")
    if c.cfg.jewelry:
        lines.append(f"  jewellery: {jewels_text(c.jewels[q])}")
        lines.append(f"  exam card: {exam_text(c, q)}")
    return lines


def _header(c, player: int) -> list[str]:
    cfg = c.cfg
    n = cfg.players
    ph = c.phase
    favor = f"P{c.favor + 1}" if c.favor >= 0 else "beside the board"
    lines = [
        f"Rococo - view of P{player + 1}",
        f"Round {c.round}/{cfg.rounds}, phase {Phase(ph).name.lower()}, start player "
        f"P{c.start + 1}, Queen's favor {favor}",
    ]
    if ph == PH_END:
        final = scores(c)  # every scoring input is public once the game is over
        lines.append(
            "The game is over. Final prestige: "
            + ", ".join(f"P{q + 1} {final[q]}" for q in range(n))
        )
    elif ph in CHANCE_PHASES:
        lines.append("Waiting for a draw.")
    elif c.cur == player:
        lines.append("You are to move.")
    else:
        lines.append(f"P{c.cur + 1} is to move.")
    return lines


def _supplies(c, player: int, pend_visible: bool) -> list[str]:
    """Employees, warehouse, workshop, dresses, the tiles the viewer cannot place, and
    the Jewelry Box's jeweller, specialists and exam stacks."""
    cfg = c.cfg
    lines = ["Employees for hire: " + (", ".join(R.CARDS[k].name for k in c.display) or "-")]
    left = sum(len(level) for level in c.emp)
    lines.append(f"Employee stack: {left} cards in {len(c.emp)} levels")
    lines.append(
        "Warehouse: "
        + " | ".join(
            f"{' '.join(R.TILES[t].code for t in seg) or '-'} ({R.ACQUIRE_COST[len(seg) - 1]} L)"
            if seg
            else "-"
            for seg in c.ware
        )
    )
    lines.append(
        "Workshop: "
        + " | ".join(
            f"{R.DRESSES[d].name} ({cfg.window_costs[w]} L)" if d >= 0 else "-"
            for w, d in enumerate(c.windows)
        )
    )
    lines.append(f"Dress bag: {_dresses(c.bag)}; discarded: {_dresses(c.ddisc)}")
    unseen = list(c.tstack)
    for q in range(cfg.players):
        if q != player:
            for t, k in enumerate(c.tsec[q]):
                unseen[t] += k
    if c.pend >= 0 and not pend_visible:
        unseen[c.pend] += 1
    lines.append(f"Tiles in the stack or face down with others: {_tiles(unseen)}")
    lines.append(f"Discarded tiles: {_tiles(c.tdisc)}")
    if cfg.jewelry:
        lines.append(f"Jeweller: {jeweller_text(c)}; face down: {jewels_text(c.jstack)}")
        lines.append(
            "Specialised apprentices: " + (", ".join(R.CARDS[k].name for k in c.spec) or "-")
        )
        stacks = [exam_stack(c, i) for i in (0, 1)]
        lines.append(
            f"Exam stacks: journeyman's {stacks[0]} cards, master's {stacks[1]} cards face down"
        )
        if c.xoffer:
            lines.append("Exam cards shown: " + ", ".join(R.CARDS[k].name for k in c.xoffer))
    return lines


def _palace(c) -> list[str]:
    """Guests, decorations, All-halls markers and terrace moves."""
    cfg = c.cfg
    guests = [
        f"  {guest_name(cfg, g)}: P{o + 1} {R.DRESSES[c.gdress[g]].name}"
        for g, o in enumerate(c.gown)
        if o >= 0
    ]
    lines = ["Guests:" + ("" if guests else " -")]
    lines += guests
    decos = [f"{deco_name(cfg, d)}: P{o + 1}" for d, o in enumerate(c.deco) if o >= 0]
    lines.append("Decorations: " + ("; ".join(decos) or "-"))
    if any(o >= 0 for o in c.allh):
        lines.append("All halls: " + ", ".join(f"P{o + 1}" for o in c.allh if o >= 0))
    if any(g >= 0 for g in c.terr):
        lines.append(
            "Terrace: "
            + ", ".join(
                f"{guest_name(cfg, g)} x{cfg.terrace_mult[i]}"
                for i, g in enumerate(c.terr)
                if g >= 0
            )
        )
    return lines


def _turn(c, pend_visible: bool) -> list[str]:
    """The card being played, the bonus offered, the dress being made, the pending tile."""
    ph = c.phase
    turn = []
    if c.card >= 0:
        turn.append(f"P{c.cur + 1} plays {R.CARDS[c.card].name}")
    if c.bcard >= 0 and ph != PH_END:
        turn.append(f"bonus offered: {BONUS_TEXT[R.BONUS_NAMES[R.CARDS[c.bcard].bonus]]}")
    if c.dress >= 0:
        need = ", ".join(f"{k} {COLOURS[i]}" for i, k in enumerate(c.need) if k) or "nothing"
        turn.append(f"making {R.DRESSES[c.dress].name}, silk still needed: {need}")
    if pend_visible:
        secret = " (face down, only you see it)" if c.pend_secret else ""
        turn.append(f"tile to keep or convert: {R.TILES[c.pend].code}{secret}")
    elif c.pend >= 0:
        turn.append(f"P{c.cur + 1} decides on a face-down tile")
    if c.need_sel and ph not in CHANCE_PHASES:
        turn.append(f"P{c.cur + 1} still selects {c.need_sel} card(s)")
    return turn


def render_view(c, player: int) -> str:
    n = c.cfg.players
    pend_visible = c.pend >= 0 and (not c.pend_secret or c.cur == player)
    lines = _header(c, player) + [""] + _supplies(c, player, pend_visible) + [""] + _palace(c)
    lines.append("")
    for k in range(n):
        lines += _player_lines(c, (player + k) % n, player)
    turn = _turn(c, pend_visible)
    if turn:
        lines.append("")
        lines += turn
    return "\n".join(lines)
