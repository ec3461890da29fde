"""Bruxelles 1893 observations: one writer for strings and tensors.

The observation is the public position plus the viewer's own works and, for
the player who is choosing a Workshop work, the drawn works (private). With
``private_works`` the others see only the works that were shown (start works,
black works) and how many works each player has. The information state adds the
player's own memory of the works he drew and put back, and (strings only) the
public move log with other players' Workshop draws shown as ``?``.

While a Workshop draw is pending, the public stack counts include the drawn
works (they go back to the stack), so the counts reveal nothing.

Tensor layout (n players, S = board x board spaces, B = board):

| piece        | shape      | meaning                                                  |
|--------------|------------|----------------------------------------------------------|
| observer     | (n,)       | one-hot: whose view this is                              |
| to_move      | (n,)       | one-hot: the deciding player (zeros at chance/end)       |
| phase        | (26,)      | one-hot Phase                                            |
| round        | (1,)       | current round                                            |
| first        | (n,)       | one-hot first player (Manneken Pis holder)               |
| stock_value  | (1,)       | BF of this round's stock card (0 before it is revealed)  |
| area         | (S,)       | 1 for spaces of the available area                       |
| occupant     | (S, n+1)   | one-hot assistant on the space (last column = neutral)   |
| building     | (S, n)     | one-hot owner of a building on the space                 |
| bid          | (S,)       | BF bid on the space                                      |
| space_action | (S, 5)     | one-hot action of the space                              |
| bonus_strip  | (B, 13)    | one-hot bonus card type under each column                |
| display      | (4, 8)     | one-hot figure on theater spaces 0-3                     |
| figure_deck  | (8,)       | figure cards left in the deck, by figure                 |
| figure_discard | (8,)     | discarded figure cards, by figure                        |
| art_stack    | (5,)       | works in the stacks (4 colours + black; with private     |
|              |            | works: colour stack size, 0, 0, 0, black)                |
| shop         | (2, 5)     | one-hot visible work on each shop space                  |
| shop_pile    | (5,)       | covered works in the shop                                |
| cursor       | (2,)       | workshop cursor centre (row, column)                     |
| compass      | (6, 6)     | one-hot tile on each compass position                    |
| needles      | (2, 6)     | one-hot position of each needle                          |
| cube_supply  | (4,)       | wood, stone, iron, joker cubes in the supply             |
| brussels_uses| (4,)       | uses of Market, Bourse, Park, Grand Place this round     |
| players      | (n, 13)    | money, VP, hall, palace, architect, supply, courthouse,  |
|              |            | on Art Nouveau, on Brussels, built, exhibitions,         |
|              |            | Manneken Pis this round, passed                          |
| works        | (n, 5)     | works of art owned, by colour, as far as others see them |
| work_count   | (n,)       | works of art owned (hidden ones included)                |
| cubes        | (n, 4)     | cubes owned: wood, stone, iron, joker                    |
| kept         | (n, 8)     | kept figures                                             |
| rotated      | (n, 8)     | kept figures already used this round                     |
| rows         | (n, 4)     | endgame row multipliers                                  |
| tucked       | (n, 4)     | rows that received a card this round                     |
| context      | (8,)       | the pending decision's public arguments (phase-specific) |
| drawn        | (5,)       | private: works drawn and waiting for the keep choice     |
| own_works    | (5,)       | private: the viewer's own works, hidden ones included    |
| seen         | (5,)       | private, information state only: works drawn and put back|
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numpy.typing import NDArray

from spiel_games.bruxelles import rules as R
from spiel_games.bruxelles.actions import HIDDEN_TOKEN
from spiel_games.bruxelles.state import Core, Phase, log_tokens
from spiel_games.common.engine import memo
from spiel_games.common.observer import Layout, Piece, PieceObserver

_NB = len(R.BONUS)
_NF = len(R.FIGURES)
_NA = len(R.ART)


def layout_for(cfg) -> Layout:
    n, S, B = cfg.players, cfg.spaces, cfg.board
    return Layout(
        [
            Piece("observer", (n,)),
            Piece("to_move", (n,)),
            Piece("phase", (len(Phase),)),
            Piece("round", (1,)),
            Piece("first", (n,)),
            Piece("stock_value", (1,)),
            Piece("area", (S,)),
            Piece("occupant", (S, n + 1)),
            Piece("building", (S, n)),
            Piece("bid", (S,)),
            Piece("space_action", (S, 5)),
            Piece("bonus_strip", (B, _NB)),
            Piece("display", (4, _NF)),
            Piece("figure_deck", (_NF,)),
            Piece("figure_discard", (_NF,)),
            Piece("art_stack", (_NA,)),
            Piece("shop", (2, _NA)),
            Piece("shop_pile", (_NA,)),
            Piece("cursor", (2,)),
            Piece("compass", (len(R.COMPASS), len(R.COMPASS))),
            Piece("needles", (2, len(R.COMPASS))),
            Piece("cube_supply", (4,)),
            Piece("brussels_uses", (4,)),
            Piece("players", (n, 13)),
            Piece("works", (n, _NA)),
            Piece("work_count", (n,)),
            Piece("cubes", (n, 4)),
            Piece("kept", (n, _NF)),
            Piece("rotated", (n, _NF)),
            Piece("rows", (n, R.BONUS_ROWS)),
            Piece("tucked", (n, R.BONUS_ROWS)),
            Piece("context", (8,)),
            Piece("drawn", (_NA,)),
            Piece("own_works", (_NA,)),
            Piece("seen", (_NA,)),
        ]
    )


def _onehots(values, width: int) -> list[int]:
    out = [0] * (len(values) * width)
    for i, v in enumerate(values):
        if 0 <= v < width:
            out[i * width + v] = 1
    return out


def _bits(mask: int, width: int) -> list[int]:
    return [(mask >> i) & 1 for i in range(width)]


# ----- public-knowledge predicates (view.py uses the same ones) ----------------------------
def drawer(s) -> int:
    """The player whose private Workshop draw is pending, or -1 (public: who draws)."""
    if s.phase == Phase.KEEP_WORK:
        return s.actor
    if s.phase == Phase.C_ART and s.ctx[3] == 1:
        return s.ctx[0]
    return -1


def pending_draw(s) -> tuple[int, ...]:
    """The works of the pending Workshop draw (private: only the drawer sees them)."""
    if s.phase == Phase.KEEP_WORK:
        return s.ctx[0]
    if s.phase == Phase.C_ART and s.ctx[3] == 1:
        return s.ctx[2]
    return ()


def write(state, player, view, out) -> None:
    s = state._s
    n = s.n
    out("observer", _onehots([player], n), f"P{player + 1}")
    if view.public:
        _write_public(s, out)
    d = drawer(s)
    pending = pending_draw(s)
    if d >= 0 and view.sees(d, player):
        counts = [0] * _NA
        for c in pending:
            counts[c] += 1
        out("drawn", counts, ",".join(R.ART[c] for c in pending))
    if view.sees(player, player):
        out("own_works", s.works[player], _j(s.works[player]))
    if view.perfect_recall and view.sees(player, player):
        mine = s.seen[player]
        counts = [0] * _NA
        for _, others in mine:
            for c in others:
                counts[c] += 1
        out(
            "seen",
            counts,
            ";".join(f"{R.ART[k]}+{'/'.join(R.ART[c] for c in o)}" for k, o in mine) or "-",
        )
        if view.public and hasattr(out, "parts"):  # strings only: the public move log
            out("log", (), _log_text(s))


def _log_text(s) -> str:
    return ",".join("?" if t >= HIDDEN_TOKEN else str(t) for t in log_tokens(s))


def _write_public(s, out) -> None:
    # The public part is the same for every viewer: it is cached on the position
    # (the engine drops the cache with every move; copies of one position share it).
    cache = memo(s)
    if hasattr(out, "parts"):
        parts = cache.get("s")
        if parts is None:
            parts = cache["s"] = _public_strings(s)
        out.parts.extend(parts)
    else:
        flat = cache.get("t")
        if flat is None:
            flat = cache["t"] = _public_flat(s, out.offsets)
        start = out.offsets["to_move"][0]
        out.tensor[start : start + len(flat)] = flat


def visible_stack(s) -> list[int]:
    """The art stacks as everyone sees them: drawn works still counted; with private
    works only the colour stack's size (and the black works)."""
    stack = list(s.art_stack)
    for c in pending_draw(s):
        stack[c] += 1  # drawn works are still counted in the stack until one is kept
    if s.cfg.private_works:
        # the stack's colours would give away hidden works: only its size is public
        return [sum(stack[: R.COLOURS]), 0, 0, 0, stack[R.BLACK]]
    return stack


def _player_rows(s, p: int) -> tuple[int, ...]:
    return (
        s.money[p],
        s.vp[p],
        s.hall[p],
        s.palace[p],
        s.arch[p],
        s.supply[p],
        s.court[p],
        s.onboard[p],
        s.onbrussels[p],
        s.built[p],
        s.exhib[p],
        s.mp[p],
        (s.passed >> p) & 1,
    )


def _public_flat(s: Core, offsets: dict[str, tuple[int, int]]) -> NDArray[np.float32]:
    """The public block (contiguous from `to_move` to `context`) as one float32 array.

    Only non-zero entries are computed (one-hot pieces set one index per item).
    """
    n = s.n
    S = s.cfg.spaces
    base0 = offsets["to_move"][0]
    end = offsets["context"][0] + offsets["context"][1]
    idx: list[int] = []
    val: list[int] = []

    def onehot(name: str, items: Iterable[int], width: int) -> None:
        b = offsets[name][0] - base0
        for i, v in enumerate(items):
            if 0 <= v < width:
                idx.append(b + i * width + v)
                val.append(1)

    def dense(name: str, items: Iterable[int]) -> None:
        b = offsets[name][0] - base0
        for i, v in enumerate(items):
            if v:
                idx.append(b + i)
                val.append(v)

    def bits(name: str, masks: Iterable[int], width: int) -> None:
        b = offsets[name][0] - base0
        for i, m in enumerate(masks):
            for k in range(width):
                if (m >> k) & 1:
                    idx.append(b + i * width + k)
                    val.append(1)

    mover = s.actor if s.phase != Phase.END and s.actor >= 0 else -1
    onehot("to_move", (mover,), n)
    onehot("phase", (int(s.phase),), len(Phase))
    dense("round", (s.round,))
    onehot("first", (s.first,), n)
    dense("stock_value", (R.STOCK_VALUES[s.stock] if s.stock >= 0 else 0,))
    bits("area", (s.area,), S)
    onehot("occupant", s.occ, n + 1)
    onehot("building", s.bld, n)
    dense("bid", s.bids)
    onehot("space_action", s.acts, 5)
    onehot("bonus_strip", s.strip_bonus, _NB)
    onehot("display", s.display, _NF)
    dense("figure_deck", s.fig_deck)
    dense("figure_discard", s.fig_disc)
    dense("art_stack", visible_stack(s))
    onehot("shop", s.shop, _NA)
    dense("shop_pile", s.shop_pile)
    dense("cursor", s.cursor)
    onehot("compass", s.compass, len(R.COMPASS))
    onehot("needles", s.needles, len(R.COMPASS))
    dense("cube_supply", s.cube_supply)
    dense("brussels_uses", s.uses)
    dense("players", [v for p in range(n) for v in _player_rows(s, p)])
    dense("works", [k for p in range(n) for k in s.pub_works[p]])
    dense("work_count", [sum(w) for w in s.works])
    dense("cubes", [k for p in range(n) for k in s.cubes[p]])
    bits("kept", s.kept, _NF)
    bits("rotated", s.rot, _NF)
    dense("rows", [k for p in range(n) for k in s.rows[p]])
    bits("tucked", s.tucked, R.BONUS_ROWS)
    dense("context", _public_context(s))
    arr = np.zeros(end - base0, np.float32)
    arr[idx] = val
    return arr


def _j(values) -> str:
    return ",".join(map(str, values))


def _public_strings(s) -> list[str]:
    parts: list[str] = []

    def out(name: str, _values, text: str) -> None:
        parts.append(f"{name}:{text}")

    n = s.n
    mover = s.actor if s.phase != Phase.END and s.actor >= 0 else -1
    out("to_move", (), f"P{mover + 1}" if mover >= 0 else "-")
    out("phase", (), Phase(s.phase).name.lower())
    out("round", (), str(s.round))
    out("first", (), f"P{s.first + 1}")
    out("stock", (), str(s.stock + 1))
    out("area", (), f"{s.area:x}")
    out("occupant", (), "".join("." if o < 0 else ("N" if o == n else str(o + 1)) for o in s.occ))
    out("building", (), "".join("." if o < 0 else str(o + 1) for o in s.bld))
    out("bid", (), _j(s.bids))
    out("space_action", (), "".join("WSTMC"[a] for a in s.acts) or "-")
    out("bonus_strip", (), _j(s.strip_bonus))
    out("display", (), _j(s.display))
    out("figure_deck", (), _j(s.fig_deck))
    out("figure_discard", (), _j(s.fig_disc))
    out("art_stack", (), _j(visible_stack(s)))
    out("shop", (), _j(s.shop))
    out("shop_pile", (), _j(s.shop_pile))
    out("cursor", (), _j(s.cursor))
    out("compass", (), _j(s.compass))
    out("needles", (), _j(s.needles))
    out("cube_supply", (), _j(s.cube_supply))
    out("brussels_uses", (), _j(s.uses))
    for p in range(n):
        out(
            f"P{p + 1}",
            (),
            "/".join(
                (
                    _j(_player_rows(s, p)),
                    _j(s.pub_works[p]),
                    str(sum(s.works[p])),
                    _j(s.cubes[p]),
                    f"{s.kept[p]:x}",
                    f"{s.rot[p]:x}",
                    _j(s.rows[p]),
                    str(s.tucked[p]),
                )
            ),
        )
    out("context", (), _j(_public_context(s)))
    return parts


def _public_context(s) -> list[int]:
    ctx = s.ctx
    if s.phase == Phase.KEEP_WORK:
        return [s.actor]
    if s.phase == Phase.C_ART:
        return [ctx[0], ctx[1], ctx[3]]  # drawer, draws left, purpose (drawn is private)
    flat: list[int] = []
    for v in ctx:
        if isinstance(v, tuple):
            flat.extend(v)
        else:
            flat.append(int(v))
    return flat[:8]


def make_observer(game, iig_obs_type=None, params=None) -> PieceObserver:
    if params:
        raise ValueError(f"Bruxelles observer takes no parameters, got {params}")
    return PieceObserver(iig_obs_type, layout_for(game.config), write)
