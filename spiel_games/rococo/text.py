"""Every human-readable Rococo string: names of main actions, tile uses, bonuses and
decoration kinds, action strings (`action_string`), the menus' option details
(`option_details`: what a dress needs and brings, what an employee card's bonus does, from
the rules data only; the names stay what a player types) and the omniscient rendering
(`render`)."""

from __future__ import annotations

from functools import lru_cache

import pyspiel

from spiel_games.rococo import rules as R
from spiel_games.rococo.scoring import breakdown
from spiel_games.rococo.state import (
    PH_DRESSFILL,
    PH_END,
    PH_EXAMDRAW,
    PH_JEWELFILL,
    PH_MAKE,
    PH_REVEAL,
    PH_STACKDRAW,
    PH_START,
    PH_WAREFILL,
    Phase,
)

# Indexed by the MAIN option ids of actions.py (FAVOR .. SKIP).
MAIN_NAMES = (
    "queen's favor",
    "acquire resources",
    "make a dress",
    "hire an employee",
    "depute the employee",
    "fund a decoration",
    "skip the main action",
)
# Indexed by the USE option ids of actions.py (KEEP .. TO_BOTH).
USE_NAMES = ("keep tile as silk", "convert to yarn", "convert to lace", "convert to yarn+lace")
# Employee bonuses by their rules.toml key (rules.BONUS_NAMES).
BONUS_TEXT = {
    "none": "no bonus",
    "extra_acquire": "one more Acquire Resources",
    "yarn_or_lace_pay1": "pay 1 Livre for 1 yarn or 1 lace",
    "gain2": "gain 2 Livre",
    "gain1": "gain 1 Livre",
    "depute_use": "depute a deck card and use its bonus",
    "stack_tile_pay1": "pay 1 Livre for a face-down stack tile",
    "stack_tile_free": "a free face-down stack tile",
    "yarn_or_lace_free": "1 yarn or 1 lace",
    "money_yellow_red": "1 Livre per own yellow, 2 per own red dress",
    "extra_dress_yg": "one more Make a Dress, 1 yellow/green bale less",
    "depute_money": "depute a deck card for 8/5/2 Livre",
    "prestige_deco2": "1 prestige per 2 own decorations",
    "money_deco": "1 Livre per own decoration",
    "prestige_dress3": "1 prestige per 3 own dresses",
    "extra_fund5": "one more Fund a Decoration, 5 Livre less",
    "money_deck": "2/6/10/14 Livre by deck size",
    "money_deck_small": "1/3/5/7 Livre by deck size",
    "extra_dress_red": "one more Make a Dress, up to 2 red bales less",
    "green_blue": "2 Livre per own green dress, 1 prestige per own blue dress",
    "buy_prestige4": "1 prestige per 4 Livre paid",
    "money_dress": "1 Livre per own dress",
    "tiles_prestige": "discard tiles for prestige",
    "prestige_dress2": "1 prestige per 2 own dresses",
    "buy_prestige3": "1 prestige per 3 Livre paid",
    "extra_fund10": "one more Fund a Decoration, 10 Livre less",
    "crown_deck": "end: 2/5/8/11 prestige by deck size",
    "crown_yarn_lace": "end: 3 prestige per yarn+lace pair",
    "crown_master_spaces": "end: 3 prestige per 2 dresses on Master spaces",
    "crown_pairs": "end: 2 prestige per lady+man dress pair",
    "sell_dress_free": "one more Make a Dress without the window cost; it must be sold",
    "money_jewel2": "2 Livre per own piece of jewellery",
    "jewel_buy": "buy 1 piece from the jeweller at its price",
    "acquire_free": "one more Acquire Resources, free of charge",
    "yarn_and_lace": "gain 1 yarn and 1 lace",
    "money_colours": "2 Livre per main colour among own dresses",
    "money_halls": "1 Livre per hall where you are present",
    "extra_fund3": "one more Fund a Decoration, 3 Livre less",
    "money_master_spaces": "2 Livre per own dress on a Master guest space",
    "prestige_jewel": "1 prestige per own piece of jewellery",
    "extra_dress_master": "one more Make a Dress, a Master dress allowed",
    "prestige_halls2": "1 prestige per 2 halls where you are present",
    "prestige_colours": "1 prestige per main colour among own dresses",
    "hire_extra": "one more Hire an Employee at the normal price",
    "prestige_master_spaces": "1 prestige per own dress on a Master guest space",
    "money_dress_jewel": "1 Livre per own dress and per own piece of jewellery",
    "jewel_free": "take 1 piece from the jeweller free of charge",
    "extra_fund8": "one more Fund a Decoration, 8 Livre less",
}
# Decoration kinds, indexed by rules.FIREWORKS .. rules.FOUNTAIN_LOW.
DECO_KIND_NAMES = ("fireworks", "musician", "statue", "fountain-upper", "fountain-lower")


def guest_name(cfg, g: int) -> str:
    gs = cfg.guests
    hall = gs[g].hall
    i = sum(1 for x in gs[:g] if x.hall == hall) + 1
    return f"{R.HALL_NAMES[hall]} guest {i}{' (Master)' if gs[g].master else ''}"


def deco_name(cfg, d: int) -> str:
    x = cfg.decos[d]
    if x.kind == R.MUSICIAN:
        return f"musician of {R.HALL_NAMES[x.index]}"
    return f"{DECO_KIND_NAMES[x.kind]} {x.index + 1}"


_EXAMS = ("journeyman's", "master's")


def chance_description(c) -> str:
    """What the chance node decides, in a player's words (the engine's ``chance_text``):
    which space a draw fills, as rounds.py fills them (the first warehouse segment with
    room, the rightmost empty window, the cheapest empty jeweller space)."""
    ph = c.phase
    if ph == PH_START:
        return "the start player"
    if ph == PH_REVEAL:
        shown = len(c.display)
        return f"employee card {shown + 1} of {shown + c.need_sel} for hire"
    if ph == PH_WAREFILL:
        seg = next(i for i, x in enumerate(c.ware) if len(x) < c.cfg.segment_size)
        size = c.cfg.segment_size
        return f"the tile for warehouse segment {seg + 1}, tile {len(c.ware[seg]) + 1} of {size}"
    if ph == PH_DRESSFILL:
        w = max(i for i, d in enumerate(c.windows) if d < 0)
        return f"the dress for workshop window {w + 1}"
    if ph == PH_STACKDRAW:
        return f"P{c.cur + 1}'s face-down stack tile"
    if ph == PH_JEWELFILL:
        return f"the jewellery for jeweller space {c.jdisp.count(-1)}"
    assert ph == PH_EXAMDRAW, ph
    shown = len(c.xoffer)
    exam = _EXAMS[c.xside[c.cur]]
    return f"exam card {shown + 1} of {shown + c.xneed} shown at P{c.cur + 1}'s {exam} exam"


def action_string(c, player: int, action: int) -> str:
    """A move (or, for the chance player, a chance outcome) as text."""
    cfg = c.cfg
    lay = c.lay
    if player == pyspiel.PlayerId.CHANCE:
        ph = c.phase
        if ph == PH_START:
            return f"start player: P{action + 1}"
        if ph == PH_REVEAL:
            return f"reveal {R.CARDS[action].name}"
        if ph == PH_WAREFILL:
            return f"warehouse tile {R.TILES[action].code}"
        if ph == PH_STACKDRAW:
            return f"stack tile {R.TILES[action].code}"
        if ph == PH_JEWELFILL:
            return f"jeweller piece {R.JEWEL_NAMES[action]}"
        if ph == PH_EXAMDRAW:
            return f"exam card {R.CARDS[action].name}"
        return f"workshop dress {R.DRESSES[action].name}"
    block, a = lay.decode(action)
    if block == "select":
        return f"select {R.CARDS[a].name}"
    if block == "play":
        return f"play {R.CARDS[a].name}"
    if block == "main":
        return f"main: {MAIN_NAMES[a]}"
    if block == "take":
        return f"take {R.TILES[a % R.NUM_TILES].code} from segment {a // R.NUM_TILES + 1}"
    if block == "use":
        return USE_NAMES[a]
    if block == "make":
        d = c.windows[a] if c.phase == PH_MAKE and a < len(c.windows) else -1
        name = R.DRESSES[d].name if d >= 0 else "dress"
        cost = 0 if c.mod == "sell" and c.phase == PH_MAKE else cfg.window_costs[a]
        return f"make {name} at window {a + 1} ({cost} Livre)"
    if block == "pay":
        return f"pay with tile {R.TILES[a].code}"
    if block == "place":
        return f"rent to {guest_name(cfg, a)}"
    if block == "sell":
        money = R.DRESSES[c.dress].money if c.dress >= 0 else 0
        return f"sell for {money} Livre"
    if block == "hire":
        return f"hire {R.CARDS[a].name}"
    if block == "fund":
        return f"fund {deco_name(cfg, a)} ({max(0, cfg.decos[a].cost - c.discount)} Livre)"
    if block == "bonus":
        text = BONUS_TEXT[R.BONUS_NAMES[R.CARDS[c.bcard].bonus]] if c.bcard >= 0 else "bonus"
        return f"use bonus: {text}" if a == 0 else "skip bonus"
    if block == "yarnlace":
        return "take lace" if a else "take yarn"
    if block == "depute":
        return f"depute {R.CARDS[a].name}"
    if block == "depute_hand":
        return f"depute {R.CARDS[a].name} from hand"
    if block == "buy":
        return f"pay {c.rate} Livre for 1 prestige"
    if block == "discard":
        return f"discard tile {R.TILES[a].code} for prestige"
    if block == "done":
        return "done"
    if block == "jewel":
        kind = c.jdisp[a] if a < len(c.jdisp) else -1
        name = R.JEWEL_NAMES[kind] if kind >= 0 else "jewellery"
        price = "free" if c.jmode == 3 else f"{c.tab.jprices[a]} Livre"
        return f"buy {name} at jeweller space {a + 1} ({price})"
    if block == "nojewel":
        return "no jewellery"
    if block == "exam":
        return "main: pass the exam"
    if block == "xpick":
        return f"take exam card {R.CARDS[a].name}"
    return f"terrace: {guest_name(cfg, a)}"


# ----- option details for the menus (the engine's option_text) ---------------------------
_LETTERS = "YGRB"  # the bale colours as the tile codes write them (yellow green red blue)
_CARD_BLOCKS = ("select", "play", "hire", "depute", "depute_hand", "xpick")


def dress_details(d: int) -> str:
    """ "bales RRY + 1 yarn, sells for 6 Livre, 2 prestige" (a thimble: Master only; a
    Festivity dress: never sold, its one-time prestige)."""
    x = R.DRESSES[d]
    bales = "".join(_LETTERS[c] * k for c, k in enumerate(x.bales))
    extra = [f"{k} {what}" for k, what in ((x.yarn, "yarn"), (x.lace, "lace")) if k]
    needs = " + ".join([f"bales {bales}", *extra])
    if x.festive:
        worth = f"never sold, {x.festive} prestige once made"
    else:
        worth = f"sells for {x.money} Livre, {x.prestige} prestige"
    thimble = ", thimble: a Master makes it" if x.thimble else ""
    return f"{needs}, {worth}{thimble}"


def card_details(k: int) -> str:
    """An employee card's bonus in words ("gain 1 Livre")."""
    return BONUS_TEXT[R.BONUS_NAMES[R.CARDS[k].bonus]]


def option_details(c, player: int, action: int) -> str:
    """The details of one option at ``c``: a dress drawn for a window or made at one, an
    employee card revealed, drawn, selected, played, hired or deputed; "" otherwise."""
    if player == pyspiel.PlayerId.CHANCE:
        if c.phase == PH_DRESSFILL:
            return dress_details(action)
        if c.phase in (PH_REVEAL, PH_EXAMDRAW):
            return card_details(action)
        return ""
    block, a = c.lay.decode(action)
    if block in _CARD_BLOCKS:
        return card_details(a)
    if block == "make" and c.phase == PH_MAKE and a < len(c.windows) and c.windows[a] >= 0:
        return dress_details(c.windows[a])
    return ""


def jeweller_text(c) -> str:
    """The jeweller's spaces, dearest first: piece and price, or '-' when empty."""
    return " | ".join(
        f"{R.JEWEL_NAMES[k]} ({price} L)" if k >= 0 else f"- ({price} L)"
        for k, price in zip(c.jdisp, c.tab.jprices, strict=True)
    )


EXAM_SIDES = ("journeyman's exam", "master's exam")
EXAM_TASKS = (
    tuple(R.RULES["jewelry.exams.journeyman_tasks"]),
    tuple(R.RULES["jewelry.exams.master_tasks"]),
)


def exam_text(c, p: int) -> str:
    side, bits = c.xside[p], c.xbits[p]
    done = [t for i, t in enumerate(EXAM_TASKS[side]) if bits >> i & 1]
    return f"{EXAM_SIDES[side]}, done: {', '.join(done) or '-'}"


def exams_text(c) -> str:
    return "exams: " + "; ".join(f"P{p + 1} {exam_text(c, p)}" for p in range(c.cfg.players))


def jewels_text(counts) -> str:
    parts = [
        f"{R.JEWEL_NAMES[k]}{' x' + str(m) if m > 1 else ''}" for k, m in enumerate(counts) if m
    ]
    return ", ".join(parts) or "-"


@lru_cache(maxsize=8192)
def _cards(counts: tuple) -> str:
    return (
        ", ".join(
            f"{R.CARDS[k].name}{' x' + str(n) if n > 1 else ''}" for k, n in enumerate(counts) if n
        )
        or "-"
    )


@lru_cache(maxsize=8192)
def _tiles(counts: tuple) -> str:
    return (
        " ".join(
            f"{R.TILES[t].code}{'x' + str(n) if n > 1 else ''}" for t, n in enumerate(counts) if n
        )
        or "-"
    )


def render(c) -> str:
    """A full (omniscient) description of the position."""
    cfg = c.cfg
    lines = [
        f"Round {c.round}/{cfg.rounds}, phase {Phase(c.phase).name.lower()}, "
        f"start P{c.start + 1}, favor {'P' + str(c.favor + 1) if c.favor >= 0 else 'free'}"
    ]
    lines.append("display: " + (", ".join(R.CARDS[k].name for k in c.display) or "-"))
    lines.append(
        "warehouse: " + " | ".join(" ".join(R.TILES[t].code for t in seg) or "-" for seg in c.ware)
    )
    lines.append(
        "windows: "
        + " | ".join(
            f"{R.DRESSES[d].name}({cfg.window_costs[w]})" if d >= 0 else "-"
            for w, d in enumerate(c.windows)
        )
    )
    placed = [
        f"{guest_name(cfg, g)}: P{o + 1} {R.DRESSES[c.gdress[g]].name}"
        for g, o in enumerate(c.gown)
        if o >= 0
    ]
    lines.append("guests: " + ("; ".join(placed) or "-"))
    decos = [f"{deco_name(cfg, d)}: P{o + 1}" for d, o in enumerate(c.deco) if o >= 0]
    lines.append("decorations: " + ("; ".join(decos) or "-"))
    if any(o >= 0 for o in c.allh):
        lines.append("all halls: " + ", ".join(f"P{o + 1}" for o in c.allh if o >= 0))
    if cfg.jewelry:
        lines.append(f"jeweller: {jeweller_text(c)}; face down {jewels_text(c.jstack)}")
        lines.append(
            "jewellery: " + "; ".join(f"P{p + 1} {jewels_text(v)}" for p, v in enumerate(c.jewels))
        )
        lines.append(exams_text(c))
        lines.append("specialists: " + (", ".join(R.CARDS[k].name for k in c.spec) or "-"))
        if c.xoffer:
            lines.append("exam cards shown: " + ", ".join(R.CARDS[k].name for k in c.xoffer))
    for p in range(cfg.players):
        lines.append(
            f"P{p + 1}: {c.money[p]} Livre, yarn {c.yarn[p]}, lace {c.lace[p]}, prestige {c.prestige[p]}; "
            f"tiles {_tiles(c.tpub[p])} secret {_tiles(c.tsec[p])}; hand {_cards(c.hand[p])}; "
            f"supply {_cards(c.supply[p])}; discard {_cards(c.discard[p])}"
        )
    if c.card >= 0:
        lines.append(f"P{c.cur + 1} plays {R.CARDS[c.card].name}")
    if c.dress >= 0:
        lines.append(f"making {R.DRESSES[c.dress].name}, silk still needed {c.need}")
    if c.pend >= 0:
        lines.append(f"tile in hand: {R.TILES[c.pend].code}{' (secret)' if c.pend_secret else ''}")
    if c.phase == PH_END:
        lines.append("final prestige: " + " ".join(str(sum(b.values())) for b in breakdown(c)))
    elif c.phase not in (
        PH_START,
        PH_REVEAL,
        PH_WAREFILL,
        PH_DRESSFILL,
        PH_STACKDRAW,
        PH_JEWELFILL,
        PH_EXAMDRAW,
    ):
        lines.append(f"P{c.cur + 1} to move")
    return "\n".join(lines)


def setup_conventions(c) -> str:
    """The set-up a player at the table needs (the engine's ``setup_text``): how the
    workshop windows and warehouse segments are numbered, and the seat order."""
    cfg = c.cfg
    n = len(cfg.window_costs)
    costs = ", ".join(str(k) for k in cfg.window_costs)
    return (
        f"set-up: workshop windows 1-{n} cost {costs} Livre, filled from window {n};"
        f" warehouse segments of {cfg.segment_size} tiles,"
        " filled from segment 1; seats P1, P2, ... in turn order (clockwise), the start"
        " player is entered"
    )
