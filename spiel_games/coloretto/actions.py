"""Coloretto action ids.

Player actions (R = number of rows, C = number of colours):

| ids              | action                         | string                      |
|------------------|--------------------------------|-----------------------------|
| 0                | draw the top card              | `draw`                      |
| 1 .. R           | take row r (r = id - 1)        | `take row 2`                |
| R+1 .. 2R        | place the drawn card in row r  | `place yellow in row 2`     |
| 2R+1 .. 2R+C     | assign a taken joker colour c  | `joker as yellow`           |

Chance outcomes are card types: colours 0..C-1, then C = "+2", C+1 = joker,
C+2 = golden joker. Strings: `deck: yellow` for a draw (also the golden
joker's extra reveal), `start: yellow` for a start card, `start player: P2`
for the start-player lot (outcome = player id).
Rows and players are shown 1-based in strings.
"""

from __future__ import annotations

DRAW = 0


class ActionLayout:
    __slots__ = ("rows", "colours", "take0", "place0", "assign0", "num_actions")

    def __init__(self, rows: int, colours: int):
        self.rows = rows
        self.colours = colours
        self.take0 = 1
        self.place0 = 1 + rows
        self.assign0 = 1 + 2 * rows
        self.num_actions = 1 + 2 * rows + colours

    def take(self, row: int) -> int:
        return self.take0 + row

    def place(self, row: int) -> int:
        return self.place0 + row

    def assign(self, colour: int) -> int:
        return self.assign0 + colour

    def decode(self, action: int) -> tuple[str, int]:
        """(kind, argument) for a player action; raises on an id outside the layout."""
        if action == DRAW:
            return "draw", 0
        if self.take0 <= action < self.place0:
            return "take", action - self.take0
        if self.place0 <= action < self.assign0:
            return "place", action - self.place0
        if self.assign0 <= action < self.num_actions:
            return "assign", action - self.assign0
        raise ValueError(
            f"action id {action} is outside Coloretto's layout (0-{self.num_actions - 1})"
        )
