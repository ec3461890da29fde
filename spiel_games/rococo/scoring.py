"""Rococo's final scoring, in the rulebook's order.

1. 1 prestige per 10 Livre (the remainder is the tie-break).
2. Crown bonuses of level-6 cards still in the deck; the favor card owner +3.
3. A: hall majorities; B: fireworks majority; C: terrace moves (made by the
   players before scoring, see rounds.start_terrace); D: statue sets;
   E: property markers (dresses, x the terrace multiplier; decorations; All halls).
Jewelry Box: 1 prestige per piece of jewellery (key ``jewellery``, only with the option).
Prestige gained during the game (bonuses, Festivity dresses) is added too.
"""

from __future__ import annotations

from spiel_games.common.utility import returns_from_keys
from spiel_games.rococo import rules as R
from spiel_games.rococo import state as ST

B = R.BONUS
_CROWN_DECK = R.RULES["employees.deck_crown"]
_FAVOR = R.RULES["actions.favor_prestige"]
_PER_LIVRE = R.RULES["actions.prestige_per_livre"]
_PER_PIECE = R.RULES["jewelry.prestige_per_piece"]


def breakdown(c) -> list[dict[str, int]]:
    """Per player: the points of every scoring step (keys in scoring order)."""
    cfg = c.cfg
    n = cfg.players
    two = n == 2
    out: list[dict[str, int]] = [{} for _ in range(n)]
    for p in range(n):
        out[p]["in_game"] = c.prestige[p]
        out[p]["livre"] = c.money[p] // _PER_LIVRE
        deck = ST.deck_counts(c, p)
        crowns = 0
        dresses = ST.own_dresses(c, p)
        if deck[_card_with(B["crown_deck"])]:
            size = sum(deck) + (1 if c.inplay and c.cur == p else 0)
            crowns += _CROWN_DECK[R.deck_bracket(size)] if size >= 4 else 0
        if deck[_card_with(B["crown_yarn_lace"])]:
            crowns += 3 * min(c.yarn[p], c.lace[p])
        if deck[_card_with(B["crown_master_spaces"])]:
            on_master = sum(1 for g, o in enumerate(c.gown) if o == p and cfg.guests[g].master)
            crowns += 3 * (on_master // 2)
        if deck[_card_with(B["crown_pairs"])]:
            ladies = sum(1 for d in dresses if R.DRESSES[d].lady)
            crowns += 2 * min(ladies, len(dresses) - ladies)
        out[p]["crowns"] = crowns
        out[p]["favor"] = _FAVOR if c.favor == p else 0
    # A: halls.
    halls = [0] * n
    for h in range(R.NUM_HALLS):
        counts, masters = [0] * n, [0] * n
        for g, gs in enumerate(cfg.guests):
            o = c.gown[g]
            if gs.hall == h and o >= 0:
                counts[o] += 1
                masters[o] += int(gs.master)
        musician = next(
            (c.deco[d] for d, x in enumerate(cfg.decos) if x.kind == R.MUSICIAN and x.index == h),
            -1,
        )
        for p, v in enumerate(hall_awards(counts, masters, musician, cfg.hall_values[h], two)):
            halls[p] += v
    # B: fireworks.
    fw = c.tab.fireworks
    counts = [sum(1 for d in fw if c.deco[d] == p) for p in range(n)]
    best = [max((i for i, d in enumerate(fw) if c.deco[d] == p), default=-1) for p in range(n)]
    fire = fireworks_awards(counts, best, cfg.fireworks_majority, two)
    terrace_of = {g: cfg.terrace_mult[i] for i, g in enumerate(c.terr) if g >= 0}
    for p in range(n):
        out[p]["halls"] = halls[p]
        out[p]["fireworks"] = fire[p]
        # D: statues.
        statues = sum(1 for d, o in enumerate(c.deco) if o == p and cfg.decos[d].kind == R.STATUE)
        colours = [0, 0, 0, 0]
        for g, o in enumerate(c.gown):
            if o == p:
                colours[R.DRESSES[c.gdress[g]].colour] += 1
        out[p]["statues"] = statue_points(colours, statues)
        # E: property markers.
        # A Festivity dress gave its prestige once when made (seed); its marker scores 0.
        dress_pts = sum(
            _FINAL_PRESTIGE[c.gdress[g]] * terrace_of.get(g, 1)
            for g, o in enumerate(c.gown)
            if o == p
        )
        deco_pts = sum(cfg.decos[d].prestige for d, o in enumerate(c.deco) if o == p)
        hall_pts = sum(v for v, o in zip(cfg.all_halls, c.allh, strict=True) if o == p)
        out[p]["markers"] = dress_pts + deco_pts + hall_pts
        if cfg.jewelry:  # Jewelry Box: 1 prestige per piece
            out[p]["jewellery"] = sum(c.jewels[p]) * _PER_PIECE
    return out


_FINAL_PRESTIGE = tuple(0 if d.festive else d.prestige for d in R.DRESSES)


def _card_with(bonus: int) -> int:
    return _BONUS_CARD[bonus]


_BONUS_CARD = {R.CARDS[k].bonus: k for k in range(4, R.N_BASE_CARDS)}


def scores(c) -> list[int]:
    return [sum(b.values()) for b in breakdown(c)]


def tie_keys(c, final_scores=None) -> list[tuple[int, int]]:
    """(prestige, Livre left after converting to prestige): the rulebook's tie-break."""
    if final_scores is None:
        final_scores = scores(c)
    return [(s, c.money[p] % _PER_LIVRE) for p, s in enumerate(final_scores)]


def final_returns(c) -> list[float]:
    """The returns at the end: the utility mode applied to (prestige, tie-break)."""
    final = scores(c)
    return returns_from_keys(c.cfg.utility, final, tie_keys(c, final))


# ----- pure scoring rules --------------------------------------------------------------
def statue_points(colour_counts, statues: int) -> int:
    """Prestige for `statues` sets of distinct colours; a dress counts in one set only."""
    per = R.RULES["actions.statue_per_colour"]
    return per * sum(min(c, statues) for c in colour_counts)


def hall_awards(counts, masters, musician_owner: int, values, two_player: bool) -> list[int]:
    """Hall majority: most dresses gets values[0], second values[1].

    Ties: more dresses on Master guest spaces, then the owner of the hall's Musician;
    players still tied all get the value of the place they tie for and the next
    place is not awarded. At two players only first place scores.
    """
    n = len(counts)
    out = [0] * n
    keys = {p: (counts[p], masters[p], int(musician_owner == p)) for p in range(n) if counts[p] > 0}
    place = 0
    while keys and place < (1 if two_player else len(values)):
        best = max(keys.values())
        group = [p for p, k in keys.items() if k == best]
        for p in group:
            out[p] = values[place]
            del keys[p]
        if len(group) > 1:
            break
        place += 1
    return out


def fireworks_awards(counts, best_space, values, two_player: bool) -> list[int]:
    """Fireworks majority; ties go to the player holding the dearer (further right) space."""
    n = len(counts)
    out = [0] * n
    order = sorted(
        (p for p in range(n) if counts[p] > 0),
        key=lambda p: (counts[p], best_space[p]),
        reverse=True,
    )
    for place, p in enumerate(order[: 1 if two_player else len(values)]):
        out[p] = values[place]
    return out


def tiles_prestige(bales) -> int:
    """Level-5 bonus: 1 per blue bale, 1 per red bale, 1 per two green/yellow bales."""
    return bales[R.BLUE] + bales[R.RED] + (bales[R.YELLOW] + bales[R.GREEN]) // 2
