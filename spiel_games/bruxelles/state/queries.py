"""Pure queries on a Bruxelles 1893 position: free spaces, costs, what a player can
carry out, payments, bids. Nothing here changes the position."""

from __future__ import annotations

from functools import lru_cache

from spiel_games.bruxelles import actions as A
from spiel_games.bruxelles import rules as R
from spiel_games.bruxelles.state.core import J


def empty_spaces(s) -> list[int]:
    return [sp for sp in range(s.cfg.spaces) if s.occ[sp] < 0 and s.bld[sp] < 0]


def has_empty_space(s) -> bool:
    """Some Art Nouveau space holds neither an assistant nor a building."""
    occ, bld = s.occ, s.bld
    return any(occ[sp] < 0 and bld[sp] < 0 for sp in range(s.cfg.spaces))


def brussels_cost(s, b: int) -> int:
    return s.uses[b] // s.cfg.brussels_slots + 1


def construction_cost(s, p: int) -> int:
    return R.TIER_COSTS[s.built[p]]


def _needle_tiles(s) -> tuple[int, int]:
    return s.compass[s.needles[0]], s.compass[s.needles[1]]


def can_complete(s, p: int, paid: tuple[int, ...], cost: int, res: int = -1) -> bool:
    """Some valid payment extends `paid` (plus one unit of `res`, if given, with no
    smaller kind left to pay) and everything not yet paid is affordable now."""
    x, y = _needle_tiles(s)
    return _completes(x, y, cost, paid, res, s.money[p], s.cubes[p])


@lru_cache(maxsize=1 << 16)
def _completes(
    x: int, y: int, cost: int, paid: tuple[int, ...], res: int, money: int, cubes: tuple[int, ...]
) -> bool:
    # a pure function of its arguments, which repeat all game long: memoized (the
    # heuristic and the search ask it for every feasibility check)
    for opt in R.payment_options(x, y, cost):
        rest = tuple(opt[i] - paid[i] for i in range(5))
        if min(rest) < 0 or (res >= 0 and (rest[res] < 1 or any(rest[:res]))):
            continue  # units are paid in non-decreasing kind order
        if R.affordable(rest, money, cubes):
            return True
    return False


def sellable(s, p: int) -> list[int]:
    w = s.works[p]
    return [c for c in range(len(R.ART)) if w[c] and c != s.shop[0] and c != s.shop[1]]


def feasible(s, p: int, a: int) -> bool:
    """Whether player p can carry out Art Nouveau action a right now."""
    if a == R.WORKSHOP:
        return sum(s.art_stack[: R.COLOURS]) + sum(s.shop_pile[: R.COLOURS]) > 0
    if a == R.SALE:
        return bool(sellable(s, p))
    if a == R.THEATER:
        m = s.money[p]
        return any(f >= 0 and R.THEATER_COSTS[k] <= m for k, f in enumerate(s.display))
    if a == R.MATERIALS:
        return sum(s.cube_supply[:3]) > 0
    if a == R.CONSTRUCTION:
        return (
            s.built[p] < R.BUILDINGS
            and has_empty_space(s)
            and can_complete(s, p, (0,) * 5, construction_cost(s, p))
        )
    raise ValueError(f"unknown action {a}")


def brussels_useful(s, p: int, b: int) -> bool:
    if b == R.PARK:
        return any(feasible(s, p, a) for a in range(5))
    if b == R.GRANDPLACE:
        return s.upright(p) != 0
    return True


def space_actions(s) -> tuple[int, ...]:
    b = s.cfg.board
    return tuple(R.STRIPS[s.strips[r]][c] for r in range(b) for c in range(b))


def neutral_spaces(s) -> list[int]:
    return [sp for sp in empty_spaces(s) if (s.area >> sp) & 1]


def solvay_options(s, p: int) -> list[int]:
    if sum(s.cube_supply[:3]) == 0:
        return []
    opts = [A.SOLVAY_ONE]
    if s.cubes[p][J] > 0:
        opts.append(A.SOLVAY_SWAP)
    return opts


def needle_moves(s) -> list[int]:
    out = []
    for i in (0, 1):
        nxt = (s.needles[i] + 1) % len(R.COMPASS)
        if nxt != s.needles[1 - i]:
            out.append(i)
    return out


def column_bids(s, col: int) -> list[int]:
    b = s.cfg.board
    sums = [0] * s.n
    for r in range(b):
        sp = r * b + col
        o = s.occ[sp]
        if 0 <= o < s.n:
            sums[o] += s.bids[sp]
    return sums


def column_results(s) -> list[tuple[int, int, list[int], list[int]]]:
    """Resolution step 1, each column that holds a bonus card: (column, card, each player's
    bid total, the players with the highest total; none when nobody bid there). One
    winner takes the card; tied winners each get its power and the card is discarded."""
    out = []
    for col in range(s.cfg.board):
        card = s.strip_bonus[col]
        if card < 0:
            continue
        sums = column_bids(s, col)
        best = max(sums)
        out.append((col, card, sums, [p for p in range(s.n) if sums[p] == best] if best else []))
    return out


def unit_available(s, p: int, res: int) -> bool:
    if res == R.P_MONEY:
        return s.money[p] >= R.BF_PER_UNIT
    if res == R.P_JOKER:
        return s.cubes[p][J] > 0
    return s.cubes[p][res] > 0
