"""Die Staufer action ids (one fixed layout for every configuration).

Player actions:

| ids     | action                                              | string                       |
|---------|-----------------------------------------------------|------------------------------|
| 0 - 5   | supply action at supply space s (s = id)            | `supply 2 (3E+0N)`           |
| 6 - 11  | deploy: travel to region r (r = id - 6, region id)  | `deploy Milan`               |
| 12 - 16 | occupy seat k of the chosen region (k = id - 12)    | `seat 1 (3N)`                |
| 17      | the occupant is an envoy                            | `occupy with envoy`          |
| 18      | the occupant is a noble                             | `occupy with noble`          |
| 19 - 22 | pay with j nobles (the rest envoys), j = id - 19    | `pay 1 noble(s)`             |
| 23 - 25 | use a turquoise chest: escort / gift / levy         | `use escort`                 |
| 26 - 36 | take a privilege: 26 = VP pile, 27.. = kind 1..10   | `privilege courier`          |
| 37 - 42 | the next paying noble goes to region r (r = id - 37) | `noble to Augsburg`          |
| 43 - 48 | take a missing figure from region r's payment area  | `take from Milan`            |
| 49      | end the turn (instead of using a levy after the action) | `end turn`               |

A deployment is the short sequence deploy -> seat -> (occupant) -> (payment) -> (noble
regions); the occupant, payment and noble steps are skipped when only one choice exists.
A supply (or an orange figure chest) the province cannot cover asks `take from` once per
missing figure when more than one payment area could give it. After the action a player
holding a usable levy chooses `use levy` or `end turn`.

Chance outcomes (ids 0-8, meaning by the setup/refill step): region id (region
placement, A tiles), point tile index, job card index within its type, B condition
index, C-tile move (1-3), chest kind (0-8, see text.CHEST_NAMES).
"""

from __future__ import annotations

from spiel_games.staufer import rules as R

SUPPLY0 = 0
MAX_SUPPLY = 6
DEPLOY0 = SUPPLY0 + MAX_SUPPLY
SEAT0 = DEPLOY0 + R.MAX_REGIONS
MAX_SEATS = 5
OCC_ENVOY = SEAT0 + MAX_SEATS
OCC_NOBLE = OCC_ENVOY + 1
PAYN0 = OCC_NOBLE + 1
MAX_PAY_NOBLES = 4
USE0 = PAYN0 + MAX_PAY_NOBLES
PRIV0 = USE0 + len(R.TURQUOISE)
NOBLE_TO0 = PRIV0 + R.PRIV_KINDS
TAKE0 = NOBLE_TO0 + R.MAX_REGIONS
END_TURN = TAKE0 + R.MAX_REGIONS
NUM_ACTIONS = END_TURN + 1
NUM_CHANCE = R.CHEST_KINDS

KINDS = (
    ("supply", SUPPLY0, DEPLOY0),
    ("deploy", DEPLOY0, SEAT0),
    ("seat", SEAT0, OCC_ENVOY),
    ("occupy", OCC_ENVOY, PAYN0),
    ("pay", PAYN0, USE0),
    ("use", USE0, PRIV0),
    ("privilege", PRIV0, NOBLE_TO0),
    ("noble", NOBLE_TO0, TAKE0),
    ("take", TAKE0, END_TURN),
    ("end", END_TURN, NUM_ACTIONS),
)


def decode(action: int) -> tuple[str, int]:
    """(kind, argument) of a player action id; raises on an id outside the layout."""
    for kind, lo, hi in KINDS:
        if lo <= action < hi:
            return kind, action - lo
    raise ValueError(f"action id {action} is outside Die Staufer's layout (0-{NUM_ACTIONS - 1})")
