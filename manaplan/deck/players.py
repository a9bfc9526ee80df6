"""Castability as players mean it: a card is castable on turn t when *some*
choice of land drops on turns 1..t (one a turn, CR 305.2, from the lands in hand then,
each entering as its text says) and of the mana permanents cast before it (summoning
sickness respected, CR 302.6) lets manaplan pay it on turn t; the choice made for that
card alone. This is what Karsten's tables and a player at the table mean by "castable
on curve"; the simulated player's one line of play (``games.play_game``) is another
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

A fetch land (model.fetch) played is cracked at once: each land of the library it can
find is a line of its own, entering as the fetch says. The library is the game's one
order of *copies* (``library``: (card, copy) pairs, top first); a fetch takes out the
copy of that card with the lowest number not yet drawn, and the draws after it are the
same order without it: the copy taken is chosen by its number, never by where it lies, so
what follows is as random as after the real shuffle (CR 701.24a: searching, then
shuffling). The copies the mulligan put on the bottom go back to places of their own,
drawn for the game, at the first fetch: a shuffle puts them anywhere. A state then
carries the copies fetched so far (and when the first was), and only states that
fetched the same copies at the same time are compared.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from ..model.entering import PAY_LIFE, TAPPED as ENTERS_TAPPED, UNLESS_FEW, UNLESS_OPPONENTS, UNLESS_REVEAL, UNTAPPED
from .simulate import READY, SICK, TAPPED, DeckModel, BoardAnswers, Policy

#: states kept per turn; past it the game's later turns keep only the first states met
#: (the game is counted in ``cut``: its figures are a lower bound there)
MOST_STATES = 4000


def lines_of_play(deck: DeckModel, policy: Policy, answers: BoardAnswers, hand: list, draws: list,
                  library: list | None = None, reshuffle: tuple = (0, ())) -> tuple:
    """(castable mask by turn, short-of-mana mask by turn, whether a turn's states were
    cut at ``MOST_STATES``, undecided mask by turn: cards no line pays and some line's
    answer left undecided, by turn {X spell (measured number): the largest X some line
    pays}) over every line of play of one game: ``hand`` the kept hand,
    ``draws[t]`` the card drawn on turn t + 1 (None: none); ``library``, where the deck
    has fetch lands, the whole library as (card, copy) pairs, top first (the draws its
    first cards); ``reshuffle``: (how many copies the mulligan put on the bottom, a
    uniform number in [0, 1) for each), where each of them goes when a fetch shuffles the
    library (:func:`_after_shuffle`).

    Where only the lands and mana permanents of a hand shape its lines
    (:func:`_hands_shape_nothing_else`), a turn is kept by (its states, those cards
    alone; the card drawn, if it is one) in ``answers.turns``: games meet the same turns
    again and again, and the answer is the same (a game whose states would be cut is
    followed in full)."""
    waiting = _waiting(deck)
    if _hands_shape_nothing_else(deck, library, waiting):
        found = _lines_kept(deck, policy, answers, hand, draws, waiting)
        if found is not None:
            return found
    return _lines_followed(deck, policy, answers, hand, draws, library, reshuffle, waiting)


def _lines_followed(deck: DeckModel, policy: Policy, answers: BoardAnswers, hand: list, draws: list,
                    library: list | None, reshuffle: tuple, waiting: tuple) -> tuple:
    """:func:`lines_of_play`'s answer, each state with its whole hand, turn by turn."""
    fetching = bool(deck.fetches) and library is not None
    # (battlefield, untapped; hand; (the copies fetched, the draws made before the first fetch))
    states = {((), tuple(sorted(hand)), ((), -1))}
    orders: dict = {}  # draws before the first fetch -> the library's order after its shuffle
    castable_by_turn, short_by_turn, unknown_by_turn = [], [], []
    largest_x_by_turn: list[dict] = []  # by turn, {measured X spell: the largest X some line pays}
    cut = False
    drawn = 0  # (cards drawn before this turn)
    for t in range(policy.turns):
        draws_now = draws[t] is not None

        def drawing(state: tuple, t: int = t, drawn: int = drawn, draws_now: bool = draws_now) -> tuple:
            _, held, (fetched, first) = state
            order = library
            if fetched:
                if first not in orders:
                    orders[first] = _after_shuffle(library or [], first, *reshuffle)
                order = orders[first]
            card = (_drawn(order, fetched, drawn) if fetched else draws[t]) if draws_now else None
            if card is not None:  # (a library a fetch emptied draws nothing here)
                held = held + (card,)
            return held, _Library(order, fetched, drawn + draws_now) if fetching else None, drawn + draws_now

        castable, short, unknown, largest, carried = _turn(deck, policy, answers, states, waiting, drawing)
        castable_by_turn.append(castable)
        short_by_turn.append(short)
        unknown_by_turn.append(unknown)
        largest_x_by_turn.append(largest)
        if len(carried) > MOST_STATES:
            cut = True
            carried = set(sorted(carried)[:MOST_STATES])
        states = carried
        drawn += draws_now
    return castable_by_turn, short_by_turn, cut, unknown_by_turn, largest_x_by_turn


#: the turns ``answers.turns`` keeps; past it, it starts again (a long run's memory)
MOST_TURNS_KEPT = 200_000


def _lines_kept(deck: DeckModel, policy: Policy, answers: BoardAnswers, hand: list, draws: list,
                waiting: tuple) -> tuple | None:
    """:func:`lines_of_play`'s answer with each state's hand cut to its lands and mana
    permanents, each turn kept by (the states, the card drawn where it is one of those);
    None where some turn's states would be cut (``MOST_STATES``: the game is followed with
    its whole hands, so that the same states are cut)."""
    shaping = deck.shapes_lines
    states: frozenset | None = frozenset({((), tuple(sorted(c for c in hand if shaping[c])), ((), -1))})
    castable_by_turn, short_by_turn, unknown_by_turn, largest_x_by_turn = [], [], [], []
    kept = answers.turns
    for t in range(policy.turns):
        card = draws[t] if draws[t] is not None and shaping[draws[t]] else None
        key = (states, card)
        found = kept.get(key)
        if found is None:
            def drawing(state: tuple, card: int | None = card) -> tuple:
                return (state[1] if card is None else state[1] + (card,)), None, 0

            castable, short, unknown, largest, carried = _turn(deck, policy, answers, states, waiting, drawing)
            if len(kept) >= MOST_TURNS_KEPT:
                kept.clear()
            found = kept[key] = (castable, short, unknown, largest,
                                 frozenset(carried) if len(carried) <= MOST_STATES else None)
        castable_by_turn.append(found[0])
        short_by_turn.append(found[1])
        unknown_by_turn.append(found[2])
        largest_x_by_turn.append(found[3])
        states = found[4]
        if states is None:  # (cut: followed whole)
            return None
    return castable_by_turn, short_by_turn, False, unknown_by_turn, largest_x_by_turn


def _hands_shape_nothing_else(deck: DeckModel, library: list | None, waiting: tuple) -> bool:
    """Whether a line of play reads nothing of the hand but its lands and mana permanents
    (the other cards are never cast before the card measured, and every state of a game
    holds the same ones): not where a fetch searches the library (the state carries the
    copies taken), a land enters untapped by a card revealed from the hand (a snarl reads
    the hand's types), or a bounce land returns a land to a hand whose order it sorts on a
    board where states are not merged by domination (the states the whole hands make then
    outnumber those of the cut hands, and a cut at ``MOST_STATES`` would differ)."""
    if deck.fetches and library is not None or waiting[0]:
        return False
    return deck.monotone or not any(deck.is_land[c] and deck.enters[c].returns_land for c in range(len(deck.names)))


def _turn(deck: DeckModel, policy: Policy, answers: BoardAnswers, states, waiting: tuple, drawing) -> tuple:
    """(castable mask, short-of-mana mask, undecided mask, {X spell: the largest X}, the
    states carried to the next turn) of one turn of every line from ``states``:
    ``drawing(state)`` gives (its hand after the turn's draw, the library a fetch searches
    or None, the draws made by then); each land drop of the hand (:func:`_land_drops`),
    then the mana permanents cast every way (:func:`_this_turn`); the states carried
    merged where more permanents never pay less (:func:`_undominated`)."""
    castable, short, unknown, any_board = 0, -1, 0, False
    largest: dict = {}
    carried = set()
    for state in states:
        battlefield, _, (fetched, first) = state
        held, library_now, drawn = drawing(state)
        for board, rest, took in _land_drops(deck, policy, battlefield, held, _may_wait(deck, waiting, battlefield),
                                             library_now):
            turn_castable, turn_short, ends, turn_unknown, turn_x = _this_turn(deck, policy, answers, board, rest)
            castable |= turn_castable
            short &= turn_short
            unknown |= turn_unknown
            for k, x in turn_x.items():
                if x > largest.get(k, -1):
                    largest[k] = x
            any_board = True
            now_fetched = ((tuple(sorted(fetched + (took,))), first if fetched else drawn)
                           if took is not None else (fetched, first))
            for after, cast in ends:
                left = list(rest)
                for c in cast:
                    left.remove(c)
                carried.add((after, tuple(left), now_fetched))
    if deck.monotone:
        carried = _undominated(deck, carried, waiting)
    return castable, short & ~castable & ~unknown if any_board else 0, unknown & ~castable, largest, carried


def _after_shuffle(library: list, drawn: int, bottomed: int, places: tuple) -> list:
    """The library's order once a fetch has shuffled it after ``drawn`` draws: the cards
    drawn first as they were, then the rest in the order dealt (as random as a shuffle)
    with the ``bottomed`` copies the mulligan put on the bottom each put back at a place
    of its own (``places``: a uniform number each): a shuffle puts them anywhere."""
    if not bottomed:
        return library
    return list(library[:drawn]) + put_back(list(library[drawn:len(library) - bottomed]),
                                            library[len(library) - bottomed:], places)


def put_back(rest: list, bottomed, places: tuple) -> list:
    """``rest`` (top first) with each of the ``bottomed`` copies inserted at the place its
    uniform number in ``places`` says: where a shuffle may put it (lines of play and the
    simulated player's game alike)."""
    for copy, place in zip(bottomed, places):
        rest.insert(int(place * (len(rest) + 1)), copy)
    return rest


def _drawn(library: list | None, fetched: tuple, drawn: int) -> int | None:
    """The card drawn after ``drawn`` draws from the library without the copies
    ``fetched``; None where none is left (the simulation stops drawing: no game is lost)."""
    assert library is not None  # (a state fetched: the library was given)
    k = 0
    for card, copy in library:
        if copy in fetched:
            continue
        if k == drawn:
            return card
        k += 1
    return None


class _Library:
    """What a state's library holds after ``drawn`` draws, the copies ``fetched`` taken
    out: the copy a fetch of a card takes (:meth:`take`)."""

    def __init__(self, library: list | None, fetched: tuple, drawn: int):
        self.library, self.fetched, self.drawn = library or [], fetched, drawn

    def take(self, card: int) -> int | None:
        """The lowest-numbered copy of ``card`` still in the library, or None."""
        k, best = 0, None
        for c, copy in self.library:
            if copy in self.fetched:
                continue
            if k >= self.drawn and c == card and (best is None or copy < best):
                best = copy
            k += 1
        return best


def _undominated(deck: DeckModel, states: set, waiting: tuple) -> set:
    """The states no other state dominates: one whose battlefield holds another's and
    whose cards (battlefield and hand) hold the other's too can follow any line the other
    follows, keeping more on the battlefield (a land played is a land drop's worth, a
    mana permanent cast one whose cost is paid), where more permanents never pay less
    (``DeckModel.monotone``). A state whose lands may wait to let a land enter untapped
    (``_may_wait``) is compared only with states of the same lands on the battlefield and
    in hand. Largest first, each against those kept (domination is transitive); each
    multiset packed in one integer (:func:`_packing`)."""
    width, high = _packing(len(deck.names), max(deck.copies))
    kept: dict = {}  # (the lands, where compared) -> [(state, its battlefield packed, its cards packed)]
    for state in sorted(states, key=lambda s: (-len(s[0]), -len(s[1]), s)):
        field = cards = 0
        for code in state[0]:
            field += 1 << code * width
            cards += 1 << (code >> 2) * width
        for c in state[1]:
            cards += 1 << c * width
        group = kept.setdefault((state[2], _lands(deck, state) if _may_wait(deck, waiting, state[0]) else None), [])
        for _, other_field, other_cards in group:
            if (other_field | high) - field & high == high and (other_cards | high) - cards & high == high:
                break
        else:
            group.append((state, field, cards))
    return {entry[0] for group in kept.values() for entry in group}


@lru_cache(maxsize=16)
def _packing(names: int, most_copies: int) -> tuple:
    """(bits per element, the mask of each element's top bit) of a multiset of a deck's
    cards or permanent codes (``card << 2 | state``) packed in one integer, each count in
    its own field below a guard bit: ``a`` holds ``b`` exactly when subtracting ``b``
    from ``a`` with every guard bit set borrows from none ((a | high) - b & high ==
    high). A card has no more copies than the deck's most, so no count reaches the
    guard."""
    width = max(1, most_copies).bit_length() + 1
    high = 0
    for k in range(4 * names):
        high |= 1 << (k * width + width - 1)
    return width, high


def _lands(deck: DeckModel, state: tuple) -> tuple:
    """(the lands on the battlefield, the lands in hand) of a state."""
    return (tuple(code for code in state[0] if deck.is_land[code >> 2]),
            tuple(c for c in state[1] if deck.is_land[c]))


def _most_cast(deck: DeckModel, ends: set, rest: tuple) -> set:
    """Of (battlefield, cards cast) reached from one board and hand (``rest``), those no
    other holds: a battlefield holding another's, and its cards (battlefield and hand)
    holding the other's too (a mana permanent sacrificed for mana is gone from both:
    Lotus Petal kept is not dominated by Petal spent). Largest first, each against those
    kept; each multiset packed in one integer (:func:`_packing`)."""
    width, high = _packing(len(deck.names), max(deck.copies))
    in_hand = sum(1 << c * width for c in rest)
    kept: list[tuple[tuple, int, int]] = []
    for end in sorted(ends, key=lambda e: (-len(e[0]), e)):
        field = cards = 0
        for code in end[0]:
            field += 1 << code * width
            cards += 1 << (code >> 2) * width
        cards += in_hand - sum(1 << c * width for c in end[1])  # (the cards cast come from the hand)
        for _, other_field, other_cards in kept:
            if (other_field | high) - field & high == high and (other_cards | high) - cards & high == high:
                break
        else:
            kept.append((end, field, cards))
    return {end for end, _, _ in kept}


def _holds(bigger, smaller) -> bool:
    """Whether the multiset ``bigger`` holds ``smaller`` (Counters)."""
    return all(bigger[k] >= n for k, n in smaller.items())


def _waiting(deck: DeckModel) -> tuple:
    """(whether the deck has a land that enters untapped by a card revealed from the hand
    (CR 614.1d: a snarl), the most other lands with which one of its lands enters
    untapped (a fast land's "two or fewer"; None: no such land))."""
    lands = [deck.enters[c] for c in range(len(deck.names)) if deck.is_land[c]]
    few = [rule.count for rule in lands if rule.kind == UNLESS_FEW]
    return any(rule.kind == UNLESS_REVEAL for rule in lands), max(few) if few else None


def _may_wait(deck: DeckModel, waiting: tuple, battlefield: tuple) -> bool:
    """Whether a line that plays no land this turn, or holds back one land for another,
    may reach a board no other line reaches: with permanents that change what others make
    (not ``monotone``); with a snarl (holding a card to reveal); with a fast land while
    the battlefield has no more lands than it allows (fewer lands let it enter untapped).
    (A bounce land's trigger may return the bounce land itself: the board of no land.)"""
    reveal, few = waiting
    return (not deck.monotone or reveal
            or few is not None and sum(deck.is_land[code >> 2] for code in battlefield) <= few)


#: how a land enters whatever the board and the hand (``EntersRule.tapped`` reads neither)
_READS_NOTHING = frozenset({UNTAPPED, ENTERS_TAPPED, PAY_LIFE, UNLESS_OPPONENTS})


def _land_drops(deck: DeckModel, policy: Policy, battlefield: tuple, hand: tuple, may_skip: bool,
                library: "_Library | None" = None):
    """Each (board, hand, the copy fetched or None) after this turn's land drop (CR
    305.2): each distinct land of the hand, entering tapped or not as its text says; a
    bounce land's trigger returning each land it may (CR 603); a fetch land cracked at
    once for each land of the ``library`` it finds (:func:`fetched_boards`); and no land, where
    that may matter."""
    is_land = deck.is_land
    lands = sorted({c for c in hand if is_land[c]})
    if may_skip or not lands:
        yield battlefield, hand, None
    land_lines = None  # (the type lines it reads, found only for a land whose entering reads them)
    for c in lands:
        rest = list(hand)
        rest.remove(c)
        if c in deck.fetches and library is not None:
            yield from fetched_boards(deck, policy, battlefield, c, tuple(rest), library.take)
            continue
        rule = deck.enters[c]
        if rule.kind in _READS_NOTHING:
            tapped = rule.tapped((), (), policy.opponents)
        else:
            if land_lines is None:
                land_lines = tuple(deck.type_line[code >> 2] for code in battlefield if is_land[code >> 2])
            tapped = rule.tapped(land_lines, tuple(deck.type_line[h] for h in rest) if rule.kind == UNLESS_REVEAL
                                 else (), policy.opponents)
        board = tuple(sorted(battlefield + ((c << 2) | entering_state(deck, c, tapped),)))
        if not deck.enters[c].returns_land:
            yield board, tuple(rest), None
            continue
        for code in sorted({code for code in board if deck.is_land[code >> 2]}):
            left = list(board)
            left.remove(code)
            yield tuple(left), tuple(sorted(rest + [code >> 2])), None


def fetched_boards(deck: DeckModel, policy: Policy, battlefield: tuple, fetch: int, rest: tuple, take):
    """(board, hand, the copy taken or None) after playing the fetch land ``fetch`` and
    cracking it at once (CR 701.23): one for each card of the library it finds (``take(card)``:
    its lowest-numbered copy there, or None), entering as the fetch says (Fabled Passage
    untapped with four lands) and as its own text says; the fetch alone, making nothing,
    where the library holds none. The lines of play and the simulated player both ask it."""
    rule, finds = deck.fetches[fetch]
    lands = sum(deck.is_land[code >> 2] for code in battlefield) + 1
    land_lines = tuple(deck.type_line[code >> 2] for code in battlefield if deck.is_land[code >> 2])
    hand_lines = tuple(deck.type_line[h] for h in rest)
    found = False
    for f in finds:
        copy = take(f)
        if copy is None:
            continue
        found = True
        # (tapped as the fetch puts it, or as its own text says: a triome, a shock land's life paid)
        tapped = rule.enters_tapped(lands) or deck.enters[f].tapped(land_lines, hand_lines, policy.opponents)
        yield tuple(sorted(battlefield + ((f << 2) | entering_state(deck, f, tapped),))), rest, copy
    if not found:
        yield tuple(sorted(battlefield + ((fetch << 2) | READY,))), rest, None


def entering_state(deck: DeckModel, card: int, tapped: bool) -> int:
    """A land's state as it enters: tapped, or a land creature summoning sick (Dryad Arbor,
    CR 302.6), else ready."""
    return TAPPED if tapped else SICK if deck.creature[card] else READY


def _this_turn(deck: DeckModel, policy: Policy, answers: BoardAnswers, board: tuple, hand: tuple) -> tuple:
    """(castable mask, short-of-mana mask, the boards to carry to the next turn, untapped,
    each with the mana permanents cast) over the board after the land drop and the
    boards after casting some of the hand's mana permanents: kept by (board, the hand's
    mana permanents), as games meet the same ones again and again."""
    sources = answers.sources_in.get(hand)
    if sources is None:
        if len(answers.sources_in) >= MOST_TURNS_KEPT:
            answers.sources_in.clear()
        sources = answers.sources_in[hand] = tuple(sorted(c for c in hand if deck.is_source[c]))
    key = (board, sources)
    found = answers.lines.get(key)
    if found is None:
        castable, short, unknown, ends = 0, -1, 0, set()
        boards = []
        for after, cast, pool in _mana_permanents_cast(deck, policy, answers, board, sources):
            boards.append((after, pool))
            ends.add((tuple(sorted(code & ~3 for code in after)), cast))  # (the pool empties by then)
        largest: dict = {}  # measured X spell -> the largest X some board pays
        for after, pool in _measured(deck, boards):
            masks = answers.masks(after, pool)
            castable |= masks[0]
            short &= masks[1]
            unknown |= masks[3]
            for k in deck.x_spells:
                if masks[0] >> k & 1:
                    x = answers.largest_x(after, deck.measured[k], pool)
                    if x is not None and x > largest.get(k, -1):
                        largest[k] = x
        if deck.monotone:  # (as ``_undominated``: the lands in hand are the same in every end)
            ends = _most_cast(deck, ends, sources)
        found = answers.lines[key] = (castable, short, tuple(sorted(ends)), unknown, largest)
    return found


def _measured(deck: DeckModel, boards: list) -> list:
    """The (board, mana floating) whose masks make the turn's: where tapped permanents
    and sick creatures never pay (``DeckModel.idle_when_tapped``) and more permanents
    never pay less (``monotone``), a board whose ready permanents and floating mana
    another's hold pays no more than that one (after casting a mana creature, say: lands
    tapped, the creature sick)."""
    if not (deck.monotone and deck.idle_when_tapped) or len(boards) == 1:
        return boards
    kept: list[tuple[tuple, tuple, Counter, Counter]] = []
    for board, pool in sorted(boards, key=lambda b: (-sum(code & 3 == READY for code in b[0]) - len(b[1]), b)):
        ready = Counter(code for code in board if code & 3 == READY)
        floating = Counter(pool)
        if not any(_holds(other, ready) and _holds(other_pool, floating) for _, _, other, other_pool in kept):
            kept.append((board, pool, ready, floating))
    return [(board, pool) for board, pool, _, _ in kept]


def _mana_permanents_cast(deck: DeckModel, policy: Policy, answers: BoardAnswers, board: tuple, sources: tuple):
    """The board, and each board after casting some of the hand's mana permanents
    (``sources``) in some order, each paid by manaplan's best plan for it (a creature
    summoning sick, CR 302.6; a permanent that enters tapped, tapped), from the board
    and the mana the ones before it left floating (CR 106.4: the pool empties between
    steps, not between spells: a Sol Ring paid with another's {C}{C} leaves {C}); each
    with the sorted tuple of the cards cast and the mana types left floating."""
    seen = {(board, (), ())}
    queue: list[tuple[tuple, tuple, tuple]] = [(board, (), ())]
    while queue:
        board, cast, pool = queue.pop()
        yield board, cast, pool
        left = list(sources)
        for c in cast:
            left.remove(c)
        castable = None
        for c in sorted(set(left)):
            if castable is None:  # (the board's masks first: no plan is asked for a card they can't pay)
                castable = answers.masks(board, pool)[0]
            if not castable >> deck.measured_index[c] & 1:
                continue
            paid = answers.pay_floating(board, c, pool)
            if paid is None:
                continue
            after, floating = paid
            state = TAPPED if deck.enters[c].tapped((), (), policy.opponents) else SICK if deck.creature[c] else READY
            key = (tuple(sorted(after + ((c << 2) | state,))), tuple(sorted(cast + (c,))), floating)
            if key not in seen:
                seen.add(key)
                queue.append(key)
