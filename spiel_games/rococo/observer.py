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

Tensor layout (n players, C = 32 card ids, T = tile types, D = dress types,
S = 3 segments, W windows, G guest spaces, K decoration spaces, A All-halls
spaces, F fireworks/terrace spaces):

| piece          | shape   | meaning                                                     |
|----------------|---------|-------------------------------------------------------------|
| observer       | (n,)    | one-hot: whose view                                         |
| to_move        | (n,)    | one-hot: the player to move (zeros at chance/end)            |
| phase          | (22,)   | one-hot Phase                                               |
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
"""

from __future__ import annotations

from functools import lru_cache

from spiel_games.common.observer import Layout, Piece, PieceObserver
from spiel_games.rococo import rules as R
from spiel_games.rococo.engine import CHANCE_PHASES, Phase


def layout_for(cfg) -> Layout:
    n, C, T, D = cfg.players, R.NUM_CARDS, R.NUM_TILES, R.NUM_DRESSES
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
    )


def _onehot(i: int, n: int) -> list[int]:
    v = [0] * n
    if 0 <= i < n:
        v[i] = 1
    return v


def _owners(owners, n: int) -> list[int]:
    out = []
    for o in owners:
        out.extend(_onehot(o, n))
    return out


@lru_cache(maxsize=65536)
def _short(counts: tuple) -> str:
    return ".".join([f"{i}x{k}" for i, k in enumerate(counts) if k]) or "-"


def _flat(vectors) -> list[int]:
    return [k for v in vectors for k in v]


def _counts(items, n: int) -> list[int]:
    v = [0] * n
    for k in items:
        v[k] += 1
    return v


def write(state, player, view, out) -> None:
    """Emit every piece. Tensors get the values; strings get only the short texts, so
    the (long) value vectors are built only when a tensor is written."""
    c = state._s
    cfg = c.cfg
    n, C, T, D = cfg.players, R.NUM_CARDS, R.NUM_TILES, R.NUM_DRESSES
    tensor = hasattr(out, "tensor")
    out("observer", _onehot(player, n) if tensor else (), f"P{player + 1}")
    if view.sees(player, player):
        out("my_secret", c.tsec[player], None if tensor else _short(c.tsec[player]))
        out("my_hand", c.hand[player], None if tensor else _short(c.hand[player]))
    if not view.public:
        return
    acting = c.phase not in CHANCE_PHASES and c.phase != Phase.END
    mover = c.cur if acting else -1
    if tensor:
        out("to_move", _onehot(mover, n))
        out("phase", _onehot(int(c.phase), len(Phase)))
        out("start", _onehot(c.start, n))
        out("favor", _onehot(c.favor, n))
    else:
        out("to_move", (), f"P{mover + 1}" if acting else "-")
        out("phase", (), Phase(c.phase).name.lower())
        out("start", (), str(c.start + 1))
        out("favor", (), str(c.favor + 1))
    out("round", [c.round])
    out("money", c.money)
    out("yarn", c.yarn)
    out("lace", c.lace)
    out("prestige", c.prestige)
    if tensor:
        out("tiles_public", _flat(c.tpub))
    else:
        out("tiles_public", (), "/".join([_short(v) for v in c.tpub]))
    out("tiles_secret_n", [sum(v) for v in c.tsec])
    unseen = list(c.tstack)
    for q in range(n):
        if not view.sees(q, player) and any(c.tsec[q]):
            for t, k in enumerate(c.tsec[q]):
                unseen[t] += k
    pend_visible = c.pend >= 0 and (not c.pend_secret or view.sees(c.cur, player))
    if c.pend >= 0 and not pend_visible:
        unseen[c.pend] += 1
    if tensor:
        out("unseen_tiles", unseen)
        out("tile_discard", c.tdisc)
        out("warehouse", _flat(_counts(seg, T) for seg in c.ware))
        out("pending_tile", _onehot(c.pend if pend_visible else -1, T))
        out("windows", _flat(_onehot(d, D) for d in c.windows))
        out("bag", c.bag)
        out("dress_discard", c.ddisc)
        out("guest_owner", _owners(c.gown, n))
        gd = []
        for d in c.gdress:
            if d >= 0:
                gd.extend(_onehot(R.DRESSES[d].colour, 4) + [R.DRESSES[d].prestige])
            else:
                gd.extend([0] * 5)
        out("guest_dress", gd)
        out("deco_owner", _owners(c.deco, n))
        out("all_halls", _owners(c.allh, n))
    else:
        out("unseen_tiles", (), _short(tuple(unseen)))
        out("tile_discard", (), _short(c.tdisc))
        out("warehouse", (), "/".join([".".join(map(str, seg)) or "-" for seg in c.ware]))
        out("pending_tile", (), str(c.pend if pend_visible else ("?" if c.pend >= 0 else "-")))
        out("windows", (), ".".join(map(str, c.windows)))
        out("bag", (), _short(c.bag))
        out("dress_discard", (), _short(c.ddisc))
        out("guest_owner", (), ".".join(map(str, c.gown)))
        out("guest_dress", (), ".".join(map(str, c.gdress)))
        out("deco_owner", (), ".".join(map(str, c.deco)))
        out("all_halls", (), ".".join(map(str, c.allh)))
    out("terrace", [g + 1 for g in c.terr])
    stack = tuple(_counts([k for level in c.emp for k in level], C))
    hidden = [
        tuple(s + h - k for s, h, k in zip(c.supply[q], c.hand[q], c.known[q], strict=True))
        for q in range(n)
    ]
    if tensor:
        out("display", _counts(c.display, C))
        out("employee_stack", stack)
        out("discard_cards", _flat(c.discard))
        out("known_hand", _flat(c.known))
        out("hidden_cards", _flat(hidden))
    else:
        out("display", (), ".".join(map(str, c.display)) or "-")
        out("employee_stack", (), _short(stack))
        out("discard_cards", (), "/".join([_short(v) for v in c.discard]))
        out("known_hand", (), "/".join([_short(v) for v in c.known]))
        out("hidden_cards", (), "/".join([_short(v) for v in hidden]))
    out("hand_size", [sum(v) for v in c.hand])
    out("to_select", [c.need_sel])
    if tensor:
        out("played", _onehot(c.card, C))
        out("bonus_card", _onehot(c.bcard, C))
        out("making", _onehot(c.dress, D))
    else:
        out("played", (), str(c.card))
        out("bonus_card", (), str(c.bcard))
        out("making", (), str(c.dress))
    ctx = [
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
    ]
    out("turn_context", ctx)


def make_observer(game, iig_obs_type=None, params=None) -> PieceObserver:
    if params:
        raise ValueError(f"Rococo observer takes no parameters, got {params}")
    return PieceObserver(iig_obs_type, layout_for(game.config), write)
