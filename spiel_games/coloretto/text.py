"""Every human-readable Coloretto string: card and colour names, action and chance
strings (``string_to_action`` is pyspiel's inverse of these), and ``str(state)``.

Rows and players are shown 1-based.
"""

from __future__ import annotations

from spiel_games.coloretto.rules import RULES, Config
from spiel_games.coloretto.scoring import scores
from spiel_games.coloretto.state import ASSIGN, DEAL, DRAW, END, PLACE, PLAY, START, Core
from spiel_games.common.engine import CHANCE

COLOUR_NAMES: tuple[str, ...] = tuple(RULES["deck.colour_names"])
SPECIAL_NAMES = ("+2", "joker", "golden joker")  # card types C, C+1, C+2


def type_name(cfg: Config, t: int) -> str:
    if t < cfg.colours:
        return COLOUR_NAMES[t]
    return SPECIAL_NAMES[t - cfg.colours]


def chance_string(s: Core, outcome: int) -> str:
    if s.phase == DEAL:
        return f"start: {COLOUR_NAMES[outcome]}"
    if s.phase == START:
        return f"start player: P{outcome + 1}"
    return f"deck: {type_name(s.cfg, outcome)}"


def chance_description(s: Core) -> str:
    """What the chance node decides, in a player's words (the engine's ``chance_text``).
    Start cards go to P1 first, each player's ``start_cards`` in a row (phases.apply_deal)."""
    if s.phase == DEAL:
        per = s.cfg.start_cards
        p, k = divmod(len(s.dealt), per)
        return f"P{p + 1}'s start card" + (f" {k + 1} of {per}" if per > 1 else "")
    if s.phase == START:
        return "the start player"
    if s.phase == DRAW:
        drawn = f"the card P{s.cur + 1} draws from the deck"
        if s.last_round and s.deck_size == s.cfg.depth:  # this draw turned it up (apply_play)
            return f"{drawn} (the last-round card came up first: set it aside, last round)"
        return drawn
    return f"the extra card P{s.cur + 1} gets from the deck (golden joker)"


def action_string(s: Core, player: int, action: int) -> str:
    """A move (or, for the chance player, a chance outcome) as text."""
    if player == CHANCE:
        return chance_string(s, action)
    kind, arg = s.layout.decode(action)
    if kind == "draw":
        return "draw"
    if kind == "take":
        return f"take row {arg + 1}"
    if kind == "place":
        card = type_name(s.cfg, s.pending) + " " if s.pending >= 0 else ""
        return f"place {card}in row {arg + 1}"
    return f"joker as {COLOUR_NAMES[arg]}"


def render(s: Core) -> str:
    """The position as text (``str(state)``), with the scores once the game is over."""
    cfg = s.cfg
    lines = [f"Round {s.round}{' (last round)' if s.last_round else ''}, deck {s.deck_size}"]
    for r, row in enumerate(s.rows):
        status = "taken" if (s.taken >> r) & 1 else f"{len(row)}/{cfg.capacities[r]}"
        cards = ", ".join(type_name(cfg, t) for t in row) or "-"
        lines.append(f"row {r + 1} [{status}]: {cards}")
    for p, col in enumerate(s.coll):
        parts = [f"{type_name(cfg, t)} x{k}" for t, k in enumerate(col[: cfg.colours]) if k]
        if col[cfg.plus2_type]:
            parts.append(f"+2 x{col[cfg.plus2_type]}")
        if col[cfg.joker_type]:
            parts.append(f"joker x{col[cfg.joker_type]}")
        mark = " (done)" if (s.done >> p) & 1 else ""
        lines.append(f"P{p + 1}{mark}: {', '.join(parts) or '-'}")
    if s.phase == PLACE:
        lines.append(f"P{s.cur + 1} places {type_name(cfg, s.pending)}")
    elif s.phase == ASSIGN:
        lines.append(f"P{s.cur + 1} assigns {s.to_assign} joker(s)")
    elif s.phase == END:
        lines.append("scores: " + " ".join(str(x) for x in scores(s)))
    elif s.phase == PLAY:
        lines.append(f"P{s.cur + 1} to move")
    return "\n".join(lines)


def setup_conventions(c) -> str:
    """The set-up a player at the table needs (the engine's ``setup_text``): which
    colours are in the deck (the rules remove colours at 2 and 3 players: the last of
    rules.toml's colour list) and the seat order."""
    cfg = c.cfg
    shown = ", ".join(COLOUR_NAMES[: cfg.colours])
    removed = COLOUR_NAMES[cfg.colours :]
    out = f"set-up: {cfg.colours} colours in the deck ({shown})"
    if removed:
        out += f"; {', '.join(removed)} left out of the box"
    return out + "; P1 is the first seat, the others follow in turn order (clockwise)"
