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
| pending        | (R + K + 2 + 3,) | chosen region, seat, occupant; escort, gift, purple chests pending |
| jobs           | (n, 3, 6)   | one-hot job card per player and type (own only; all at the end) |
"""

from __future__ import annotations

from spiel_games.common.observer import Layout, Piece, PieceObserver
from spiel_games.staufer import rules as R
from spiel_games.staufer.core import Phase

_PLAYER = (Phase.TURN, Phase.SEAT, Phase.OCCUPANT, Phase.PAYMENT, Phase.PRIVILEGE)


def layout_for(cfg) -> Layout:
    n, r, k, s, t = cfg.players, cfg.regions, cfg.max_seats, len(cfg.supply), cfg.rounds
    f = cfg.turns_per_round
    nr, ck, pk = R.MAX_REGIONS, R.CHEST_KINDS, R.PRIV_KINDS
    return Layout([
        Piece("observer", (n,)), Piece("to_move", (n,)), Piece("phase", (len(Phase),)),
        Piece("round", (t,)), Piece("turn", (f,)), Piece("order", (f, n)),
        Piece("sup_track", (f, n)), Piece("dep_track", (f, n)),
        Piece("king", (r,)), Piece("region_at", (r, nr)), Piece("point_tile", (r, 3)),
        Piece("a_tiles", (t, nr)), Piece("b_tiles", (t, len(R.B_CONDITIONS))),
        Piece("c_tiles", (t, max(R.C_MOVES) + 1)),
        Piece("seats", (r, k, 2 * n)), Piece("seat_chests", (r, k, ck)),
        Piece("supply_chests", (s, ck)), Piece("payment", (r, n, 2)),
        Piece("court", (n, 2)), Piece("province", (n, 2)), Piece("vp", (n,)),
        Piece("brown", (n,)), Piece("turquoise", (n, 3)), Piece("privileges", (n, pk)),
        Piece("vp_privileges", (n,)), Piece("bag", (ck,)), Piece("vp_pile", (2,)),
        Piece("piles", (pk,)), Piece("pending", (r + k + 2 + 3,)),
        Piece("jobs", (n, 3, R.JOB_POOL_MAX)),
    ])


def _onehot(i: int, size: int) -> list[int]:
    v = [0] * size
    if 0 <= i < size:
        v[i] = 1
    return v


def _seq(players, f: int, n: int) -> list[int]:
    out = []
    for p in players:
        out.extend(_onehot(p, n))
    return out + [0] * ((f - len(players)) * n)


def write(state, player, view, out) -> None:
    s = state._s
    cfg = s.cfg
    n, r, k = cfg.players, cfg.regions, cfg.max_seats
    f, t = cfg.turns_per_round, cfg.rounds
    out("observer", _onehot(player, n), f"P{player + 1}")
    if view.public:
        mover = s.cur if s.phase in _PLAYER else -1
        out("to_move", _onehot(mover, n), f"P{mover + 1}" if mover >= 0 else "-")
        out("phase", _onehot(int(s.phase), len(Phase)), Phase(s.phase).name.lower())
        out("round", _onehot(s.round, t), str(s.round + 1))
        out("turn", _onehot(s.ti if s.phase in _PLAYER else -1, f), str(s.ti))
        out("order", _seq(s.order, f, n), "".join(str(p + 1) for p in s.order))
        out("sup_track", _seq(s.sup_track, f, n), "".join(str(p + 1) for p in s.sup_track) or "-")
        out("dep_track", _seq(s.dep_track, f, n), "".join(str(p + 1) for p in s.dep_track) or "-")
        out("king", _onehot(s.king, r), str(s.king))
        out("region_at", [x for rid in s.region_at for x in _onehot(rid, R.MAX_REGIONS)],
            ",".join(str(x) for x in s.region_at))
        tiles = [x for ti in s.tile_at for x in (R.POINT_TILES[ti] if ti >= 0 else (0, 0, 0))]
        out("point_tile", tiles, ",".join(str(x) for x in s.tile_at))
        out("a_tiles", [x for a in s.a_tiles[:t] for x in _onehot(a, R.MAX_REGIONS)],
            ",".join(map(str, s.a_tiles)))
        nb = len(R.B_CONDITIONS)
        out("b_tiles", [x for b in s.b_tiles for x in _onehot(b, nb)], ",".join(map(str, s.b_tiles)))
        nc = max(R.C_MOVES) + 1
        out("c_tiles", [x for c in s.c_tiles for x in _onehot(c, nc)], ",".join(map(str, s.c_tiles)))
        seats = []
        for o in s.seat:
            seats.extend(_onehot(o, 2 * n))
        out("seats", seats, ",".join(str(o) for o in s.seat))
        chests = []
        for ch in s.seat_chest:
            chests.extend(_onehot(ch, R.CHEST_KINDS))
        out("seat_chests", chests, ",".join(str(ch) for ch in s.seat_chest))
        sup = []
        for sc in s.supply_chests:
            v = [0] * R.CHEST_KINDS
            for ch in sc:
                v[ch] += 1
            sup.extend(v)
        out("supply_chests", sup, "/".join("".join(map(str, sorted(sc))) or "-" for sc in s.supply_chests))
        out("payment", s.pay)
        out("court", s.court)
        out("province", s.prov)
        out("vp", s.vp)
        out("brown", s.brown)
        out("turquoise", s.tq)
        out("privileges", s.privs)
        out("vp_privileges", s.vpp)
        out("bag", s.bag)
        out("vp_pile", [len(s.vp_pile), s.vp_pile[-1] if s.vp_pile else 0])
        out("piles", s.piles)
        pend = _onehot(s.pend_pos, r) + _onehot(s.pend_seat, k) + _onehot(s.pend_occ, 2)
        pend += [int(s.escort), int(s.gift), s.priv_pending]
        out("pending", pend, f"{s.pend_pos},{s.pend_seat},{s.pend_occ},{int(s.escort)}{int(s.gift)}{s.priv_pending}")
    jobs = [0] * (n * 3 * R.JOB_POOL_MAX)
    shown = []
    end = s.phase == Phase.END
    for p in range(n):
        if not (end and view.public) and not view.sees(p, player):
            continue
        for ty in range(3):
            card = s.jobs[p * 3 + ty]
            if card >= 0:
                jobs[(p * 3 + ty) * R.JOB_POOL_MAX + card % R.JOB_POOL_MAX] = 1
                shown.append(f"P{p + 1}:{card}")
    out("jobs", jobs, ",".join(shown) or "-")


def make_observer(game, iig_obs_type=None, params=None) -> PieceObserver:
    if params:
        raise ValueError(f"Die Staufer observer takes no parameters, got {params}")
    return PieceObserver(iig_obs_type, layout_for(game.config), write)
