"""Rococo observations and information states.

One write function feeds both strings and tensors (spiel_games.common.observer).
The observation is a Markov description of what the viewer knows; the
information state is the same description (everything a player ever saw that
still matters is on the board, in the public discard piles, or in their own
holdings), so both use this layout.

Visibility: ``public`` pieces are written for every viewer. A player's secret
pieces (selected hand, supply split, face-down stack tiles) appear only when
``view.sees(owner, viewer)``; otherwise they are folded into counts the viewer
may know (cards still hidden = supply + secret hand; tiles not visible = stack +
everyone's unseen secret tiles). The secret stack tile a player is deciding on
is shown only to that player.

Tensor layout (n players, C = card ids (32, or 60 with the Jewelry Box), T = tile types, D = dress types,
S = 3 segments, W windows, G guest spaces, K decoration spaces, A All-halls
spaces, F fireworks/terrace spaces):

| piece          | shape   | meaning                                                     |
|----------------|---------|-------------------------------------------------------------|
| observer       | (n,)    | one-hot: whose view                                         |
| to_move        | (n,)    | one-hot: the player to move (zeros at chance/end)            |
| phase          | (26,)   | one-hot Phase                                               |
| round          | (1,)    | round number                                                |
| start          | (n,)    | one-hot start player                                        |
| favor          | (n,)    | one-hot favor card holder (zeros: beside the board)          |
| money          | (n,)    | Livre                                                       |
| yarn, lace     | (n,)    | markers                                                     |
| prestige       | (n,)    | prestige gained during the game                              |
| tiles_public   | (n, T)  | silk tiles everyone saw a player keep                        |
| tiles_secret_n | (n,)    | number of face-down stack tiles kept                         |
| my_secret      | (T,)    | the viewer's own secret tiles (private)                      |
| unseen_tiles   | (T,)    | tiles the viewer cannot place: stack + others' secret tiles  |
| tile_discard   | (T,)    | discarded tiles                                             |
| warehouse      | (S, T)  | tiles per segment                                           |
| pending_tile   | (T,)    | one-hot tile being kept/converted (secret ones: owner only)  |
| windows        | (W, D)  | one-hot dress per window                                    |
| bag            | (D,)    | dresses in the bag                                          |
| dress_discard  | (D,)    | discarded dresses                                           |
| guest_owner    | (G, n)  | one-hot owner of each guest space                           |
| guest_dress    | (G, 5)  | colour one-hot and prestige of the dress there              |
| deco_owner     | (K, n)  | one-hot owner of each decoration space                       |
| all_halls      | (A, n)  | one-hot owner of each All-halls space                        |
| terrace        | (F,)    | guest space + 1 of the dress moved beside each fireworks     |
| display        | (C,)    | employee cards for hire                                     |
| employee_stack | (C,)    | cards still in the employee stack                           |
| discard_cards  | (n, C)  | each player's face-up discard pile                           |
| known_hand     | (n, C)  | hand cards everyone saw go to the hand                       |
| hidden_cards   | (n, C)  | supply + secretly selected hand cards                        |
| hand_size      | (n,)    | cards in hand                                               |
| my_hand        | (C,)    | the viewer's own hand (private)                              |
| to_select      | (1,)    | cards the selecting player still picks                       |
| played         | (C,)    | one-hot card being played                                   |
| bonus_card     | (C,)    | one-hot card whose bonus is offered                          |
| making         | (D,)    | one-hot dress being made                                    |
| turn_context   | (14,)   | stage, silk still needed (4), by Master, saving yellow/green, saving red, fund discount, paying, buy rate, bales discarded for prestige (Y+G, R+B), yarn/lace cost |

With ``jewelry=true`` (Jewelry Box, J jeweller spaces, 4 jewellery kinds), all public:

| piece          | shape   | meaning                                                     |
|----------------|---------|-------------------------------------------------------------|
| jeweller       | (J, 4)  | one-hot kind of the piece on each space (dearest first)      |
| jewel_stack    | (4,)    | face-down jewellery left per kind                            |
| jewels         | (n, 4)  | each player's jewellery                                     |
| jewel_turn     | (4,)    | jeweller mode (1 after renting, 2/3 bonus), rented dress colour + 1, exam cards still to show, making a dress that must be sold |
| exam           | (n, 4)  | each exam card's side (0/1) and its 3 task flags             |
| exam_pools     | (2, C)  | cards no one has seen in each exam pool (stack + reserved)   |
| reserved       | (2,)    | reserved pool slots left in the employee stack               |
| specialists    | (C,)    | specialised apprentices still in the row                     |
| exam_offer     | (C,)    | cards shown in the running exam                              |
"""

from __future__ import annotations

from functools import lru_cache
from operator import add as _plus
from operator import sub as _sub

from spiel_games.common.observer import ByteObserver, Layout, Piece, PieceObserver
from spiel_games.rococo import rules as R
from spiel_games.rococo.state import CHANCE_PHASES, PH_END, Phase


def layout_for(cfg) -> Layout:
    n, C, T, D = cfg.players, cfg.num_cards, R.NUM_TILES, R.NUM_DRESSES
    G, K = cfg.num_guests, cfg.num_decos
    return Layout(
        [
            Piece("observer", (n,)),
            Piece("to_move", (n,)),
            Piece("phase", (len(Phase),)),
            Piece("round", (1,)),
            Piece("start", (n,)),
            Piece("favor", (n,)),
            Piece("money", (n,)),
            Piece("yarn", (n,)),
            Piece("lace", (n,)),
            Piece("prestige", (n,)),
            Piece("tiles_public", (n, T)),
            Piece("tiles_secret_n", (n,)),
            Piece("my_secret", (T,)),
            Piece("unseen_tiles", (T,)),
            Piece("tile_discard", (T,)),
            Piece("warehouse", (R.SEGMENTS, T)),
            Piece("pending_tile", (T,)),
            Piece("windows", (cfg.num_windows, D)),
            Piece("bag", (D,)),
            Piece("dress_discard", (D,)),
            Piece("guest_owner", (G, n)),
            Piece("guest_dress", (G, 5)),
            Piece("deco_owner", (K, n)),
            Piece("all_halls", (len(cfg.all_halls), n)),
            Piece("terrace", (len(cfg.terrace_mult),)),
            Piece("display", (C,)),
            Piece("employee_stack", (C,)),
            Piece("discard_cards", (n, C)),
            Piece("known_hand", (n, C)),
            Piece("hidden_cards", (n, C)),
            Piece("hand_size", (n,)),
            Piece("my_hand", (C,)),
            Piece("to_select", (1,)),
            Piece("played", (C,)),
            Piece("bonus_card", (C,)),
            Piece("making", (D,)),
            Piece("turn_context", (14,)),
        ]
        + _jewelry_pieces(cfg)
    )


def _jewelry_pieces(cfg) -> list[Piece]:
    """Jewelry Box pieces (all public), only when the option is on."""
    if not cfg.jewelry:
        return []
    J, K, C = len(cfg.jeweller_prices), len(R.JEWEL_NAMES), cfg.num_cards
    return [
        Piece("jeweller", (J, K)),
        Piece("jewel_stack", (K,)),
        Piece("jewels", (cfg.players, K)),
        Piece("jewel_turn", (4,)),
        Piece("exam", (cfg.players, 4)),
        Piece("exam_pools", (2, C)),
        Piece("reserved", (2,)),
        Piece("specialists", (C,)),
        Piece("exam_offer", (C,)),
    ]


@lru_cache(maxsize=65536)
def _short(counts: tuple) -> str:
    return ".".join([f"{i}x{k}" for i, k in enumerate(counts) if k]) or "-"


def _counts(items, n: int) -> list[int]:
    v = [0] * n
    for k in items:
        v[k] += 1
    return v


@lru_cache(maxsize=4096)
def _stack_counts(emp: tuple, width: int) -> tuple:
    """Cards still in the employee stack, counted by card id (reserved slots apart)."""
    return tuple(_counts([k for level in emp for k in level if k >= 0], width))


@lru_cache(maxsize=4096)
def _reserved(emp: tuple) -> tuple:
    return tuple(sum(lv.count(r) for lv in emp) for r in R.RESERVED)


@lru_cache(maxsize=16384)
def _dots(values: tuple) -> str:
    return ".".join(map(str, values))


@lru_cache(maxsize=4096)
def _guest_dress_row(d: int) -> tuple:
    """Colour one-hot and prestige of dress d (zeros for an empty guest space)."""
    if d < 0:
        return (0, 0, 0, 0, 0)
    row = [0, 0, 0, 0, 0 if R.DRESSES[d].festive else R.DRESSES[d].prestige]
    row[R.DRESSES[d].colour] = 1
    return tuple(row)


@lru_cache(maxsize=16384)
def _hidden(supply: tuple, hand: tuple, known: tuple) -> tuple:
    """A player's cards the others cannot place: supply plus secretly selected hand."""
    return tuple(map(_sub, map(_plus, supply, hand), known))


def write(state, player, view, out) -> None:
    """Emit every piece. Tensors get the values (one-hot pieces through ``out.hot``,
    the index of the 1 in each row); strings get only the short texts, so the long
    value vectors are built only when a tensor is written."""
    c = state._s
    tensor = hasattr(out, "tensor")
    if tensor:
        out.hot("observer", player)
    else:
        out("observer", (), f"P{player + 1}")
    if view.sees(player, player):
        out("my_secret", c.tsec[player], None if tensor else _short(c.tsec[player]))
        out("my_hand", c.hand[player], None if tensor else _short(c.hand[player]))
    if not view.public:
        return
    _write_turn(c, out, tensor)
    _write_tiles(c, player, view, out, tensor)
    _write_cards(c, out, tensor)
    if c.cfg.jewelry:
        _write_jewelry(c, out, tensor)


def _write_turn(c, out, tensor: bool) -> None:
    """Who moves, the phase, round, start player, favor and each player's markers."""
    acting = c.phase not in CHANCE_PHASES and c.phase != PH_END
    mover = c.cur if acting else -1
    if tensor:
        out.hot("to_move", mover)
        out.hot("phase", c.phase)
        out.hot("start", c.start)
        out.hot("favor", c.favor)
    else:
        out("to_move", (), f"P{mover + 1}" if acting else "-")
        out("phase", (), Phase(c.phase).name.lower())
        out("start", (), str(c.start + 1))
        out("favor", (), str(c.favor + 1))
    out("round", (c.round,))
    out("money", c.money)
    out("yarn", c.yarn)
    out("lace", c.lace)
    out("prestige", c.prestige)


def _write_tiles(c, player: int, view, out, tensor: bool) -> None:
    """Resource tiles (what the viewer can place and what not), dresses, the board."""
    n = c.cfg.players
    T = R.NUM_TILES
    if tensor:
        out("tiles_public", sum(c.tpub, ()))
    else:
        out("tiles_public", (), "/".join([_short(v) for v in c.tpub]))
    out("tiles_secret_n", [sum(v) for v in c.tsec])
    unseen = c.tstack
    for q in range(n):
        if any(c.tsec[q]) and not view.sees(q, player):
            unseen = tuple(map(_plus, unseen, c.tsec[q]))
    pend_visible = c.pend >= 0 and (not c.pend_secret or view.sees(c.cur, player))
    if c.pend >= 0 and not pend_visible:
        unseen = unseen[: c.pend] + (unseen[c.pend] + 1,) + unseen[c.pend + 1 :]
    if tensor:
        out("unseen_tiles", unseen)
        out("tile_discard", c.tdisc)
        for s, seg in enumerate(c.ware):
            for t in seg:
                out.add("warehouse", s * T + t)
        out.hot("pending_tile", c.pend if pend_visible else -1)
        out.hot_rows("windows", c.windows)
        out("bag", c.bag)
        out("dress_discard", c.ddisc)
        out.hot_rows("guest_owner", c.gown)
        out("guest_dress", sum([_guest_dress_row(d) for d in c.gdress], ()))
        out.hot_rows("deco_owner", c.deco)
        out.hot_rows("all_halls", c.allh)
    else:
        out("unseen_tiles", (), _short(unseen))
        out("tile_discard", (), _short(c.tdisc))
        out("warehouse", (), "/".join([".".join(map(str, seg)) or "-" for seg in c.ware]))
        out("pending_tile", (), str(c.pend if pend_visible else ("?" if c.pend >= 0 else "-")))
        out("windows", (), _dots(c.windows))
        out("bag", (), _short(c.bag))
        out("dress_discard", (), _short(c.ddisc))
        out("guest_owner", (), _dots(c.gown))
        out("guest_dress", (), _dots(c.gdress))
        out("deco_owner", (), _dots(c.deco))
        out("all_halls", (), _dots(c.allh))
    out("terrace", [g + 1 for g in c.terr])


def _write_cards(c, out, tensor: bool) -> None:
    """Employee cards (display, stack, each player's piles), the card and dress in play."""
    cfg = c.cfg
    n = cfg.players
    hidden = [_hidden(c.supply[q], c.hand[q], c.known[q]) for q in range(n)]
    if tensor:
        for k in c.display:
            out.add("display", k)
        out("employee_stack", _stack_counts(c.emp, cfg.num_cards))
        out("discard_cards", sum(c.discard, ()))
        out("known_hand", sum(c.known, ()))
        out("hidden_cards", sum(hidden, ()))
    else:
        out("display", (), _dots(c.display) or "-")
        out("employee_stack", (), _short(_stack_counts(c.emp, cfg.num_cards)))
        out("discard_cards", (), "/".join([_short(v) for v in c.discard]))
        out("known_hand", (), "/".join([_short(v) for v in c.known]))
        out("hidden_cards", (), "/".join([_short(v) for v in hidden]))
    out("hand_size", [sum(v) for v in c.hand])
    out("to_select", (c.need_sel,))
    if tensor:
        out.hot("played", c.card)
        out.hot("bonus_card", c.bcard)
        out.hot("making", c.dress)
    else:
        out("played", (), str(c.card))
        out("bonus_card", (), str(c.bcard))
        out("making", (), str(c.dress))
    ctx = (
        c.stage,
        *c.need,
        int(c.by_master),
        int(c.mod == "yg"),
        int(c.mod == "red"),
        c.discount,
        int(c.paying),
        c.rate,
        c.acc[0] + c.acc[1],
        c.acc[2] + c.acc[3],
        c.yl_cost,
    )
    out("turn_context", ctx)


def _write_jewelry(c, out, tensor: bool) -> None:
    """The Jewelry Box's public pieces: jeweller, jewellery, exams, specialists."""
    cfg = c.cfg
    n = cfg.players
    if tensor:
        out.hot_rows("jeweller", c.jdisp)
        out("jewels", sum(c.jewels, ()))
    else:
        out("jeweller", (), _dots(c.jdisp))
        out("jewels", (), "/".join([_dots(v) for v in c.jewels]))
    out("jewel_stack", c.jstack)
    out("jewel_turn", (c.jmode, c.jcol + 1, c.xneed, int(c.mod == "sell")))
    exam = sum(
        [(c.xside[q], c.xbits[q] & 1, c.xbits[q] >> 1 & 1, c.xbits[q] >> 2) for q in range(n)],
        (),
    )
    out("exam", exam)
    out("reserved", _reserved(c.emp))
    if tensor:
        C = cfg.num_cards
        for i, pool in enumerate(c.xpool):
            for k in pool:
                out.add("exam_pools", i * C + k)
        for k in c.spec:
            out.add("specialists", k)
        for k in c.xoffer:
            out.add("exam_offer", k)
    else:
        out("exam_pools", (), "/".join([_dots(pl) or "-" for pl in c.xpool]))
        out("specialists", (), _dots(c.spec) or "-")
        out("exam_offer", (), _dots(c.xoffer) or "-")


def make_observer(game, iig_obs_type=None, params=None) -> PieceObserver:
    if params:
        raise ValueError(f"Rococo observer takes no parameters, got {params}")
    return ByteObserver(iig_obs_type, layout_for(game.config), write)
