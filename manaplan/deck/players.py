"""Castability as players mean it (issue 28): a card is castable on turn t when *some*
choice of land drops on turns 1..t (one a turn, CR 305.2, from the lands in hand then,
each entering as its text says) and of the mana permanents cast before it (summoning
sickness respected, CR 302.6) lets manaplan pay it on turn t; the choice made for that
card alone. This is what Karsten's tables and a player at the table mean by "castable
on curve"; the simulated player's one line of play (``simulate.play_game``) is another
figure, kept beside it ("as played").

One game's draws are fixed; :func:`lines_of_play` follows every line of play through
them at once: the *states* at each turn (the battlefield and the hand), deduplicated,
each turn's land drop taken every way the hand allows (a bounce land's return every
way), then the hand's mana permanents cast every way the board can pay them. The
turn's castable mask is the union of the masks of the boards so reached: each card
takes its own best line. Every board is asked of :class:`~.simulate.BoardAnswers`
(manaplan's own payments, kept by signature).

What a line leaves out, by rule or by choice (documented in the README): spells that
make no mana are never cast before the card (they don't change the mana); a mana
permanent cast this turn is paid by manaplan's best plan for it, and the card by what
that plan left untapped; not playing a land is a line only where it can matter (a land
that enters untapped with few lands, or by a card revealed from the hand; a bounce
land; a deck whose permanents change what others make).
"""

from __future__ import annotations

from collections import Counter

from ..model.entering import UNLESS_FEW, UNLESS_REVEAL
from .simulate import READY, SICK, TAPPED, DeckModel, BoardAnswers, Policy

#: states kept per turn; past it the game's later turns keep only the first states met
#: (the game is counted in ``cut``: its figures are a lower bound there)
MOST_STATES = 4000


def lines_of_play(deck: DeckModel, policy: Policy, answers: BoardAnswers, hand: list, draws: list) -> tuple:
    """(castable mask by turn, short-of-mana mask by turn, whether a turn's states were
    cut at ``MOST_STATES``) over every line of play of one game: ``hand`` the kept
    hand, ``draws[t]`` the card drawn on turn t + 1 (None: none)."""
    may_skip = _skipping_may_matter(deck)
    states = {((), tuple(sorted(hand)))}  # (battlefield, untapped; hand)
    castable_by_turn, short_by_turn = [], []
    cut = False
    for t in range(policy.turns):
        castable, short, any_board = 0, -1, False
        carried = set()
        for battlefield, held in states:
            held = held + (draws[t],) if draws[t] is not None else held
            for board, rest in _land_drops(deck, policy, answers, battlefield, held, may_skip):
                sources = tuple(c for c in rest if deck.is_source[c])
                turn_castable, turn_short, ends = _this_turn(deck, policy, answers, board, sources)
                castable |= turn_castable
                short &= turn_short
                any_board = True
                for after, cast in ends:
                    left = list(rest)
                    for c in cast:
                        left.remove(c)
                    carried.add((after, tuple(left)))
        castable_by_turn.append(castable)
        short_by_turn.append(short & ~castable if any_board else 0)
        if not may_skip:
            carried = _undominated(carried)
        if len(carried) > MOST_STATES:
            cut = True
            carried = set(sorted(carried)[:MOST_STATES])
        states = carried
    return castable_by_turn, short_by_turn, cut


def _undominated(states: set) -> set:
    """The states no other state dominates: one whose battlefield holds another's and
    whose cards (battlefield and hand) hold the other's too can follow any line the other
    follows, keeping more on the battlefield (a land played is a land drop's worth, a
    mana permanent cast one whose cost is paid). Sound where no land waits for a later
    turn to enter untapped and more permanents never pay less (``_skipping_may_matter``
    false). Largest first, each against those kept (domination is transitive)."""
    kept = []
    for state in sorted(states, key=lambda s: (-len(s[0]), -len(s[1]), s)):
        field, cards = Counter(state[0]), Counter(state[0]) + Counter(state[1])
        if not any(_holds(other_field, field) and _holds(other_cards, cards) for _, other_field, other_cards in kept):
            kept.append((state, field, cards))
    return {state for state, _, _ in kept}


def _holds(bigger, smaller) -> bool:
    """Whether the multiset ``bigger`` holds ``smaller`` (Counters)."""
    return all(bigger[k] >= n for k, n in smaller.items())


def _skipping_may_matter(deck: DeckModel) -> bool:
    """Whether a line that plays no land this turn can reach a board no other line
    reaches: a land that enters untapped only with few other lands or by a card in hand
    (CR 614.1d), or permanents that change what others make. (A bounce land's trigger
    may return the bounce land itself: the board of no land drop.)"""
    return not deck.monotone or any(
        deck.is_land[c] and deck.enters[c].kind in (UNLESS_FEW, UNLESS_REVEAL) for c in range(len(deck.names)))


def _land_drops(deck: DeckModel, policy: Policy, answers: BoardAnswers, battlefield: tuple, hand: tuple,
                may_skip: bool):
    """Each (board, hand) after this turn's land drop (CR 305.2): each distinct land of
    the hand, entering tapped or not as its text says; a bounce land's trigger returning
    each land it may (CR 603); and no land, where that may matter."""
    lands = sorted({c for c in hand if deck.is_land[c]})
    if may_skip or not lands:
        yield battlefield, hand
    land_lines = tuple(deck.type_line[code >> 2] for code in battlefield if deck.is_land[code >> 2])
    for c in lands:
        rest = list(hand)
        rest.remove(c)
        tapped = deck.enters[c].tapped(land_lines, tuple(deck.type_line[h] for h in rest), policy.opponents)
        board = tuple(sorted(battlefield + ((c << 2) | (TAPPED if tapped else READY),)))
        if not deck.enters[c].returns_land:
            yield board, tuple(rest)
            continue
        for code in sorted({code for code in board if deck.is_land[code >> 2]}):
            left = list(board)
            left.remove(code)
            yield tuple(left), tuple(rest) + (code >> 2,)


def _this_turn(deck: DeckModel, policy: Policy, answers: BoardAnswers, board: tuple, sources: tuple) -> tuple:
    """(castable mask, short-of-mana mask, the boards to carry to the next turn, untapped,
    each with the mana permanents cast) over the board after the land drop and the
    boards after casting some of the hand's mana permanents (``sources``): kept by
    (board, sources), as games meet the same ones again and again."""
    key = (board, sources)
    found = answers.lines.get(key)
    if found is None:
        castable, short, ends = 0, -1, set()
        for after, cast in _mana_permanents_cast(deck, policy, answers, board, sources):
            masks = answers.masks(after)
            castable |= masks[0]
            short &= masks[1]
            ends.add((tuple(sorted(code & ~3 for code in after)), cast))
        if not _skipping_may_matter(deck):  # (more cast on the same lands dominates: ``_undominated``)
            ends = {end for end in ends if not any(other[1] != end[1] and _holds(Counter(other[1]), Counter(end[1]))
                                                    for other in ends)}
        found = answers.lines[key] = (castable, short, tuple(sorted(ends)))
    return found


def _mana_permanents_cast(deck: DeckModel, policy: Policy, answers: BoardAnswers, board: tuple, sources: tuple):
    """The board, and each board after casting some of the hand's mana permanents
    (``sources``) in some order, each paid by manaplan's best plan for it (a creature
    summoning sick, CR 302.6; a permanent that enters tapped, tapped); each with the
    sorted tuple of the cards cast."""
    seen = {(board, ())}
    queue = [(board, ())]
    while queue:
        board, cast = queue.pop()
        yield board, cast
        castable = None
        left = list(sources)
        for c in cast:
            left.remove(c)
        for c in sorted(set(left)):
            if castable is None:
                castable = answers.masks(board)[0]
            if not castable >> deck.measured_index[c] & 1:
                continue
            after = answers.pay(board, c)
            if after is None:
                continue
            state = TAPPED if deck.enters[c].tapped((), (), policy.opponents) else SICK if deck.creature[c] else READY
            key = (tuple(sorted(after + ((c << 2) | state,))), tuple(sorted(cast + (c,))))
            if key not in seen:
                seen.add(key)
                queue.append(key)
