"""Every human-readable Bruxelles 1893 string: action and chance names (pyspiel's
``string_to_action`` inverts ``action_string``), titles of actions, Brussels spaces
and endgame rows, and the text rendering of a position (``str(state)``).

Card, colour, figure and compass names are rules data (``rules.toml``, loaded in
rules.py) and are used from there. The end of a round for the log (the engine's
``round_text``) is in ``text.round_end``.
"""

from __future__ import annotations

from spiel_games.bruxelles import actions as A
from spiel_games.bruxelles import rules as R
from spiel_games.bruxelles.scoring import scores as score_totals
from spiel_games.bruxelles.state import Phase
from spiel_games.common.engine import CHANCE

_ACT = "WSTMC"  # Workshop, Sale, Theater, Materials, Construction
ACTION_TITLES = ("Workshop", "Sale", "Theater", "Materials", "Construction")
BRUSSELS_TITLES = ("Market", "Bourse", "Park", "GrandPlace")
ROW_TITLES = ("4BF", "art", "figure", "assistant")


def render(s) -> str:
    """The position as text, with the scores once the game is over."""
    cfg = s.cfg
    scores = score_totals(s) if s.phase == Phase.END else []
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
    uses = ", ".join(f"{BRUSSELS_TITLES[k]} x{u}" for k, u in enumerate(s.uses) if u)
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
        lines.append("final scores: " + " ".join(str(x) for x in scores))
    return "\n".join(lines)


def _phase(s) -> str:
    name = Phase(s.phase).name.lower()
    if s.actor >= 0 and s.phase != Phase.END:
        return f"{name} (P{s.actor + 1})"
    return name


def _space(s, sp: int) -> str:
    b = s.cfg.board
    return f"r{sp // b + 1}c{sp % b + 1}"


def chance_string(s, o: int) -> str:
    ph = s.phase
    if ph == Phase.C_STRIP:
        return f"strip {o + 1}"
    if ph == Phase.C_COMPASS:
        return f"compass {R.COMPASS[o]}"
    if ph == Phase.C_ART:
        return f"art {R.ART[o]}"
    if ph == Phase.C_FIGURE:
        return f"figure {R.FIGURES[o]}"
    if ph == Phase.C_BONUS:
        return f"bonus {R.BONUS_NAMES[o]}"
    if ph == Phase.C_STOCK:
        return f"stock card {o + 1} ({R.STOCK_VALUES[o]} BF)"
    return f"chance {o}"


POWER_WORDS = {"P": "Royal Palace", "H": "City Hall", "A": "Architect"}


def power_text(option: tuple[str, ...]) -> str:
    """One option of a bonus card's power: "Royal Palace +2", "free 1 assistant"."""
    k = len(option)
    if option[0] == "C":
        return f"free {k} assistant{'s' if k > 1 else ''}"
    return f"{POWER_WORDS[option[0]]} +{k}"


def bonus_details(card: int) -> str:
    """A bonus card's power, VP symbols and Manneken Pis: "Royal Palace +1 or City Hall
    +1, 2 VP symbols"."""
    options, vp, manneken, _ = R.BONUS[card]
    parts = [" or ".join(power_text(opt) for opt in options)]
    if vp:
        parts.append(f"{vp} VP symbol{'s' if vp > 1 else ''}")
    if manneken:
        parts.append(f"{manneken} Manneken Pis")
    return ", ".join(parts)


def option_details(s, player: int, o: int) -> str:
    """A chance outcome's content from the rules data, for the menus (the engine's
    ``option_text``): a strip's actions from the left, a bonus card's power, VP symbols
    and Manneken Pis, a stock card's two shields (row-column, as the shield moves name
    them); "" for the others, whose names say it all."""
    if player != CHANCE:
        return ""
    ph = s.phase
    if ph == Phase.C_STRIP:
        return ", ".join(ACTION_TITLES[x] for x in R.STRIPS[o][: s.cfg.board])
    if ph == Phase.C_BONUS:
        return bonus_details(o)
    if ph == Phase.C_STOCK:
        (r1, c1), (r2, c2) = R.STOCK_SHIELDS[s.n][o]
        return f"shields {r1}-{c1} and {r2}-{c2}"
    return ""


def chance_description(s) -> str:
    """What the chance node decides, in a player's words (the engine's ``chance_text``):
    setup fills the board rows, compass spaces, theater spaces and columns in order
    (rounds.start), a refill the first empty one."""
    ph = s.phase
    if ph == Phase.C_STRIP:
        return f"the strip for board row {len(s.strips) + 1}"
    if ph == Phase.C_COMPASS:
        return f"the tile for compass space {len(s.compass) + 1}"
    if ph == Phase.C_ART:
        p, k, drawn, purpose = s.ctx
        if purpose == 0:
            return f"P{p + 1}'s start work of art"
        total = len(drawn) + k
        return f"P{p + 1}'s Workshop draw" + (f" {len(drawn) + 1} of {total}" if total > 1 else "")
    if ph == Phase.C_FIGURE:
        k = s.display.index(-1)
        return f"the figure for the theater's {R.THEATER_COSTS[k]} BF space"
    if ph == Phase.C_BONUS:
        return f"the bonus card for column {s.strip_bonus.index(-1) + 1}"
    assert ph == Phase.C_STOCK, ph
    return f"round {s.round}'s stock exchange card"


def action_string(s, player: int, a: int) -> str:
    """A readable, unique name for a player action id (uses the state for detail), or
    for the chance player a chance outcome's."""
    if player == CHANCE:
        return chance_string(s, a)
    if a < A.BRUSSELS0:
        title = f" ({ACTION_TITLES[s.acts[a]]})" if s.acts else ""
        return f"place {_space(s, a)}{title}"
    if a < A.PASS:
        return f"brussels {BRUSSELS_TITLES[a - A.BRUSSELS0]}"
    if a == A.PASS:
        return "pass"
    if a == A.SKIP:
        return "skip"
    if a == A.PERFORM:
        return "perform"
    if a < A.KEEP_WORK0:
        return f"park {ACTION_TITLES[a - A.PARK0]}"
    if a < A.SELL0:
        return f"keep {R.ART[a - A.KEEP_WORK0]}"
    if a < A.CURSOR0:
        return f"sell {R.ART[a - A.SELL0]}"
    if a < A.SLOT0:
        r, c = A.cursor_of(a)
        return f"cursor {r},{c}"
    if a < A.THEATER0:
        return f"shop {a - A.SLOT0 + 1}"
    if a < A.ACTIVATE0:
        k = a - A.THEATER0
        fig = s.display[k] if s.phase == Phase.THEATER else -1
        name = f" {R.FIGURES[fig]}" if fig >= 0 else ""
        return f"theater {k}{name} ({R.THEATER_COSTS[k]} BF)"
    if a < A.KEEP_FIG:
        return f"activate {R.FIGURES[a - A.ACTIVATE0]}"
    if a == A.KEEP_FIG:
        return "keep figure"
    if a == A.DISCARD_FIG:
        return "discard figure"
    if a < A.SOLVAY_ONE:
        return f"take {R.CUBES[a - A.NOBLE0]}"
    if a == A.SOLVAY_ONE:
        return "solvay one"
    if a == A.SOLVAY_SWAP:
        return "solvay swap"
    if a < A.NEEDLE0:
        return f"pay {R.PAY[a - A.PAY0]}"
    if a < A.BUILD0:
        return f"needle {a - A.NEEDLE0 + 1}"
    if a < A.NEUTRAL0:
        return f"build {_space(s, a - A.BUILD0)}"
    if a < A.SHIELD0:
        return f"neutral {_space(s, a - A.NEUTRAL0)}"
    if a < A.POWER0:
        k = a - A.SHIELD0
        if s.phase == Phase.SHIELD and s.stock >= 0:
            r, c = R.STOCK_SHIELDS[s.n][s.stock][k]
            return f"shield {k + 1} ({r}-{c})"
        return f"shield {k + 1}"
    if a < A.TUCK0:
        k = a - A.POWER0
        if s.phase == Phase.BONUS:
            return f"bonus power {k + 1} ({''.join(R.BONUS[s.ctx[0]][0][k])})"
        return f"bonus power {k + 1}"
    if a < A.BID0:
        r = a - A.TUCK0
        return f"tuck row {r + 1} ({ROW_TITLES[r]})"
    last = A.num_actions(s.cfg.bid_cap) - 1
    if a <= last:
        return f"bid {a - A.BID0 + 1}"
    raise ValueError(f"action id {a} is outside Bruxelles' layout (0-{last})")


def setup_conventions(s) -> str:
    """The set-up a player at the table needs (the engine's ``setup_text``): the first
    player, the seat order and the order the board is filled in."""
    return (
        "set-up: P1 is the first player, the others follow in turn order (clockwise);"
        " count board rows from the top and bonus columns from the left; compass spaces"
        " 1-6 clockwise from the tile the first needle points at (the needles start on"
        " spaces 1 and 4 and turn clockwise)"
    )
