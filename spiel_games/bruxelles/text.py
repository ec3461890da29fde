"""A readable text rendering of a Bruxelles 1893 position (``str(state)``)."""

from __future__ import annotations

from spiel_games.bruxelles import rules as R
from spiel_games.bruxelles.core import Phase

_ACT = "WSTMC"  # Workshop, Sale, Theater, Materials, Construction


def render(state) -> str:
    s = state._s
    cfg = s.cfg
    b = cfg.board
    lines = [f"Round {s.round}/{cfg.rounds}, first player P{s.first + 1}, phase {_phase(s)}"]
    if s.stock >= 0:
        lines.append(f"stock card {s.stock + 1} ({R.STOCK_VALUES[s.stock]} BF)")
    if s.acts:
        for r in range(b):
            cells = []
            for c in range(b):
                sp = r * b + c
                mark = "*" if (s.area >> sp) & 1 else " "
                occ = s.occ[sp]
                who = "." if occ < 0 else ("N" if occ == s.n else str(occ + 1))
                bld = "" if s.bld[sp] < 0 else f"#{s.bld[sp] + 1}"
                bid = f"${s.bids[sp]}" if s.bids[sp] else ""
                cells.append(f"{mark}{_ACT[s.acts[sp]]}{who}{bid}{bld}".ljust(8))
            lines.append(" ".join(cells))
        lines.append(
            "bonus: " + " ".join(R.BONUS_NAMES[t] if t >= 0 else "-" for t in s.strip_bonus)
        )
    lines.append(
        "theater: "
        + " ".join(
            f"{R.FIGURES[f]}({R.THEATER_COSTS[k]})" if f >= 0 else "-"
            for k, f in enumerate(s.display)
        )
    )
    shop = " ".join(R.ART[c] if c >= 0 else "-" for c in s.shop)
    lines.append(f"shop: {shop}; cursor {s.cursor[0]},{s.cursor[1]}")
    if len(s.compass) == len(R.COMPASS):
        lines.append(
            f"compass needles: {R.COMPASS[s.compass[s.needles[0]]]}"
            f" / {R.COMPASS[s.compass[s.needles[1]]]}"
        )
    uses = ", ".join(f"{R.BRUSSELS_TITLES[k]} x{u}" for k, u in enumerate(s.uses) if u)
    if uses:
        lines.append(f"brussels: {uses}")
    for p in range(s.n):
        works = ",".join(f"{R.ART[c]}{k}" for c, k in enumerate(s.works[p]) if k) or "-"
        cubes = ",".join(f"{R.CUBES[c]}{k}" for c, k in enumerate(s.cubes[p]) if k) or "-"
        figs = (
            ",".join(
                R.FIGURES[f] + ("'" if (s.rot[p] >> f) & 1 else "")
                for f in range(len(R.FIGURES))
                if (s.kept[p] >> f) & 1
            )
            or "-"
        )
        flag = " passed" if (s.passed >> p) & 1 else ""
        lines.append(
            f"P{p + 1}{flag}: {s.money[p]} BF, {s.vp[p]} VP, hall {s.hall[p] + 1}, "
            f"palace {s.palace[p] + 1}, architect {s.arch[p] + 1}, assistants {s.supply[p]} "
            f"(court {s.court[p]}), built {s.built[p]}, exhib {s.exhib[p]}, works {works}, "
            f"cubes {cubes}, figures {figs}, rows {'/'.join(map(str, s.rows[p]))}"
        )
    if s.phase == Phase.END:
        lines.append("final scores: " + " ".join(str(x) for x in state.scores()))
    return "\n".join(lines)


def _phase(s) -> str:
    name = Phase(s.phase).name.lower()
    if s.actor >= 0 and s.phase != Phase.END:
        return f"{name} (P{s.actor + 1})"
    return name
