"""Rococo action ids.

Every compound choice (which dress, which tiles to pay with, which guest space,
which bonus option) is a short sequence of simple actions, so the action space
stays small. With C = 32 employee card types, T = resource tile types (26),
S = 3 warehouse segments, W = windows, G = guest spaces and K = decoration
spaces of the configuration, the player actions are laid out in this order:

| range (size)        | action                                   | string example                          |
|---------------------|------------------------------------------|-----------------------------------------|
| SELECT  (C)         | select card c for the hand (secret)      | `select base Master`                    |
| PLAY    (C)         | play hand card c                         | `play L2 Master (extra_dress_yg)`       |
| MAIN    (7)         | favor, acquire, make, hire, depute, fund, skip | `main: make a dress`              |
| TAKE    (S*T)       | take tile type t from segment s          | `take YY-y/l from segment 2`            |
| USE     (4)         | keep the tile / convert to yarn / lace / both | `convert to yarn+lace`             |
| MAKE    (W)         | make the dress in window w               | `make red-3 at window 4 (3 Livre)`      |
| PAY     (T)         | hand in a silk tile of type t            | `pay with tile RR`                      |
| PLACE   (G)         | rent the dress to guest space g          | `rent to King's hall guest 1 (Master)`  |
| SELL    (1)         | sell the dress                           | `sell for 14 Livre`                     |
| HIRE    (C)         | hire displayed card c                    | `hire L1 Journeyman (depute_use)`       |
| FUND    (K)         | fund decoration space k                  | `fund fireworks 2 (8 Livre)`            |
| BONUS   (2)         | use / skip the offered bonus             | `use bonus: gain 2 Livre`               |
| YARNLACE(2)         | take 1 yarn / 1 lace                     | `take yarn`                             |
| DEPUTE  (C)         | depute deck card c through a bonus       | `depute base Apprentice (2 Livre)`      |
| BUY     (1)         | return Livre for 1 prestige (levels 4/6) | `pay 4 Livre for 1 prestige`            |
| DISCARD (T)         | discard tile type t for prestige (level 5) | `discard tile BB for prestige`        |
| DONE    (1)         | stop buying / discarding / terrace moves | `done`                                  |
| TERRACE (G)         | move the dress on guest space g to the terrace | `terrace: King's hall guest 2`    |
| DEPUTE_HAND (C)     | depute hand card c through a bonus       | `depute base Journeyman from hand`      |
| JEWEL   (J)         | buy the piece on jeweller space j        | `buy red necklace at jeweller space 2 (5 Livre)` |
| NOJEWEL (1 or 0)    | take no jewellery after renting          | `no jewellery`                          |
| EXAM    (1 or 0)    | main action: pass the exam (trade in the played card) | `main: pass the exam`      |
| SELECT_X (X)        | select card 32+i                         | `select L2 Journeyman (money_jewel2)`   |
| PLAY_X  (X)         | play card 32+i                           | `play specialist usher`                 |
| HIRE_X  (X)         | hire card 32+i (display or specialist row) | `hire specialist usher`               |
| DEPUTE_X (X)        | depute deck card 32+i through a bonus    | `depute L5 Master (hire_extra)`         |
| DEPUTE_HAND_X (X)   | depute hand card 32+i through a bonus    | `depute specialist page from hand`      |
| XPICK   (60 or 0)   | take shown exam card k                   | `take exam card L5 Master (jewel_free)` |

J = jeweller spaces, X = 28 Jewelry Box cards (ids 32-59). The blocks from JEWEL on are
empty (size 0) without `jewelry=true`, so every other id is the same with or without
the option; the card blocks of the base game keep 32 ids whatever the options. An id of
an ``_x`` block decodes to its base block with the full card id (``("play", 45)``).

Chance outcomes are ids of the thing drawn: a player (start player), an
employee card id (display reveal), a tile type (warehouse refill and secret
stack draws), a dress type (workshop refill) or a jewellery kind (jeweller
refill). Their strings say which.
"""

from __future__ import annotations

from spiel_games.rococo import rules as R

# MAIN options and USE options (their names are in text.py, in this order).
FAVOR, ACQUIRE, MAKE, HIRE, DEPUTE, FUND, SKIP = range(7)
KEEP, TO_YARN, TO_LACE, TO_BOTH = range(4)

_BLOCKS = (
    "select",
    "play",
    "main",
    "take",
    "use",
    "make",
    "pay",
    "place",
    "sell",
    "hire",
    "fund",
    "bonus",
    "yarnlace",
    "depute",
    "buy",
    "discard",
    "done",
    "terrace",
    "depute_hand",
    "jewel",
    "nojewel",
    "exam",
    "select_x",
    "play_x",
    "hire_x",
    "depute_x",
    "depute_hand_x",
    "xpick",
)
_CARD_BLOCKS = ("select", "play", "hire", "depute", "depute_hand")


class ActionLayout:
    """Offsets of each block of player actions for one configuration."""

    def __init__(
        self, windows: int, guests: int, decos: int, jeweller: int = 0, jewelry: bool = False
    ):
        C, T, S = R.N_BASE_CARDS, R.NUM_TILES, R.SEGMENTS
        X = R.NUM_CARDS - C if jewelry else 0
        sizes = {
            "select": C,
            "play": C,
            "main": 7,
            "take": S * T,
            "use": 4,
            "make": windows,
            "pay": T,
            "place": guests,
            "sell": 1,
            "hire": C,
            "fund": decos,
            "bonus": 2,
            "yarnlace": 2,
            "depute": C,
            "buy": 1,
            "discard": T,
            "done": 1,
            "terrace": guests,
            "depute_hand": C,
            "jewel": jeweller,
            "nojewel": 1 if jeweller else 0,
            "exam": 1 if jewelry else 0,
            "select_x": X,
            "play_x": X,
            "hire_x": X,
            "depute_x": X,
            "depute_hand_x": X,
            "xpick": R.NUM_CARDS if jewelry else 0,
        }
        self.start: dict[str, int] = {}
        off = 0
        for name in _BLOCKS:
            self.start[name] = off
            off += sizes[name]
        self.sizes = sizes
        self.num_actions = off
        # id -> (block, argument), precomputed for constant-time decoding.
        self._decode: list[tuple[str, int]] = []
        for name in _BLOCKS:
            if name.endswith("_x"):
                self._decode.extend((name[:-2], C + i) for i in range(sizes[name]))
            else:
                self._decode.extend((name, i) for i in range(sizes[name]))
        for name, o in self.start.items():
            setattr(self, name, o)
        # card id -> action id in each card block (ids 32-59 in its _x block)
        self.card_ids: dict[str, tuple[int, ...]] = {
            name: tuple(range(self.start[name], self.start[name] + C))
            + tuple(range(self.start[name + "_x"], self.start[name + "_x"] + X))
            for name in _CARD_BLOCKS
        }
        # action id -> card id for the ids of the card blocks (the apply functions' argument)
        self.arg = tuple(a for _, a in self._decode)

    def decode(self, action: int) -> tuple[str, int]:
        if not 0 <= action < self.num_actions:
            raise ValueError(
                f"action id {action} is outside Rococo's layout (0-{self.num_actions - 1})"
            )
        return self._decode[action]

    def table(self) -> str:
        rows = ["| block | first id | size |", "|---|---|---|"]
        rows += [f"| {n} | {self.start[n]} | {self.sizes[n]} |" for n in _BLOCKS]
        return "\n".join(rows)
