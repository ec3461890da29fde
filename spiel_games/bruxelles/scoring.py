"""Bruxelles 1893 scoring: full shields and the Brussels majority each round, the final
score (rulebook "End of the game") with automatic figure payment, and the returns.

Round scoring (resolution steps 4 and 5): every full shield scores the City Hall
level of the players with most assistants around it (a neutral-only majority scores
nothing); the player(s) with most assistants on the Brussels board send one to the
Courthouse. Final score: track VP, buildings x architect level, the endgame rows,
1 VP per noble cube, 5 VP for the Manneken Pis, -5 VP per unpaid figure. Tie-break
(assumed): money left after paying figures, then tied players share.
"""

from __future__ import annotations

from dataclasses import dataclass

from spiel_games.bruxelles import rules as R
from spiel_games.bruxelles.rules import ARCHITECT, FIG_COST, RULES
from spiel_games.bruxelles.state import add_at
from spiel_games.common.utility import returns_from_keys


@dataclass(frozen=True)
class ShieldAward:
    """One full shield at a round's end: its number (row-column, as the stock cards name
    shields), the owners of its four spaces, and the players who score it (the City Hall
    value of their level each)."""

    row: int
    col: int
    owners: tuple[int, ...]
    scorers: tuple[int, ...]


def shield_awards(board: int, occ: list[int], neutral: int) -> list[ShieldAward]:
    """Every full shield of the board ``occ`` (each space's occupant) and who scores it
    (resolution step 4; score_shields and the round's log line read the same list)."""
    out = []
    for k, spaces in enumerate(R.shields(board)):
        owners = tuple(occ[sp] for sp in spaces)
        if min(owners) < 0:
            continue
        row, col = divmod(k, board - 1)
        out.append(ShieldAward(row + 1, col + 1, owners, tuple(R.shield_scorers(owners, neutral))))
    return out


def score_shields(s) -> None:
    for award in shield_awards(s.cfg.board, s.occ, s.neutral_id):
        for p in award.scorers:
            s.vp[p] += R.HALL[s.hall[p]]


def brussels_winners(onbrussels: tuple[int, ...]) -> list[int]:
    """The players with most assistants on the Brussels board (none when it is empty):
    each sends one of them to the Courthouse (resolution step 5)."""
    best = max(onbrussels)
    return [p for p, k in enumerate(onbrussels) if k == best] if best > 0 else []


def brussels_majority(s) -> None:
    for p in brussels_winners(s.onbrussels):
        s.onbrussels = add_at(s.onbrussels, p, -1)
        s.court = add_at(s.court, p, 1)


def row_points(rows: tuple[int, ...], money: int, works: int, figures: int, assistants: int) -> int:
    """Endgame rows: each row multiplier (1 built-in + tucked symbols) times its count."""
    return (
        rows[0] * (money // RULES["bonus.money_per_unit"])
        + rows[1] * works
        + rows[2] * figures
        + rows[3] * max(0, assistants - RULES["bonus.free_assistants"])
    )


def figures_to_pay(money: int, kept: tuple[int, ...], rows: tuple[int, ...]) -> tuple[int, ...]:
    """Which kept figures get paid at the end (automatic, documented deviation).

    All of them when affordable. Otherwise the affordable set that no further card
    could be added to (the player pays as much as he can) and that maximises
    what the payment leaves: -5 VP per unpaid card, row 1 (money) and row 3 (figures).
    """
    total = sum(FIG_COST[f] for f in kept)
    if total <= money:
        return kept
    penalty = RULES["theater.unpaid_penalty"]
    best_key: tuple[int, int, int] | None = None
    best: tuple[int, ...] = ()
    n = len(kept)
    for mask in range(1 << n):
        chosen = tuple(kept[i] for i in range(n) if (mask >> i) & 1)
        cost = sum(FIG_COST[f] for f in chosen)
        if cost > money:
            continue
        left = money - cost
        if any(FIG_COST[kept[i]] <= left for i in range(n) if not (mask >> i) & 1):
            continue  # not maximal: he could still pay another card
        value = (
            -penalty * (n - len(chosen))
            + rows[0] * (left // RULES["bonus.money_per_unit"])
            + rows[2] * len(chosen)
        )
        key = (value, left, mask)
        if best_key is None or key > best_key:
            best_key, best = key, chosen
    return best


@dataclass(frozen=True)
class FinalScore:
    total: int
    track: int
    buildings: int
    rows: int
    nobles: int
    manneken: int
    unpaid: int
    money_left: int


def final_score(
    vp: int,
    money: int,
    built: int,
    architect_level: int,
    rows: tuple[int, ...],
    works: int,
    kept: tuple[int, ...],
    assistants_owned: int,
    nobles: int,
    has_manneken: bool,
) -> FinalScore:
    paid = figures_to_pay(money, kept, rows)
    unpaid = len(kept) - len(paid)
    money_left = money - sum(FIG_COST[f] for f in paid)
    track = vp - RULES["theater.unpaid_penalty"] * unpaid
    b = built * ARCHITECT[architect_level]
    r = row_points(rows, money_left, works, len(paid), assistants_owned)
    m = RULES["scoring.manneken_vp"] if has_manneken else 0
    nob = nobles * RULES["scoring.noble_vp"]
    return FinalScore(track + b + r + nob + m, track, b, r, nob, m, unpaid, money_left)


def score_details(s) -> list[FinalScore]:
    """Each player's final score broken down, as if the game ended now."""
    return [
        final_score(
            vp=s.vp[p],
            money=s.money[p],
            built=s.built[p],
            architect_level=s.arch[p],
            rows=s.rows[p],
            works=s.total_works(p),
            kept=s.kept_list(p),
            assistants_owned=s.owned_assistants(p),
            nobles=s.nobles(p),
            has_manneken=s.first == p,
        )
        for p in range(s.n)
    ]


def scores(s) -> list[int]:
    return [d.total for d in score_details(s)]


def final_returns(s) -> list[float]:
    details = score_details(s)
    keys = [(d.total, d.money_left) for d in details]
    return returns_from_keys(s.cfg.utility, [d.total for d in details], keys)
