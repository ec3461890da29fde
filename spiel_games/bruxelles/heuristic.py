"""A rule-based Bruxelles 1893 player that plays as a sensible casual human would.

Turn choice (MAIN): every possible move gets a rough value in victory points:
- Construction when it is affordable (5 VP without jokers, 5 more for a top
  tile, the architect level at the end, a secondary-action spot);
- Sale of a work (the best money + VP the cursor can reach);
- Workshop while the player has few works (more colours = more pass income);
- Theater for a useful figure; Materials when the next building lacks cubes;
- Market when out of cubes; Bourse when short of money; Grand Place with two
  or more upright figures; pass when nothing is worth an assistant.
An Art Nouveau move also counts the bonus card of its column and gets a bid that
just leads the column when that is cheap, otherwise 1 BF.

Sub-choices follow simple greedy rules (keep a new colour, sell where the cursor
pays most, pay without jokers when possible, activate the best upright figure,
use or tuck a bonus card by comparing rough values).
"""

from __future__ import annotations

import random

from spiel_games.bruxelles import actions as A
from spiel_games.bruxelles import rules as R
from spiel_games.bruxelles import state as S
from spiel_games.bruxelles.state import Phase

_FIGURE_VALUE = (4.0, 2.0, 3.5, 3.5, 2.5, 5.0, 2.0, 3.5)  # by figure, as rough VP


def _figure_value(s, p: int, f: int) -> float:
    if f == R.VANDERVELDE and s.court[p] == 0:
        return 0.0
    if f == R.SOLVAY and sum(s.cube_supply[:3]) == 0:
        return 0.0
    return _FIGURE_VALUE[f]


def _best_sale(s, p: int) -> tuple[float, int, tuple[int, int]]:
    """(value, colour, cursor) of the best sale now, or value 0 if none."""
    best = (0.0, -1, s.cursor)
    steps = s.total_works(p)
    r0, c0 = s.cursor
    for colour in S.sellable(s, p):
        for r in range(R.CURSOR_MIN, R.CURSOR_MAX + 1):
            for c in range(R.CURSOR_MIN, R.CURSOR_MAX + 1):
                if abs(r - r0) + abs(c - c0) > steps:
                    continue
                money, vp = R.sale_reward((r, c), colour)
                v = vp + 0.5 * money + (0.5 if s.works[p][colour] > 1 else 0.0)
                if v > best[0]:
                    best = (v, colour, (r, c))
    return best


def _action_value(s, p: int, a: int) -> float:
    if not S.feasible(s, p, a):
        return 0.0
    last = s.round >= s.cfg.rounds
    if a == R.CONSTRUCTION:
        tier = s.built[p]
        top = 5.0 if R.TIER_COSTS[tier] == R.TIER_COSTS[-1] else 0.0
        return 9.0 + top + R.ARCHITECT[s.arch[p]]
    if a == R.SALE:
        return _best_sale(s, p)[0]
    if a == R.WORKSHOP:
        colours = R.art_colours(s.works[p])
        return 4.0 if colours < 3 else 2.0 if not last else 1.0
    if a == R.THEATER:
        best = 0.0
        for k, f in enumerate(s.display):
            if f >= 0 and R.THEATER_COSTS[k] <= s.money[p]:
                best = max(best, _figure_value(s, p, f) - 0.5 * R.THEATER_COSTS[k])
        return best
    if a == R.MATERIALS:
        have = sum(s.cubes[p])
        need = R.TIER_COSTS[s.built[p]] if s.built[p] < R.BUILDINGS else 0
        return 4.0 if have < need else 1.5
    return 0.0


def _space_bonus(s, p: int, sp: int) -> tuple[float, int]:
    """Value of the column's bonus card and the bid that would lead the column."""
    return _column_bonus(s, p, sp % s.cfg.board)


def _column_bonus(s, p: int, col: int) -> tuple[float, int]:
    card = s.strip_bonus[col]
    if card < 0:
        return 0.0, 1
    sums = S.column_bids(s, col)
    mine = sums[p]
    lead = max(x for q, x in enumerate(sums) if q != p)
    need = max(1, lead + 1 - mine)
    return 3.0 + R.BONUS[card][2], need


def _choose_bid(s, p: int, sp: int) -> int:
    value, need = _space_bonus(s, p, sp)
    cap = min(s.money[p], s.cfg.bid_cap)
    if need <= cap and need <= max(1, s.money[p] // 2) and value > 0:
        return need
    return 1


def _main(s, p: int, legal: list[int], rng) -> int:
    best_val, best = 0.8, A.PASS  # pass unless something beats an assistant's worth
    values: dict[int, float] = {}  # one value per Art Nouveau action (spaces share them)
    columns: dict[int, tuple[float, int]] = {}  # and one bonus and bid per column
    board = s.cfg.board

    def value(act: int) -> float:
        v = values.get(act)
        if v is None:
            v = values[act] = _action_value(s, p, act)
        return v

    for a in legal:
        if a < A.BRUSSELS0:
            sp = a - A.PLACE0
            v = value(s.acts[sp])
            col = sp % board
            column = columns.get(col)
            if column is None:
                column = columns[col] = _column_bonus(s, p, col)
            bonus, need = column
            v += 0.5 * bonus if need <= max(1, s.money[p] // 2) else 0.0
            if s.bld[sp] >= 0 and s.bld[sp] != p:
                v -= 1.0  # gives the owner a secondary action
        elif a < A.PASS:
            b = a - A.BRUSSELS0
            cost = S.brussels_cost(s, b)
            if b == R.MARKET:
                v = 4.0 if sum(s.cubes[p]) < 2 and s.built[p] < R.BUILDINGS else 0.5
            elif b == R.BOURSE:
                v = R.STOCK_VALUES[s.stock] * (0.9 if s.money[p] < 4 else 0.5)
            elif b == R.PARK:
                v = max(value(x) for x in range(5)) - 0.5
            else:
                k = bin(s.upright(p)).count("1")
                v = 3.0 * min(k, R.PALACE[s.palace[p]])
            v -= 1.5 * (cost - 1) + (1.0 if s.onbrussels[p] else 0.0)
        else:
            continue
        v += 0.01 * rng.random()
        if v > best_val:
            best_val, best = v, a
    return best


def _pay(s, p: int, legal: list[int]) -> int:
    # Units are paid in kind order; prefer cubes and money over jokers (5 VP bonus).
    for a in legal:
        if a != A.PAY0 + R.P_JOKER:
            return a
    return legal[0]


def _noble(s, p: int, legal: list[int]) -> int:
    tiles = {s.compass[i] for i in s.needles} if s.compass else set()
    for a in legal:
        if (a - A.NOBLE0) in tiles:
            return a
    return min(legal, key=lambda a: s.cubes[p][a - A.NOBLE0])


def _bonus(s, p: int, legal: list[int]) -> int:
    card = s.ctx[0]
    options, vp, _, _ = R.BONUS[card]
    rounds_left = s.cfg.rounds - s.round

    def power_value(opt) -> float:
        v = 0.0
        for pw in opt:
            if pw == "A":
                v += s.built[p] + 1.5 * rounds_left * 0.5
            elif pw == "P":
                v += 1.5 * bin(s.kept[p]).count("1")
            elif pw == "H":
                v += 1.0 + rounds_left
            elif pw == "C":
                v += 3.0 if s.court[p] else 0.0
        return v

    counts = (
        s.money[p] / 4,
        s.total_works(p),
        bin(s.kept[p]).count("1"),
        max(0, s.owned_assistants(p) - 2),
    )
    best, best_v = legal[0], -1.0
    for a in legal:
        v = vp * counts[a - A.TUCK0] if a >= A.TUCK0 else power_value(options[a - A.POWER0])
        if v > best_v:
            best, best_v = a, v
    return best


def heuristic_action(state, rng=None) -> int:
    rng = rng or random.Random(0)
    s = state._s
    p = s.actor
    legal = state._legal_actions(p)
    if len(legal) == 1:
        return legal[0]
    ph = s.phase
    if ph == Phase.MAIN:
        return _main(s, p, legal, rng)
    if ph == Phase.BID:
        return A.bid_action(_choose_bid(s, p, s.ctx[0]))
    if ph == Phase.DO:
        return A.PERFORM
    if ph == Phase.PARK:
        return max(legal, key=lambda a: _action_value(s, p, a - A.PARK0))
    if ph == Phase.KEEP_WORK:
        mine = s.works[p]
        return max(legal, key=lambda a: (mine[a - A.KEEP_WORK0] == 0, -a))
    if ph == Phase.SELL:
        _, colour, _ = _best_sale(s, p)
        return A.SELL0 + colour if A.SELL0 + colour in legal else legal[0]
    if ph == Phase.CURSOR:
        colour = s.ctx[0]
        return max(
            legal,
            key=lambda a: (lambda m: m[1] + 0.5 * m[0])(R.sale_reward(A.cursor_of(a), colour)),
        )
    if ph == Phase.SLOT:
        mine = s.works[p]
        return max(
            legal, key=lambda a: mine[s.shop[a - A.SLOT0]] if s.shop[a - A.SLOT0] >= 0 else 9
        )
    if ph == Phase.THEATER:
        return max(
            legal,
            key=lambda a: (
                _figure_value(s, p, s.display[a - A.THEATER0])
                - 0.5 * R.THEATER_COSTS[a - A.THEATER0]
            ),
        )
    if ph == Phase.SOLVAY:
        return A.SOLVAY_SWAP if A.SOLVAY_SWAP in legal else A.SOLVAY_ONE
    if ph == Phase.KEEP_FIG:
        f = s.ctx[0]
        keep = s.round < s.cfg.rounds and s.money[p] >= R.FIG_COST[f] + 2
        return A.KEEP_FIG if keep else A.DISCARD_FIG
    if ph == Phase.NOBLE:
        return _noble(s, p, legal)
    if ph == Phase.PAY:
        return _pay(s, p, legal)
    if ph == Phase.BUILD:
        good = [a for a in legal if s.acts[a - A.BUILD0] in (R.SALE, R.WORKSHOP, R.THEATER)]
        return rng.choice(good or legal)
    if ph == Phase.ACTIVATE:
        acts = [a for a in legal if a != A.SKIP]
        best = max(acts, key=lambda a: _figure_value(s, p, a - A.ACTIVATE0))
        return best if _figure_value(s, p, best - A.ACTIVATE0) > 0 else A.SKIP
    if ph == Phase.BONUS:
        return _bonus(s, p, legal)
    if ph == Phase.SHIELD:
        areas = [bin(R.bracket_area(*xy)).count("1") for xy in R.STOCK_SHIELDS[s.n][s.stock]]
        return A.SHIELD0 + (1 if areas[1] > areas[0] else 0)
    return rng.choice(legal)
