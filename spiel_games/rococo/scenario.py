"""Helpers to build Rococo positions for scenario tests and demos.

Positions are reached by playing the real rules: chance nodes are driven with
scripted outcomes (``drive``) and player moves are applied by their readable
strings (``play``, shared by every game: spiel_games.common.naming). To shorten
set-ups, ``give`` and ``place_dress`` / ``set_deco`` overwrite holdings or board facts
directly; they are test set-up tools, not a rules path, and the moves made afterwards
go through the rules. Each setter edits ``state.own_core()``, the position made
private and with nothing cached.

    s = start(2, start_player=0)               # round 1 prepared, selection next
    select_all(s)                               # everyone picks the first cards
    give(s, 0, hand={card("gain2"): 1}, money=20)
    play(s, "play L1 Apprentice (gain1)")
"""

from __future__ import annotations

import pyspiel

import spiel_games.rococo  # noqa: F401  (registers the game)
from spiel_games.common.naming import legal_strings, play
from spiel_games.rococo import rules as R
from spiel_games.rococo.state import Phase, put
from spiel_games.rococo.text import BONUS_TEXT

__all__ = [
    "REST",
    "jewelry_turn",
    "use_text",
    "APPR_2",
    "APPR_YL",
    "JOURNEYMAN",
    "MASTER",
    "finish_round_skipping",
    "money",
    "only_window",
    "turn",
    "card",
    "clear_windows",
    "deco",
    "dress",
    "drive",
    "give",
    "guest",
    "jewel",
    "legal_strings",
    "place_dress",
    "play",
    "select_all",
    "set_board",
    "set_deco",
    "set_exam",
    "set_warehouse",
    "set_window",
    "start",
    "tile",
]


def card(key: str) -> int:
    """Card id by bonus name (hireable cards) or by exact card name."""
    for k, c in enumerate(R.CARDS):
        if c.name == key or (k >= 4 and R.BONUS_NAMES[c.bonus] == key):
            return k
    raise KeyError(key)


def tile(code: str) -> int:
    return next(t for t, x in enumerate(R.TILES) if x.code == code)


def jewel(name: str) -> int:
    """Jewellery kind by name, e.g. "red necklace"."""
    return R.JEWEL_NAMES.index(name)


def dress(name: str) -> int:
    return next(d for d, x in enumerate(R.DRESSES) if x.name == name)


def guest(state, hall: int, i: int) -> int:
    """Guest space id of the i-th space (0 = the Master space) of a hall."""
    gs = state._s.cfg.guests
    return [g for g, x in enumerate(gs) if x.hall == hall][i]


def deco(state, kind: int, index: int = 0) -> int:
    return next(d for d, x in enumerate(state._s.cfg.decos) if x.kind == kind and x.index == index)


def drive(state, outcomes=()) -> None:
    """Apply the scripted chance outcomes in order while at chance nodes; once they run
    out, apply the first possible outcome of each remaining chance node."""
    todo = list(outcomes)
    while state.is_chance_node():
        possible = [a for a, _ in state.chance_outcomes()]
        if todo:
            a = todo.pop(0)
            if a not in possible:
                raise ValueError(f"scripted outcome {a} not possible: {possible}")
        else:
            a = possible[0]
        state.apply_action(a)
    if todo:
        raise ValueError(f"unused scripted outcomes {todo}")


def start(players: int = 2, start_player: int = 0, reveal=(), tiles=(), dresses=(), **params):
    """A new game driven to the first player decision of round 1 (hand selection)."""
    args = ",".join([f"players={players}"] + [f"{k}={v}" for k, v in params.items()])
    state = pyspiel.load_game(f"python_rococo({args})").new_initial_state()
    state.apply_action(start_player)
    drive(state, list(reveal) + list(tiles) + list(dresses))
    return state


def select_all(state) -> None:
    """Every player selects the first legal cards until the action phase starts."""
    while state._s.phase == Phase.SELECT:
        state.apply_action(state.legal_actions()[0])
    drive(state)


def give(
    state,
    player: int,
    *,
    money=None,
    yarn=None,
    lace=None,
    tiles=None,
    secret=None,
    hand=None,
    supply=None,
    discard=None,
    known=None,
    jewels=None,
) -> None:
    """Overwrite a player's holdings (set-up only). Card/tile/jewellery dicts map id -> count."""
    c = state.own_core()
    if money is not None:
        c.money = put(c.money, player, money)
    if yarn is not None:
        c.yarn = put(c.yarn, player, yarn)
    if lace is not None:
        c.lace = put(c.lace, player, lace)
    if tiles is not None:
        c.tpub = put(c.tpub, player, _vec(tiles, R.NUM_TILES))
    if secret is not None:
        c.tsec = put(c.tsec, player, _vec(secret, R.NUM_TILES))
    if hand is not None:
        c.hand = put(c.hand, player, _vec(hand, c.cfg.num_cards))
        c.known = put(c.known, player, _vec(known or {}, c.cfg.num_cards))
    if supply is not None:
        c.supply = put(c.supply, player, _vec(supply, c.cfg.num_cards))
    if discard is not None:
        c.discard = put(c.discard, player, _vec(discard, c.cfg.num_cards))
    if jewels is not None:
        c.jewels = put(c.jewels, player, _vec(jewels, len(R.JEWEL_NAMES)))


def place_dress(state, g: int, owner: int, dress_id: int) -> None:
    """Put a rented dress on guest space g (set-up only)."""
    c = state.own_core()
    c.gown = put(c.gown, g, owner)
    c.gdress = put(c.gdress, g, dress_id)


def set_deco(state, d: int, owner: int) -> None:
    c = state.own_core()
    c.deco = put(c.deco, d, owner)


_BOARD_SLOTS = {
    "display": "display",
    "warehouse": "ware",
    "windows": "windows",
    "all_halls": "allh",
    "favor": "favor",
    "bag": "bag",
    "dress_discard": "ddisc",
    "tile_stack": "tstack",
    "tile_discard": "tdisc",
    "jeweller": "jdisp",
    "jewel_stack": "jstack",
    "specialists": "spec",
    "exam_pools": "xpool",
    "employee_stack": "emp",
}


def set_exam(state, player: int, side: int = 0, tasks: int = 0) -> None:
    """Turn a player's exam card to `side` (0 journeyman's, 1 master's) with the task
    bits `tasks` done (set-up only)."""
    c = state.own_core()
    c.xside = put(c.xside, player, side)
    c.xbits = put(c.xbits, player, tasks)


def set_board(state, **facts) -> None:
    """Overwrite shared facts by their `board()` names (set-up only); vectors as tuples."""
    c = state.own_core()
    for name, value in facts.items():
        if name not in _BOARD_SLOTS:
            raise KeyError(f"set_board cannot set {name!r}; settable: {sorted(_BOARD_SLOTS)}")
        setattr(c, _BOARD_SLOTS[name], tuple(value) if isinstance(value, list) else value)


def drop_caches(state) -> None:
    """Forget what the core cached for the position (legal ids, observer outputs), so
    the next ones are computed afresh (for tests of the caches)."""
    state.own_core()


def clear_windows(state) -> None:
    c = state.own_core()
    c.windows = (-1,) * len(c.windows)


def set_window(state, w: int, dress_id: int) -> None:
    c = state.own_core()
    c.windows = put(c.windows, w, dress_id)


def set_warehouse(state, segments) -> None:
    state.own_core().ware = tuple(tuple(sorted(seg)) for seg in segments)


def _vec(d: dict, n: int) -> tuple:
    v = [0] * n
    for k, m in d.items():
        v[k] = m
    return tuple(v)


# ----- positions the scenario tests share ---------------------------------------------------
# The base cards by name.
MASTER, JOURNEYMAN = "base Master", "base Journeyman"
APPR_YL, APPR_2 = "base Apprentice (yarn/lace)", "base Apprentice (2 Livre)"


def turn(key: str, players: int = 2, **holdings):
    """Round 1, start player P1 about to choose the main action of card `key`."""
    s = start(players)
    select_all(s)
    assert s.current_player() == 0
    k = card(key)
    holdings.setdefault("supply", {card(MASTER): 2, card(JOURNEYMAN): 1, card(APPR_2): 1})
    give(s, 0, hand={k: 1}, **holdings)
    play(s, f"play {R.CARDS[k].name}")
    return s


def only_window(s, w: int, name: str) -> None:
    """Empty the workshop except window w (0-based), which shows dress `name`."""
    clear_windows(s)
    set_window(s, w, dress(name))


def money(s, p=0):
    """Player p's Livre."""
    return s.holdings(p)["money"]


def finish_round_skipping(s):
    """Every player skips main action and bonus until the next round's first chance node."""
    r = s.board()["round"]
    while s.board()["round"] == r and not s.is_terminal():
        if s.is_chance_node():
            drive(s)
            continue
        options = legal_strings(s)
        for text in ("skip bonus", "main: skip the main action", "done"):
            if text in options:
                play(s, text)
                break
        else:
            s.apply_action(s.legal_actions()[0])


# A player's starting cards other than the one a test hands out.
REST = {card(MASTER): 2, card(JOURNEYMAN): 1, card(APPR_2): 1}


def jewelry_turn(key: str, main: str = "main: skip the main action", **holdings):
    """P1 (jewelry=true, 2 players) plays card `key` (a bonus name or a card name), then
    does `main`."""
    s = start(2, jewelry="true")
    select_all(s)
    k = card(key)
    holdings.setdefault("supply", dict(REST))
    give(s, 0, hand={k: 1}, **holdings)
    play(s, f"play {R.CARDS[k].name}", main)
    return s


def use_text(key: str) -> str:
    """The action string that uses bonus `key`."""
    return "use bonus: " + BONUS_TEXT[key]
