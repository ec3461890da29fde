"""Every human-readable Die Staufer string: chest and job-type names, action and chance
strings (`action_string`) and the omniscient rendering (`render`)."""

from __future__ import annotations

import pyspiel

from spiel_games.staufer import actions as A
from spiel_games.staufer import rules as R
from spiel_games.staufer import scoring as S
from spiel_games.staufer.state import (
    END,
    KING,
    NDEP,
    NSUP,
    PEND_POS,
    REFILL,
    ROUND,
    SETUP,
    ST_A,
    ST_B,
    ST_C,
    ST_JOB,
    ST_REGION,
    ST_TILE,
    STEP,
    TI,
    Phase,
)

# Chest kinds, indexed by the kind ids of rules.py (O2VP .. BROWN).
CHEST_NAMES = (
    "orange 2vp",
    "orange 3vp",
    "orange envoy",
    "orange noble",
    "turquoise escort",
    "turquoise gift",
    "turquoise levy",
    "purple",
    "brown",
)
CHEST_SHORT = ("o2", "o3", "oE", "oN", "tEsc", "tGift", "tLevy", "P", "B")
# Job types, indexed by rules.JOB_REGION .. rules.JOB_OFFICE.
JOB_TYPE_NAMES = ("region", "design", "office")


def action_string(s, player: int, action: int) -> str:
    """A chance outcome's or a player action's string; a seat names its value."""
    if player == pyspiel.PlayerId.CHANCE:
        return chance_string(s, action)
    text = player_action_string(action, s.cfg)
    kind, arg = A.decode(action)
    pos = s.v[PEND_POS]
    if kind == "seat" and pos >= 0 and arg < s.seats_in(pos):
        value, only = s.seat_def(pos, arg)
        text += f" ({value}{'N' if only else ''})"
    return text


def player_action_string(action: int, cfg) -> str:
    """The string of a player action id, without the seat value of the pending region."""
    kind, arg = A.decode(action)
    if kind == "supply":
        e, n = cfg.supply[arg] if arg < len(cfg.supply) else (0, 0)
        return f"supply {arg + 1} ({e}E+{n}N)"
    if kind == "deploy":
        return f"deploy {R.REGION_NAMES[arg]}"
    if kind == "seat":
        return f"seat {arg + 1}"
    if kind == "occupy":
        return "occupy with " + ("envoy" if arg == 0 else "noble")
    if kind == "pay":
        return f"pay {arg} noble(s)"
    if kind == "use":
        return f"use {CHEST_NAMES[R.TURQUOISE[arg]].split()[1]}"
    if kind == "privilege":
        return f"privilege {R.PRIV_NAMES[arg]}"
    if kind == "noble":
        return f"noble to {R.REGION_NAMES[arg]}"
    if kind == "take":
        return f"take from {R.REGION_NAMES[arg]}"
    return "end turn"


# Job cards' printed names by type (rules.JOB_REGION .. JOB_OFFICE) and index, once
_JOB_NAMES = tuple(
    tuple(n.replace("_", " ") for n in names)
    for names in (R.REGION_NAMES, [n for n, _ in R.DESIGN_JOBS], [n for n, _ in R.OFFICE_JOBS])
)


def chance_string(s, outcome: int) -> str:
    if s.phase == REFILL:
        return f"chest: {CHEST_NAMES[outcome]}"
    kind, arg = s.t.steps[s.v[STEP]]
    if kind == ST_REGION:
        return f"region {arg + 1}: {R.REGION_NAMES[outcome]}"
    if kind == ST_TILE:
        return f"point tile {R.POINT_TILES[outcome]}"
    if kind == ST_JOB:  # the card's printed name after the id (the id alone read as a
        # board position; the older "job region 3 for P1" still names it: a unique prefix)
        ty = arg % 3
        name = _JOB_NAMES[ty][outcome]
        return f"job {JOB_TYPE_NAMES[ty]} {outcome} for P{arg // 3 + 1}: {name}"
    if kind == ST_A:
        return f"A tile: {R.REGION_NAMES[outcome]}"
    if kind == ST_B:
        return f"B tile: {R.B_CONDITIONS[outcome]}"
    assert kind == ST_C
    return f"C tile: king moves {outcome}"


def chance_description(s) -> str:
    """What the chance node decides, in a player's words (the engine's ``chance_text``):
    the setup step (state.setup_steps) or the chest space the refill fills next (supply
    spaces, then free seats region by region, rounds.queue_refill)."""
    t = s.t
    if s.phase == REFILL:
        space = s.refill[0]
        if space < t.S:
            return f"the chest for supply space {space + 1}"
        pos, k = divmod(space - t.S, t.K)
        value, only = s.seat_def(pos, k)
        region = R.REGION_NAMES[s.region_at[pos]]
        return f"the chest for {region}'s seat {k + 1} ({value}{'N' if only else ''})"
    kind, arg = t.steps[s.v[STEP]]
    if kind == ST_REGION:
        return f"the region at board position {arg + 1}"
    if kind == ST_TILE:
        return f"the point tile for {R.REGION_NAMES[s.region_at[arg]]}"
    if kind == ST_JOB:
        return f"P{arg // 3 + 1}'s {JOB_TYPE_NAMES[arg % 3]} job card"
    if kind == ST_A:
        if arg == t.cfg.rounds:
            return "the extra A tile (the king's start region)"
        return f"the A tile for round {arg + 1}"
    return f"the {'B' if kind == ST_B else 'C'} tile for round {arg + 1}"


def job_name(card: int) -> str:
    t, i = divmod(card, R.JOB_POOL_MAX)
    if t == R.JOB_REGION:
        return f"region:{R.REGION_NAMES[i]}"
    if t == R.JOB_DESIGN:
        return f"design:{R.DESIGN_JOBS[i][0]}"
    return f"office:{R.OFFICE_JOBS[i][0]}"


def render(s) -> str:
    v = s.v
    t = s.t
    n, k = t.n, t.K
    if s.phase == SETUP:
        return f"Setup step {v[STEP] + 1}/{len(t.steps)}"
    rnd = v[ROUND]
    lines = [
        f"Round {rnd + 1}/{t.cfg.rounds}, king at {R.REGION_NAMES[s.region_at[v[KING]]]}, "
        f"phase {Phase(s.phase).name.lower()}"
    ]
    lines.append(
        f"A: {R.REGION_NAMES[s.a_tiles[rnd]]}, B: {R.B_CONDITIONS[s.b_tiles[rnd]]}"
        + (f", C: {s.c_tiles[rnd]}" if rnd < len(s.c_tiles) else "")
    )
    for pos in range(t.r):
        rid = s.region_at[pos]
        parts = []
        for i, (value, only) in enumerate(t.cfg.seats[rid]):
            o = v[t.seat + pos * k + i]
            who = "." if o < 0 else f"P{(o >> 1) + 1}{'n' if o & 1 else 'e'}"
            ch = v[t.chest + pos * k + i]
            chest = f"[{CHEST_SHORT[ch]}]" if ch >= 0 else ""
            parts.append(f"{value}{'N' if only else ''}:{who}{chest}")
        base = t.pay + pos * n * 2
        pay = " ".join(
            f"P{p + 1}:{v[base + 2 * p]}e{v[base + 2 * p + 1]}n"
            for p in range(n)
            if v[base + 2 * p] or v[base + 2 * p + 1]
        )
        king = "*" if pos == v[KING] else " "
        lines.append(
            f"{king}{R.REGION_NAMES[rid]} {R.POINT_TILES[s.tile_at[pos]]}: {' '.join(parts)}"
            + (f" | pay {pay}" if pay else "")
        )
    sup = []
    for i, (e, nb) in enumerate(t.cfg.supply):
        base = t.supc + i * R.CHEST_KINDS
        ch = ",".join(CHEST_SHORT[x] for x in range(R.CHEST_KINDS) for _ in range(v[base + x]))
        sup.append(f"{e}E{nb}N[{ch}]")
    lines.append("supply: " + " ".join(sup))
    for p in range(n):
        pk = t.privs + p * R.PRIV_KINDS
        privs = ",".join(R.PRIV_NAMES[x] for x in range(R.PRIV_KINDS) if v[pk + x])
        tq = ",".join(
            f"{CHEST_SHORT[R.TURQUOISE[i]]}x{v[t.tq + p * 3 + i]}"
            for i in range(3)
            if v[t.tq + p * 3 + i]
        )
        lines.append(
            f"P{p + 1}: vp {v[t.vp + p]}, court {v[t.court + 2 * p]}e{v[t.court + 2 * p + 1]}n, "
            f"province {v[t.prov + 2 * p]}e{v[t.prov + 2 * p + 1]}n, brown {v[t.brown + p]}"
            + (f", {tq}" if tq else "")
            + (f", privileges {privs}" if privs else "")
        )
    if s.phase == END:
        lines.append("scores: " + " ".join(str(x) for x in S.scores(s)))
        lines.append(
            "jobs: "
            + "; ".join(
                f"P{p + 1} "
                + ",".join(job_name(c) for c in v[t.jobs + p * 3 : t.jobs + p * 3 + 3] if c >= 0)
                for p in range(n)
            )
        )
    else:
        order = v[t.order + v[TI] : t.order + t.F]
        lines.append("to act: " + " ".join(f"P{p + 1}" for p in order))
        lines.append(
            "tracks: supply "
            + "".join(str(p + 1) for p in v[t.sup : t.sup + v[NSUP]])
            + " deploy "
            + "".join(str(p + 1) for p in v[t.dep : t.dep + v[NDEP]])
        )
    return "\n".join(lines)


# ----- the end of a round, for the log (the engine's round_text) -------------------------


def round_text(before, action: int, after) -> str:
    """The log lines for the round the move ``action`` from core ``before`` to core
    ``after`` ended (round_summary); "" when it ended none."""
    return round_summary(after) if round_ended(before, after) else ""


def round_ended(before, after) -> bool:
    """Whether the move from core ``before`` to core ``after`` ended a round (the last
    one ends the game)."""
    return before.phase != END and (after.v[ROUND] != before.v[ROUND] or after.phase == END)


def _figures_text(bonus: str, envoys: int, nobles: int) -> str:
    """The figures a noble or envoys bonus gave (``RegionScore.figures``): fewer than the
    bonus, or an envoy for the noble, when none is left anywhere."""
    if nobles:
        return f"+{nobles} noble"
    if bonus == "noble":
        return "+1 envoy (no noble left to take)" if envoys else "nothing (no figure left)"
    full = R.RULES["regions.bonus_envoys"]
    text = f"+{envoys} envoy{'s' if envoys != 1 else ''}" if envoys else "nothing"
    return text if envoys == full else f"{text} (no more left to take)"


def _bonus_text(bonus: str, region: S.RegionScore) -> str:
    """What a region's bonus gave its majority holder (``RegionScore``, as
    scoring.score_region gave it)."""
    gained = region.gained
    if bonus in ("noble", "envoys"):
        return _figures_text(bonus, *region.figures)
    if bonus == "vp":
        return f"+{gained} VP"
    if bonus == "privilege":
        return "the top VP privilege" if gained else "no VP privilege left"
    per = R.RULES["regions.bonus_presence_vp"]
    return f"+{gained} VP ({per} per region with a seat)"


def _scored_line(c, rnd: int, region: S.RegionScore, why: str) -> str:
    """One scored region: its places and points, the majority counts, the bonus."""
    pos, counts, awards, holder = region.pos, region.counts, region.awards, region.holder
    tile = R.POINT_TILES[c.tile_at[pos]]
    head = (
        f"  end of round {rnd + 1}: {R.REGION_NAMES[c.region_at[pos]]} ({why})"
        f" scores {'/'.join(str(x) for x in tile)}: "
    )
    if holder < 0:
        return head + "nobody holds a seat"
    placed = sorted((p for p in range(c.t.n) if awards[p]), key=lambda p: -awards[p])
    seated = ", ".join(f"P{p + 1} {counts[p]}" for p in range(c.t.n) if counts[p])
    bonus = R.REGION_BONUS[c.region_at[pos]]
    return (
        head
        + ", ".join(f"P{p + 1} +{awards[p]}" for p in placed)
        + f" (majority counts: {seated}); bonus {bonus} to P{holder + 1}:"
        + f" {_bonus_text(bonus, region)}"
    )


def round_summary(c) -> str:
    """The last round end of core ``c`` as log lines, from the record the engine made as it
    scored (``c.scoring``, a scoring.RoundScoring): each region scored (which tile chose
    it, its places and points, the majority counts with nobles doubled, the bonus), the VP
    track, and the king's move (not after the last round). All of it is public: seats,
    tiles, the VP track; no job card is read."""
    done = c.scoring
    rnd = done.round
    b_name = f"B tile {R.B_CONDITIONS[c.b_tiles[rnd]]}"
    why = [f"A tile, {b_name}" if len(done.regions) == 1 else "A tile", b_name]
    lines = [_scored_line(c, rnd, region, why[i]) for i, region in enumerate(done.regions)]
    track = ", ".join(
        f"P{p + 1} {was}" + (f" -> {now}" if now != was else "")
        for p, (was, now) in enumerate(zip(done.vp_before, done.vp_after, strict=True))
    )
    lines.append(f"  VP track: {track}")
    if done.king_to >= 0:
        lines.append(
            f"  the king moves {done.king_move} to {R.REGION_NAMES[c.region_at[done.king_to]]}"
            f" (board position {done.king_to + 1}); round {rnd + 2} begins"
        )
    return "\n".join(lines)


def setup_conventions(s) -> str:
    """The set-up a player at the table needs (the engine's ``setup_text``): how board
    positions count and the seat order."""
    cfg = s.cfg
    regions = ", ".join(R.REGION_NAMES[: cfg.regions])
    return (
        f"set-up: regions {regions}; board positions count clockwise from"
        f" {R.REGION_NAMES[0]} (position 1, fixed); P1 is the first seat, the others follow"
        " in turn order (clockwise)"
    )
