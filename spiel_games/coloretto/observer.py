"""Coloretto observations.

Everything in Coloretto is public, so the observation and the information state
are the same Markov description of the position (collections, rows, deck counts,
whose turn it is); the information state adds nothing because no player has a
private memory that matters. Tensor layout (n players, R rows, C colours,
T = C + 3 card types):

| piece       | shape      | meaning                                              |
|-------------|------------|------------------------------------------------------|
| observer    | (n,)       | one-hot: whose view this is                          |
| to_move     | (n,)       | one-hot: the player to move (zeros at chance/end)    |
| phase       | (8,)       | one-hot Phase                                        |
| last_round  | (1,)       | 1 once the last-round card has appeared              |
| collections | (n, C + 2) | counts: colours, +2 cards, unassigned jokers         |
| rows        | (R, T)     | cards of each type in each row                       |
| row_taken   | (R,)       | 1 if the row was taken this round                    |
| row_space   | (R,)       | free places in the row                               |
| done        | (n,)       | 1 if the player has taken a row this round           |
| deck        | (T,)       | cards of each type still in the deck                 |
| pending     | (T,)       | one-hot: the drawn card waiting to be placed         |
| to_assign   | (1,)       | jokers waiting for a colour (immediate variant)      |
"""

from __future__ import annotations

from spiel_games.coloretto.state import Phase
from spiel_games.common.observer import Layout, Piece, PieceObserver


def layout_for(cfg) -> Layout:
    n, r, c, t = cfg.players, cfg.rows, cfg.colours, cfg.num_types
    return Layout(
        [
            Piece("observer", (n,)),
            Piece("to_move", (n,)),
            Piece("phase", (len(Phase),)),
            Piece("last_round", (1,)),
            Piece("collections", (n, c + 2)),
            Piece("rows", (r, t)),
            Piece("row_taken", (r,)),
            Piece("row_space", (r,)),
            Piece("done", (n,)),
            Piece("deck", (t,)),
            Piece("pending", (t,)),
            Piece("to_assign", (1,)),
        ]
    )


def _onehot(i: int, n: int) -> list[int]:
    v = [0] * n
    if 0 <= i < n:
        v[i] = 1
    return v


def write(state, player, view, out) -> None:
    s = state._s
    cfg = s.cfg
    n, T = cfg.players, cfg.num_types
    out("observer", _onehot(player, n), f"P{player + 1}")
    if not view.public:
        return
    mover = s.cur if s.phase in (Phase.PLAY, Phase.PLACE, Phase.ASSIGN) else -1
    out("to_move", _onehot(mover, n), f"P{mover + 1}" if mover >= 0 else "-")
    out("phase", _onehot(int(s.phase), len(Phase)), Phase(s.phase).name.lower())
    out("last_round", [int(s.last_round)])
    flat = [k for col in s.coll for k in col]
    out("collections", flat, "/".join(",".join(map(str, col)) for col in s.coll))
    row_counts = []
    for row in s.rows:
        v = [0] * T
        for card in row:
            v[card] += 1
        row_counts.extend(v)
    out("rows", row_counts, "/".join("".join(f"{c}." for c in row) or "-" for row in s.rows))
    out("row_taken", [(s.taken >> r) & 1 for r in range(cfg.rows)])
    out("row_space", [cfg.capacities[r] - len(row) for r, row in enumerate(s.rows)])
    out("done", [(s.done >> p) & 1 for p in range(n)])
    out("deck", s.deck)
    out("pending", _onehot(s.pending, T), str(s.pending))
    out("to_assign", [s.to_assign])


def make_observer(game, iig_obs_type=None, params=None) -> PieceObserver:
    if params:
        raise ValueError(f"Coloretto observer takes no parameters, got {params}")
    return PieceObserver(iig_obs_type, layout_for(game.config), write)
