"""Die Staufer observations (one writer feeds strings and tensors).

Everything is public except job cards: a player sees their own jobs; all jobs are
revealed at the end. The information state and the observation use the same pieces
(the public position records every public event the rules depend on).
Tensor layout (n players, R regions, K seats per region, S supply spaces, T = rounds,
F = n * actions family members, 9 chest kinds, 11 privilege slots):

| piece          | shape       | meaning                                                   |
|----------------|-------------|-----------------------------------------------------------|
| observer       | (n,)        | one-hot: whose view this is                               |
| to_move        | (n,)        | one-hot: the player to move (zeros at chance/end)         |
| phase          | (8,)        | one-hot Phase                                             |
| round          | (T,)        | one-hot round                                             |
| turn           | (F,)        | one-hot: index of the acting family member in the order   |
| order          | (F, n)      | this round's family-member order (one-hot player)         |
| sup_track      | (F, n)      | supply track so far, in placement order                   |
| dep_track      | (F, n)      | deployment track so far, in placement order               |
| king           | (R,)        | one-hot: the king's board position                        |
| region_at      | (R, 6)      | one-hot region id at each board position                  |
| point_tile     | (R, 3)      | 1st/2nd/3rd values of each position's point tile          |
| a_tiles        | (T, 6)      | one-hot region id of each round's A tile                  |
| b_tiles        | (T, 6)      | one-hot B condition of each round                         |
| c_tiles        | (T, 4)      | one-hot C-tile move (0-3) of each round                   |
| seats          | (R, K, 2n)  | one-hot occupant: player * 2 + is_noble                   |
| seat_chests    | (R, K, 9)   | one-hot chest kind under each seat                        |
| supply_chests  | (S, 9)      | chests of each kind under each supply space               |
| payment        | (R, n, 2)   | envoys / nobles of each player in each payment area       |
| court          | (n, 2)      | envoys / nobles in each court                             |
| province       | (n, 2)      | envoys / nobles of each colour in the province            |
| vp             | (n,)        | VP track                                                  |
| brown          | (n,)        | brown chests held                                         |
| turquoise      | (n, 3)      | escort / gift / levy chests held                          |
| privileges     | (n, 11)     | privileges held (slot 0 = VP privileges)                  |
| vp_privileges  | (n,)        | points of the VP privileges held                          |
| bag            | (9,)        | chests of each kind left in the stacks                    |
| vp_pile        | (2,)        | VP privileges left, value of the top one                  |
| piles          | (11,)       | privilege cards left per kind                             |
| pending        | (R + K + 2 + 8,) | chosen region, seat, occupant; escort, gift, purple chests pending; envoys, nobles still to take from payment areas; paying nobles left to place, the payment group of the last one, nobles placed there |
| jobs           | (n, 3, 6)   | one-hot job card per player and type (own only; all at the end) |

Strings carry the same facts: ``observer``, one compact ``public`` record (every public
integer of the core as hex-encoded int16s, then the board tuples; see state.py for the
layout) and ``jobs`` (the visible job card ids). ``str(state)`` is the human-readable rendering.
"""

from __future__ import annotations

from array import array

from spiel_games.common.engine import cached, memo
from spiel_games.common.observer import Layout, Piece, PieceObserver
from spiel_games.staufer import rules as R
from spiel_games.staufer.state import (
    CUR,
    END,
    ESCORT,
    GIFT,
    KING,
    NDEP,
    NOB_AT,
    NOB_CUR,
    NOB_LEFT,
    NSUP,
    PEND_OCC,
    PEND_POS,
    PEND_SEAT,
    PLAYER_PHASES,
    PRIV_PENDING,
    ROUND,
    TAKE_E,
    TAKE_N,
    TI,
    Phase,
)


def layout_for(cfg) -> Layout:
    n, r, s, t = cfg.players, cfg.regions, len(cfg.supply), cfg.rounds
    k = max(len(x) for x in cfg.seats)
    f = cfg.turns_per_round
    nr, ck, pk = R.MAX_REGIONS, R.CHEST_KINDS, R.PRIV_KINDS
    return Layout(
        [
            Piece("observer", (n,)),
            Piece("to_move", (n,)),
            Piece("phase", (len(Phase),)),
            Piece("round", (t,)),
            Piece("turn", (f,)),
            Piece("order", (f, n)),
            Piece("sup_track", (f, n)),
            Piece("dep_track", (f, n)),
            Piece("king", (r,)),
            Piece("region_at", (r, nr)),
            Piece("point_tile", (r, 3)),
            Piece("a_tiles", (t, nr)),
            Piece("b_tiles", (t, len(R.B_CONDITIONS))),
            Piece("c_tiles", (t, max(R.C_MOVES) + 1)),
            Piece("seats", (r, k, 2 * n)),
            Piece("seat_chests", (r, k, ck)),
            Piece("supply_chests", (s, ck)),
            Piece("payment", (r, n, 2)),
            Piece("court", (n, 2)),
            Piece("province", (n, 2)),
            Piece("vp", (n,)),
            Piece("brown", (n,)),
            Piece("turquoise", (n, 3)),
            Piece("privileges", (n, pk)),
            Piece("vp_privileges", (n,)),
            Piece("bag", (ck,)),
            Piece("vp_pile", (2,)),
            Piece("piles", (pk,)),
            Piece("pending", (r + k + 2 + 8,)),
            Piece("jobs", (n, 3, R.JOB_POOL_MAX)),
        ]
    )


def _csv(rows) -> str:
    return ",".join(map(str, rows))


def _hot(out, name: str, rows, size: int, text=_csv) -> None:
    """A stack of one-hot rows (row r has a 1 at rows[r], nothing when negative).

    Written sparsely straight into the tensor when the sink has one (a one-hot of a few
    hundred zeros costs more to convert than to skip); the string sink gets the text.
    """
    tensor = getattr(out, "tensor", None)
    if tensor is None:
        out(name, (), text if isinstance(text, str) else text(rows))
        return
    off = out.offsets[name][0]
    for r, x in enumerate(rows):
        if 0 <= x < size:
            tensor[off + r * size + x] = 1.0


def _digits(players) -> str:
    return "".join(str(p + 1) for p in players) or "-"


def write(state, player, view, out) -> None:
    s = state._s
    v = s.v
    t = s.t
    n, r, k, f = t.n, t.r, t.K, t.F
    rounds = t.cfg.rounds
    _hot(out, "observer", (player,), n, f"P{player + 1}")
    if view.public and _is_text(out):
        # Strings: the same public facts as the tensor pieces below, written as one compact
        # record (every public int of the core as hex int16s, then the board tuples) -- fast
        # enough for CFR and IS-MCTS, which key their tables on these strings. str(state)
        # is the readable rendering.
        out(
            "public",
            (),
            array("h", [s.phase, s.mover, *v[: t.jobs]]).tobytes().hex()
            + f"|{s.region_at}{s.tile_at}{s.a_tiles}{s.b_tiles}{s.c_tiles}{s.refill}",
        )
    elif view.public and (pub := _cached_public(s)) and pub[0] == out.offsets["to_move"][0]:
        lo, hi, block = pub
        out.tensor[lo:hi] = block
    elif view.public:
        player_node = s.phase in PLAYER_PHASES
        mover = v[CUR] if player_node else -1
        _hot(out, "to_move", (mover,), n, f"P{mover + 1}" if mover >= 0 else "-")
        _hot(out, "phase", (s.phase,), len(Phase), Phase(s.phase).name.lower())
        _hot(out, "round", (v[ROUND],), rounds, str(v[ROUND] + 1))
        _hot(out, "turn", (v[TI] if player_node else -1,), f, str(v[TI]))
        order = v[t.order : t.order + f]
        _hot(out, "order", order, n, _digits)
        sup = v[t.sup : t.sup + v[NSUP]]
        dep = v[t.dep : t.dep + v[NDEP]]
        _hot(out, "sup_track", sup, n, _digits)
        _hot(out, "dep_track", dep, n, _digits)
        _hot(out, "king", (v[KING],), r, str(v[KING]))
        _hot(out, "region_at", s.region_at, R.MAX_REGIONS)
        tiles = [x for ti in s.tile_at for x in (R.POINT_TILES[ti] if ti >= 0 else (0, 0, 0))]
        out("point_tile", tiles, _csv(s.tile_at) if _is_text(out) else "")
        a = s.a_tiles[:rounds]
        _hot(out, "a_tiles", a, R.MAX_REGIONS, _csv(s.a_tiles) if _is_text(out) else "")
        _hot(out, "b_tiles", s.b_tiles, len(R.B_CONDITIONS))
        _hot(out, "c_tiles", s.c_tiles, max(R.C_MOVES) + 1)
        seats = v[t.seat : t.seat + r * k]
        _hot(out, "seats", seats, 2 * n)
        chests = v[t.chest : t.chest + r * k]
        _hot(out, "seat_chests", chests, R.CHEST_KINDS)
        for name, start, size in _count_pieces(t):
            out(name, v[start : start + size])
        pile = s.vp_pile()
        out("vp_pile", [len(pile), pile[-1] if pile else 0])
        pend = (v[PEND_POS], r + v[PEND_SEAT], r + k + v[PEND_OCC])
        flags = [v[ESCORT], v[GIFT], v[PRIV_PENDING], v[TAKE_E], v[TAKE_N]]
        flags += [v[NOB_LEFT], v[NOB_CUR], v[NOB_AT]]
        tensor = getattr(out, "tensor", None)
        if tensor is None:
            out("pending", (), f"{pend[0]},{v[PEND_SEAT]},{v[PEND_OCC]},{flags}")
        else:
            off = out.offsets["pending"][0]
            for x, lo in zip(pend, (0, r, r + k), strict=True):
                if x >= lo:
                    tensor[off + x] = 1.0
            tensor[off + r + k + 2 : off + r + k + 10] = flags
    if view.public and _cached_public(s) is None and not _is_text(out):
        lo, hi = out.offsets["to_move"][0], out.offsets["jobs"][0]
        memo(s)["pub"] = (lo, hi, out.tensor[lo:hi].copy())  # public pieces are contiguous
    _write_jobs(s, player, view, out)


def _write_jobs(s, player: int, view, out) -> None:
    """The job cards this view shows: the viewer's own, everyone's at the end."""
    v = s.v
    t = s.t
    n = t.n
    hot = []
    shown = []
    end = s.phase == END
    for p in range(n):
        if not (end and view.public) and not view.sees(p, player):
            continue
        for ty in range(3):
            card = v[t.jobs + p * 3 + ty]
            if card >= 0:
                hot.append((p * 3 + ty) * R.JOB_POOL_MAX + card % R.JOB_POOL_MAX)
                shown.append(f"P{p + 1}:{card}")
    tensor = getattr(out, "tensor", None)
    if tensor is None:
        out("jobs", (), ",".join(shown) or "-")
    else:
        off = out.offsets["jobs"][0]
        for x in hot:
            tensor[off + x] = 1.0


def _cached_public(s):
    """The public tensor block cached on the position ((lo, hi, values)), or None."""
    return cached(s, "pub")


def _is_text(out) -> bool:
    return not hasattr(out, "tensor")


_COUNT_PIECES = (
    ("supply_chests", "supc"),
    ("payment", "pay"),
    ("court", "court"),
    ("province", "prov"),
    ("vp", "vp"),
    ("brown", "brown"),
    ("turquoise", "tq"),
    ("privileges", "privs"),
    ("vp_privileges", "vpp"),
    ("bag", "bag"),
    ("piles", "piles"),
)
_CACHE: dict[int, tuple] = {}


def _count_pieces(t) -> tuple[tuple[str, int, int], ...]:
    """(piece, offset in v, size) of the count arrays, computed once per configuration."""
    key = id(t)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is t:
        return hit[1]
    sizes = {
        "supc": t.S * R.CHEST_KINDS,
        "pay": t.r * t.n * 2,
        "court": t.n * 2,
        "prov": t.n * 2,
        "vp": t.n,
        "brown": t.n,
        "vpp": t.n,
        "tq": t.n * 3,
        "privs": t.n * R.PRIV_KINDS,
        "bag": R.CHEST_KINDS,
        "piles": R.PRIV_KINDS,
    }
    pieces = tuple((name, getattr(t, attr), sizes[attr]) for name, attr in _COUNT_PIECES)
    _CACHE[key] = (t, pieces)
    return pieces


def make_observer(game, iig_obs_type=None, params=None) -> PieceObserver:
    if params:
        raise ValueError(f"Die Staufer observer takes no parameters, got {params}")
    return PieceObserver(iig_obs_type, layout_for(game.config), write)
