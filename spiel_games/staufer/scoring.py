"""Die Staufer scoring: which regions a round scores, region majorities, final scoring.

Functions read a ``Core`` (see state.py for the layout of ``v``). A round's scoring is
recorded as it happens (``RegionScore``, ``RoundScoring``): the engine keeps the record of
the last round end on the core, and the log's round summary (text.round_summary) is
built from it.
"""

from __future__ import annotations

from typing import NamedTuple

from spiel_games.common.majority import majority_awards
from spiel_games.common.utility import returns_from_keys
from spiel_games.staufer import rules as R
from spiel_games.staufer.state import KING, ROUND, VPLEFT, Core, gain, take_vp_privilege

PK = R.PRIV_KINDS


def clockwise_from_king(c: Core) -> list[int]:
    r = c.t.r
    return [(c.v[KING] + i) % r for i in range(r)]


def _first_best(c: Core, key) -> int:
    """The region position maximising key(pos); ties go to the first clockwise from the king."""
    best, best_val = -1, None
    for pos in clockwise_from_king(c):
        val = key(pos)
        if best_val is None or val > best_val:
            best, best_val = pos, val
    return best


def region_stats(c: Core, pos: int) -> tuple[int, int, int, int]:
    """(occupied seats, nobles on seats, chests under seats, figures in the payment area)."""
    v = c.v
    t = c.t
    occ = nob = chests = 0
    for i in range(t.nseats[c.region_at[pos]]):
        o = v[t.seat + pos * t.K + i]
        if o >= 0:
            occ += 1
            nob += o & 1
        if v[t.chest + pos * t.K + i] >= 0:
            chests += 1
    base = t.pay + pos * t.n * 2
    return occ, nob, chests, sum(v[base : base + t.n * 2])


def b_region(c: Core, condition: int) -> int:
    name = R.B_CONDITIONS[condition]
    if name == "king":
        return c.v[KING]
    if name == "after_king":
        return (c.v[KING] + 1) % c.t.r
    if name == "fewest_chests":
        return _first_best(c, lambda pos: -region_stats(c, pos)[2])
    if name == "most_seats":
        return _first_best(c, lambda pos: region_stats(c, pos)[0])
    if name == "most_payment":
        return _first_best(c, lambda pos: region_stats(c, pos)[3])
    if name == "most_nobles":
        return _first_best(c, lambda pos: region_stats(c, pos)[1])
    raise AssertionError(f"unknown B condition {name}")


def scored_positions(c: Core) -> tuple[int, ...]:
    """Evaluation marker 1 (A tile) and the B condition's region; one region scores once."""
    rnd = c.v[ROUND]
    a = c.pos_of[c.a_tiles[rnd]]
    b = b_region(c, c.b_tiles[rnd])
    return (a,) if a == b else (a, b)


def majority_counts(c: Core, pos: int) -> tuple[list[int], list[int]]:
    """Per player: seats held (nobles double, majordomo +1) and the leftmost seat index."""
    v = c.v
    t = c.t
    n = t.n
    counts = [0] * n
    left = [t.K] * n
    for i in range(t.nseats[c.region_at[pos]]):
        o = v[t.seat + pos * t.K + i]
        if o < 0:
            continue
        p = o >> 1
        counts[p] += R.NOBLE_WEIGHT if o & 1 else 1
        if i < left[p]:
            left[p] = i
    for p in range(n):
        if counts[p] and v[t.privs + p * PK + R.MAJORDOMO]:
            counts[p] += 1
    return counts, left


class RegionScore(NamedTuple):
    """One region scored at a round's end, as ``score_region`` scored it."""

    pos: int  # board position
    counts: tuple[int, ...]  # majority counts per player (nobles double, majordomo +1)
    awards: tuple[int, ...]  # the point tile's VP per player (0: no place)
    holder: int  # the majority holder, who takes the region bonus; -1 nobody holds a seat
    gained: int  # what the bonus gave the holder: VP (vp, presence), or 1 if the top VP
    # privilege was taken, 0 if none was left (privilege); 0 for a figure bonus
    figures: tuple[int, int] = (0, 0)  # figures taken (envoys, nobles): fewer than the bonus
    # when none is left anywhere; a noble that exists nowhere comes as an envoy (noble, envoys)


class RoundScoring(NamedTuple):
    """A round's end as the engine played it (rounds._end_round): the regions scored, in
    order (the A tile's, then the B condition's when it is another), the VP track before
    and after the scoring, and the king's move at clean-up (none after the last round)."""

    round: int  # the round scored, 0-based
    regions: tuple[RegionScore, ...]
    vp_before: tuple[int, ...]
    vp_after: tuple[int, ...]
    king_move: int  # board positions the king moves (the C tile); 0 after the last round
    king_to: int  # his board position after the move; -1 after the last round


def score_region(c: Core, pos: int) -> RegionScore:
    """Award the point tile to 1st-3rd and the region bonus to the majority holder; what
    was awarded."""
    counts, left = majority_counts(c, pos)
    tile = R.POINT_TILES[c.tile_at[pos]]
    awards = [int(a) for a in region_awards(counts, left, tile)]
    for p, a in enumerate(awards):
        c.v[c.t.vp + p] += a
    holder = majority_holder(counts, left)
    if holder < 0:
        return RegionScore(pos, tuple(counts), tuple(awards), holder, 0)
    bonus = R.REGION_BONUS[c.region_at[pos]]
    if bonus in ("noble", "envoys"):
        figures = gain(c, holder, *_FIGURE_BONUS[bonus]())
        return RegionScore(pos, tuple(counts), tuple(awards), holder, 0, figures)
    return RegionScore(pos, tuple(counts), tuple(awards), holder, _region_bonus(c, holder, bonus))


# the figure bonuses: (envoys, nobles) to take
_FIGURE_BONUS = {"noble": lambda: (0, 1), "envoys": lambda: (R.RULES["regions.bonus_envoys"], 0)}


def _region_bonus(c: Core, p: int, bonus: str) -> int:
    """Give p a region bonus that is not figures; what it gave (``RegionScore.gained``)."""
    if bonus == "vp":
        c.v[c.t.vp + p] += R.RULES["regions.bonus_vp"]
        return R.RULES["regions.bonus_vp"]
    if bonus == "privilege":
        if not c.v[VPLEFT]:  # the top VP privilege, if any is left
            return 0
        take_vp_privilege(c, p)
        return 1
    if bonus == "presence":
        vp = R.RULES["regions.bonus_presence_vp"] * regions_with_seat(c, p)
        c.v[c.t.vp + p] += vp
        return vp
    raise AssertionError(f"unknown region bonus {bonus}")


def player_seats(c: Core, p: int) -> list[tuple[int, int, int, bool, bool]]:
    """(position, seat index, value, noble_only, is_noble) for every seat p occupies."""
    v = c.v
    t = c.t
    out = []
    for pos in range(t.r):
        row = t.cfg.seats[c.region_at[pos]]
        for i in range(len(row)):
            o = v[t.seat + pos * t.K + i]
            if o >= 0 and o >> 1 == p:
                out.append((pos, i, row[i][0], row[i][1], bool(o & 1)))
    return out


def regions_with_seat(c: Core, p: int) -> int:
    return len({s[0] for s in player_seats(c, p)})


def job_vp(c: Core, p: int, card: int, seats=None) -> int:
    ty, i = divmod(card, R.JOB_POOL_MAX)
    if seats is None:
        seats = player_seats(c, p)
    per_region: dict[int, int] = {}
    for s in seats:
        per_region[s[0]] = per_region.get(s[0], 0) + 1
    if ty == R.JOB_REGION:
        return R.REGION_JOB_VP if c.pos_of[i] in per_region else 0
    if ty == R.JOB_DESIGN:
        name, vp = R.DESIGN_JOBS[i]
        if name == "two_seats":
            return vp * sum(1 for x in per_region.values() if x >= 2)
        if name == "three_seats":
            return vp * sum(1 for x in per_region.values() if x >= 3)
        if name == "nobility":
            return vp * sum(1 for s in seats if s[4])
        if name == "leftmost":
            return vp * sum(1 for s in seats if s[1] == 0)
        if name == "presence":
            return vp * len(per_region)
        if name == "king_court":
            return vp * per_region.get(c.v[KING], 0)
        raise AssertionError(name)
    name, vp = R.OFFICE_JOBS[i]
    if name.startswith("value"):
        want = int(name[5:])
        return vp * sum(1 for s in seats if s[2] == want)
    if name == "noble_seat":
        return vp * sum(1 for s in seats if s[3])
    if name == "total_value":
        return vp * (sum(s[2] for s in seats) // 2)
    raise AssertionError(name)


def end_parts(c: Core, p: int, jobs: bool = True) -> dict[str, int]:
    """Final-scoring VP beyond the track, by source: jobs (0 unless jobs=True), brown
    chests, VP privileges, steward, pilgrim."""
    v = c.v
    t = c.t
    seats = player_seats(c, p)
    job_total = 0
    if jobs:
        job_total = sum(
            job_vp(c, p, card, seats)
            for card in v[t.jobs + p * 3 : t.jobs + p * 3 + 3]
            if card >= 0
        )
    pk = t.privs + p * PK
    browns = v[t.brown + p] + (1 if v[pk + R.CHEST_KEEPER] else 0)
    steward = pilgrim = 0
    if v[pk + R.STEWARD]:
        figures = v[t.court + p * 2] + v[t.court + p * 2 + 1]
        steward = figures // R.RULES["privileges.steward_figures_per_vp"]
    if v[pk + R.PILGRIM]:
        pilgrim = R.RULES["privileges.pilgrim_vp"] * len({s[0] for s in seats})
    return {
        "jobs": job_total,
        "brown": brown_vp(browns),
        "vp_privileges": v[t.vpp + p],
        "steward": steward,
        "pilgrim": pilgrim,
    }


def end_bonus(c: Core, p: int, jobs: bool = True) -> int:
    """Final-scoring VP beyond the track: jobs (unless jobs=False), brown chests, privileges."""
    return sum(end_parts(c, p, jobs).values())


def breakdown(c: Core) -> list[dict[str, int]]:
    """Per player: VP on the track, then each final-scoring part (they sum to `scores`)."""
    return [{"track": c.v[c.t.vp + p], **end_parts(c, p)} for p in range(c.t.n)]


def scores(c: Core) -> list[int]:
    return [c.v[c.t.vp + p] + end_bonus(c, p) for p in range(c.t.n)]


def known_scores(c: Core, viewer: int) -> list[int]:
    """Scores as `viewer` can know them: everyone's public points, jobs only for viewer."""
    return [c.v[c.t.vp + p] + end_bonus(c, p, jobs=p == viewer) for p in range(c.t.n)]


def final_returns(c: Core) -> list[float]:
    sc = scores(c)
    t = c.t
    keys = [(sc[p], c.v[t.court + p * 2] + c.v[t.court + p * 2 + 1]) for p in range(t.n)]
    return returns_from_keys(t.cfg.utility, sc, keys)


# ----- pure scoring rules -----------------------------------------------------------------


def brown_vp(count: int) -> int:
    return R.BROWN_TABLE[min(count, len(R.BROWN_TABLE) - 1)]


def region_awards(counts, leftmost, tile) -> list[float]:
    """Majority awards of one region.

    counts[p]: seats held by p with nobles counting double; leftmost[p]: index of p's
    leftmost seat (ties go to the player further left). tile: (1st, 2nd, 3rd) values.
    """
    order = [-x for x in leftmost]
    return majority_awards(counts, tile, tie="order", order=order)


def majority_holder(counts, leftmost) -> int:
    """The player with the majority (ties: leftmost seat), or -1 if nobody holds a seat."""
    best = -1
    for p, c in enumerate(counts):
        if c <= 0:
            continue
        if best < 0 or (c, -leftmost[p]) > (counts[best], -leftmost[best]):
            best = p
    return best
