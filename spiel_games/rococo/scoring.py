"""Rococo's final scoring, in the rulebook's order.

1. 1 prestige per 10 Livre (the remainder is the tie-break).
2. Crown bonuses of level-6 cards still in the deck; the favor card owner +3.
3. A: hall majorities; B: fireworks majority; C: terrace moves (made by the
   players before scoring, see engine.start_terrace); D: statue sets;
   E: property markers (dresses, x the terrace multiplier; decorations; All halls).
Prestige gained during the game (bonuses, Festivity dresses) is added too.
"""

from __future__ import annotations

from spiel_games.rococo import engine as E
from spiel_games.rococo import rules as R

B = R.BONUS
_CROWN_DECK = R.RULES["employees.deck_crown"]
_FAVOR = R.RULES["actions.favor_prestige"]
_PER_LIVRE = R.RULES["actions.prestige_per_livre"]


def breakdown(c) -> list[dict[str, int]]:
    """Per player: the points of every scoring step (keys in scoring order)."""
    cfg = c.cfg
    n = cfg.players
    two = n == 2
    out = [dict() for _ in range(n)]
    for p in range(n):
        out[p]["in_game"] = c.prestige[p]
        out[p]["livre"] = c.money[p] // _PER_LIVRE
        deck = E.deck_counts(c, p)
        crowns = 0
        dresses = E.own_dresses(c, p)
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
        for p, v in enumerate(R.hall_awards(counts, masters, musician, cfg.hall_values[h], two)):
            halls[p] += v
    # B: fireworks.
    fw = c.tab.fireworks
    counts = [sum(1 for d in fw if c.deco[d] == p) for p in range(n)]
    best = [max((i for i, d in enumerate(fw) if c.deco[d] == p), default=-1) for p in range(n)]
    fire = R.fireworks_awards(counts, best, cfg.fireworks_majority, two)
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
        out[p]["statues"] = R.statue_points(colours, statues)
        # E: property markers.
        dress_pts = sum(
            R.DRESSES[c.gdress[g]].prestige * terrace_of.get(g, 1)
            for g, o in enumerate(c.gown)
            if o == p
        )
        deco_pts = sum(cfg.decos[d].prestige for d, o in enumerate(c.deco) if o == p)
        hall_pts = sum(v for v, o in zip(cfg.all_halls, c.allh, strict=True) if o == p)
        out[p]["markers"] = dress_pts + deco_pts + hall_pts
    return out


def _card_with(bonus: int) -> int:
    return _BONUS_CARD[bonus]


_BONUS_CARD = {R.CARDS[k].bonus: k for k in range(4, R.NUM_CARDS)}


def scores(c) -> list[int]:
    return [sum(b.values()) for b in breakdown(c)]


def tie_keys(c, final_scores=None) -> list[tuple[int, int]]:
    """(prestige, Livre left after converting to prestige): the rulebook's tie-break."""
    if final_scores is None:
        final_scores = scores(c)
    return [(s, c.money[p] % _PER_LIVRE) for p, s in enumerate(final_scores)]
