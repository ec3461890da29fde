"""Bruxelles 1893 action ids: one fixed layout, bids last (their count depends on the
configuration: any affordable bid has an id).

Compound choices are sequences of simple actions (space, then bid, then whether
to perform, then each sub-choice). Spaces are numbered row-major on the
board x board Art Nouveau board (id = row * board + column); cursor positions are
the 5x5 possible centres of the 3x3 workshop cursor.

| ids       | action                                              | string example              |
|-----------|-----------------------------------------------------|-----------------------------|
| 0-24      | place an assistant on space s                       | `place r2c3 (Sale)`         |
| 25-28     | Brussels action: Market, Bourse, Park, Grand Place  | `brussels Market (1)`       |
| 29        | pass                                                | `pass`                      |
| 30        | skip / stop (decline an optional step)              | `skip`                      |
| 31        | perform the action of the space just taken          | `perform Sale`              |
| 32-36     | Park: perform action a (Workshop..Construction)     | `park Workshop`             |
| 37-41     | Workshop: keep a drawn work of colour c             | `keep pink`                 |
| 42-46     | Sale: sell a work of colour c                       | `sell black`                |
| 47-71     | Sale: move the cursor centre to (r, c), r,c in 1..5 | `cursor 2,4`                |
| 72-73     | Sale: put the sold work on shop space 1 or 2        | `shop 1`                    |
| 74-77     | Theater: take the figure on display space 0..3      | `theater 2 Buls (2 BF)`     |
| 78-85     | activate an upright kept figure f                   | `activate Solvay`           |
| 86-87     | keep / discard the figure just used                 | `keep figure`, `discard figure` |
| 88-90     | take one noble cube: wood, stone, iron              | `take iron`                 |
| 91-92     | Solvay: one noble cube / swap a joker for two       | `solvay one`, `solvay swap` |
| 93-97     | pay one construction unit: wood, stone, iron, 3BF, joker | `pay 3BF`              |
| 98-99     | turn compass needle 1 or 2                          | `needle 1`                  |
| 100-124   | build on space s                                    | `build r1c5`                |
| 125-149   | place the neutral assistant on space s (2 players)  | `neutral r3c3`              |
| 150-151   | Stock Exchange: choose the card's shield 1 or 2     | `shield 2-3`                |
| 152-153   | bonus card: use power option 1 or 2                 | `bonus P (Royal Palace)`    |
| 154-157   | bonus card: tuck under endgame row 1..4             | `tuck row 2 (art)`          |
| 158-...   | bid 1..cap BF (``Config.bid_cap``; ids end at it)   | `bid 12`                    |

Move log tokens (``state.log_tokens``): a player action is its id; a public chance
outcome o is CHANCE_TOKEN + o; a hidden event (a Workshop draw, shown only to its
drawer, or a kept work with ``private_works``) is HIDDEN_TOKEN + that player.

Chance outcomes (ids below max_chance_outcomes): strip id (setup, row by row),
compass tile (setup, position by position), work colour (start works, workshop
draws; a workshop draw is shown only to the drawer), figure id (theater
display), bonus card type (bonus strip), stock card id.
"""

from __future__ import annotations

PLACE0 = 0
BRUSSELS0 = 25
PASS = 29
SKIP = 30
PERFORM = 31
PARK0 = 32
KEEP_WORK0 = 37
SELL0 = 42
CURSOR0 = 47
SLOT0 = 72
THEATER0 = 74
ACTIVATE0 = 78
KEEP_FIG = 86
DISCARD_FIG = 87
NOBLE0 = 88
SOLVAY_ONE = 91
SOLVAY_SWAP = 92
PAY0 = 93
NEEDLE0 = 98
BUILD0 = 100
NEUTRAL0 = 125
SHIELD0 = 150
POWER0 = 152
TUCK0 = 154
BID0 = 158  # bid amount = id - BID0 + 1, up to the configuration's bid cap

CHANCE_TOKEN = 1000
HIDDEN_TOKEN = 2000

CURSOR_SIDE = 5  # cursor centres 1..5 on each axis


def cursor_action(row: int, col: int) -> int:
    return CURSOR0 + (row - 1) * CURSOR_SIDE + (col - 1)


def cursor_of(action: int) -> tuple[int, int]:
    k = action - CURSOR0
    return k // CURSOR_SIDE + 1, k % CURSOR_SIDE + 1


def bid_action(amount: int) -> int:
    return BID0 + amount - 1


def num_actions(bid_cap: int) -> int:
    """The number of distinct action ids when bids go up to `bid_cap`."""
    return BID0 + bid_cap
