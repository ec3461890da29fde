"""Bruxelles 1893 action ids: one fixed layout for every configuration.

Compound choices are sequences of simple actions (space, then bid, then whether
to perform, then each sub-choice). Spaces are numbered row-major on the
board x board Art Nouveau board (id = row * board + column); cursor positions are
the 5x5 possible centres of the 3x3 workshop cursor.

| ids       | action                                              | string example              |
|-----------|-----------------------------------------------------|-----------------------------|
| 0-24      | place an assistant on space s                       | `place r2c3 (Sale)`         |
| 25-28     | Brussels action: Market, Bourse, Park, Grand Place  | `brussels Market (1)`       |
| 29        | pass                                                | `pass`                      |
| 30-49     | bid 1..20 BF (capped by the max_bid parameter)      | `bid 2`                     |
| 50        | skip / stop (decline an optional step)              | `skip`                      |
| 51        | perform the action of the space just taken          | `perform Sale`              |
| 52-56     | Park: perform action a (Workshop..Construction)     | `park Workshop`             |
| 57-61     | Workshop: keep a drawn work of colour c             | `keep pink`                 |
| 62-66     | Sale: sell a work of colour c                       | `sell black`                |
| 67-91     | Sale: move the cursor centre to (r, c), r,c in 1..5 | `cursor 2,4`                |
| 92-93     | Sale: put the sold work on shop space 1 or 2        | `shop 1`                    |
| 94-97     | Theater: take the figure on display space 0..3      | `theater 2 Buls (2 BF)`     |
| 98-105    | activate an upright kept figure f                   | `activate Solvay`           |
| 106-107   | keep / discard the figure just used                 | `keep figure`, `discard figure` |
| 108-110   | take one noble cube: wood, stone, iron              | `take iron`                 |
| 111-112   | Solvay: one noble cube / swap a joker for two       | `solvay one`, `solvay swap` |
| 113-117   | pay one construction unit: wood, stone, iron, 3BF, joker | `pay 3BF`              |
| 118-119   | turn compass needle 1 or 2                          | `needle 1`                  |
| 120-144   | build on space s                                    | `build r1c5`                |
| 145-169   | place the neutral assistant on space s (2 players)  | `neutral r3c3`              |
| 170-171   | Stock Exchange: choose the card's shield 1 or 2     | `shield 2-3`                |
| 172-173   | bonus card: use power option 1 or 2                 | `bonus P (Royal Palace)`    |
| 174-177   | bonus card: tuck under endgame row 1..4             | `tuck row 2 (art)`          |

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
BID0 = 30  # bid amount = id - BID0 + 1
SKIP = 50
PERFORM = 51
PARK0 = 52
KEEP_WORK0 = 57
SELL0 = 62
CURSOR0 = 67
SLOT0 = 92
THEATER0 = 94
ACTIVATE0 = 98
KEEP_FIG = 106
DISCARD_FIG = 107
NOBLE0 = 108
SOLVAY_ONE = 111
SOLVAY_SWAP = 112
PAY0 = 113
NEEDLE0 = 118
BUILD0 = 120
NEUTRAL0 = 145
SHIELD0 = 170
POWER0 = 172
TUCK0 = 174
NUM_ACTIONS = 178

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
