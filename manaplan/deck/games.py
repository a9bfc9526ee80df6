"""The games of a deck analysis: each game dealt from its own seeded generator, its
mulligans, and the simulated player's line of play (its land drops, its mana permanents,
one other card a turn) beside every line of play (``manaplan.deck.players``), tallied
(``simulate.Tally``). The boards are asked of ``simulate.BoardAnswers``; this module
sits above both, so that neither imports the other."""

from __future__ import annotations

import random

from ..model.entering import UNLESS_REVEAL
from ..protocol.reading_time import collector_off
from .players import entering_state, fetched_boards, lines_of_play, put_back
from .simulate import BOTH, NO_MULLIGAN, PLAY, READY, SICK, TAPPED, BoardAnswers, DeckModel, Policy, Tally


def _count(row: dict, mask: int) -> None:
    row[mask] = row.get(mask, 0) + 1


def play_games(deck: DeckModel, policy: Policy, answers: BoardAnswers, seed, first_game: int, games: int) -> Tally:
    """``games`` games numbered from ``first_game``, each shuffled by its own random
    generator (seeded by ``seed`` and the game's number): the same games whatever the
    chunks they are played in."""
    tally = Tally(policy.turns)
    needed = deck.color_weights()
    land_rank = {c: (sum(needed[t] for t in deck.makes[c] if t in needed)) for c in range(len(deck.names))}
    weights = score_weights(deck, policy) if policy.scored else None
    with collector_paused():
        for n in range(first_game, first_game + games):
            rng = random.Random(f"{seed}:{n}")
            on_play = policy.on == PLAY or (policy.on == BOTH and n % 2 == 0)
            castable = play_game(deck, policy, answers, rng, on_play, tally, land_rank)
            if policy.scored:
                assert weights is not None  # (set when the policy is scored)
                tally.scores.append((n, curve_score(deck, castable, weights)))
    return tally


def collector_paused():
    """Games played with Python's cyclic garbage collector paused, and what they left
    collected once at the end, as young objects (``protocol.reading_time.collector_off``):
    the answers kept (``BoardAnswers``) grow all run long, and each full collection walked
    all of them again (8 of them in 20,000 games of simic_ramp: 0.44 s of CPU); the games'
    garbage is freed as it goes (reference counts: the memory of a 20,000-game run the
    same with the collector off)."""
    return collector_off(collect_young=True)


def score_weights(deck: DeckModel, policy: Policy) -> list:
    """Each measured card's weight in :func:`curve_score`: the policy's ``weights`` by
    name, else its copies; 0 for a card of mana value past the turns followed."""
    chosen = dict(policy.weights)
    return [chosen.get(deck.names[c], deck.copies[c]) if max(1, deck.mana_value[c]) <= policy.turns else 0
            for c in deck.measured]


def curve_score(deck: DeckModel, castable: list, weights: list) -> float:
    """A game's on-curve score: the mean over the deck's nonland cards, by ``weights``
    (:func:`score_weights`), of whether the card was castable, as players mean it, on its
    on-curve turn (``deck lands`` maximises its mean)."""
    total = weight = 0
    for k, c in enumerate(deck.measured):
        if weights[k]:
            weight += weights[k]
            total += weights[k] * (castable[max(1, deck.mana_value[c]) - 1] >> k & 1)
    return total / weight if weight else 0.0


def play_game(deck: DeckModel, policy: Policy, answers: BoardAnswers, rng: random.Random, on_play: bool, tally: Tally,
              land_rank: dict) -> list:
    """One game: the simulated player's line (as played: the land drops and casts of the
    policy) and, through the same draws, every line of play (``players.lines_of_play``),
    whose castable masks by turn it returns."""
    copies = list(range(len(deck.library)))  # (each copy its own number: a fetch takes one by number)
    hand_copies, copies, bottomed = _mulligan(deck, policy, rng, copies, tally, land_rank)
    hand = [deck.library[k] for k in hand_copies]
    kept = list(hand)
    draws, top = [], len(copies)
    for t in range(policy.turns):  # (the library's end is its top)
        draws.append(deck.library[copies[top - 1]] if top and (t > 0 or not on_play or policy.draw_first) else None)
        top -= draws[-1] is not None
    # (the whole library, top first, for the lines that fetch a land; where each copy the
    # mulligan put on the bottom goes when a fetch shuffles the library)
    library = [(deck.library[k], k) for k in reversed(copies)] if deck.fetches else None
    places = tuple(rng.random() for _ in range(bottomed)) if deck.fetches else ()
    shuffled = {"bottomed": set(copies[:bottomed]) if deck.fetches else set(), "places": places, "done": False}
    tally.games += 1
    battlefield: tuple = ()
    lands = 0
    made_all: list[bool] = []
    for t in range(policy.turns):
        battlefield = tuple(sorted(code & ~3 for code in battlefield))  # untap; sickness wears off (CR 302.6)
        if draws[t] is not None and copies:  # (a library a fetch emptied draws nothing)
            hand.append(deck.library[copies.pop()])
        battlefield, played = _land_drop(deck, policy, answers, battlefield, hand, land_rank, copies, shuffled)
        lands += played
        made_all.append(lands >= t + 1 and (not made_all or made_all[-1]))
        masks = answers.masks(battlefield)
        _count(tally.castable_as_played[t], masks[0])
        _count(tally.undecided_as_played[t], masks[3])
        _count(tally.mana[t], answers.mana(battlefield))
        battlefield, spent = _spend(deck, policy, answers, battlefield, hand)
        tally.spent[t] += spent
    castable, short, cut, unknown, largest_x = lines_of_play(deck, policy, answers, kept, draws, library,
                                                              (bottomed, places))
    tally.cut += cut
    for t in range(policy.turns):
        for k, x in largest_x[t].items():
            _count(tally.largest_x[t].setdefault(k, {}), x)
        _count(tally.castable[t], castable[t])
        _count(tally.undecided[t], unknown[t])
        _count(tally.short[t], short[t])
        if made_all[t]:
            tally.lands_hit[t] += 1
            _count(tally.castable_given_lands[t], castable[t])
    return castable


def _mulligan(deck: DeckModel, policy: Policy, rng: random.Random, library: list, tally: Tally, land_rank: dict):
    """(hand, library) after the mulligans (London: CR 103.5), as copies (numbers into
    ``deck.library``). The library is a list whose end is its top."""
    taken = 0
    while True:
        rng.shuffle(library)
        hand = library[-7:]
        rest = library[:-7]
        keep_size = 7 - max(0, taken - (1 if policy.free_mulligan else 0))
        if policy.mulligan == NO_MULLIGAN or keep_size <= 4:
            break
        bottomed = _bottom(deck, [deck.library[k] for k in hand], 7 - keep_size, land_rank)
        lands = sum(deck.is_land[c] for c in bottomed[0])
        low, high = next(((lo, hi) for size, lo, hi in policy.keep if size == keep_size), (0, 99))
        if policy.free_mulligan and taken == 0:
            low = max(low, 3)  # Karsten's free seven in Commander: 3 to 5 lands
        if low <= lands <= high:
            break
        taken += 1
    _, bottom = _bottom(deck, [deck.library[k] for k in hand], 7 - keep_size, land_rank)
    hand_copies, bottom_copies = list(hand), []
    for card in bottom:  # (the copies of the cards put on the bottom, in the order they went)
        k = next(k for k in hand_copies if deck.library[k] == card)
        hand_copies.remove(k)
        bottom_copies.append(k)
    tally.mulligans[taken] = tally.mulligans.get(taken, 0) + 1
    return hand_copies, bottom_copies + rest, len(bottom_copies)  # the bottomed cards under the library (its start)


def _bottom(deck: DeckModel, hand: list, k: int, land_rank: dict) -> tuple:
    """(the hand kept, the cards put on the bottom): aiming for three lands (six cards:
    a spell goes if the hand has three or more, else a land; Karsten 2022), lands that
    make the colors the deck needs least go first, then the costliest spells."""
    hand = list(hand)
    out = []
    for _ in range(k):
        lands = [c for c in hand if deck.is_land[c]]
        spells = [c for c in hand if not deck.is_land[c]]
        size = len(hand) - 1
        if k == 1:
            take_spell = len(spells) >= 3 or not lands
        else:
            take_spell = (len(lands) <= 3 or len(spells) > size - 3) and bool(spells)
            if len(lands) > 3 and len(spells) <= size - 3:
                take_spell = False
        if take_spell:
            card = max(spells, key=lambda c: (deck.mana_value[c], c))
        else:
            card = min(lands, key=lambda c: (land_rank[c], c))
        hand.remove(card)
        out.append(card)
    return hand, out


def _land_drop(deck: DeckModel, policy: Policy, answers: BoardAnswers, battlefield: tuple, hand: list, land_rank: dict,
               library: list | None = None, shuffled: dict | None = None):
    """(battlefield, 1 or 0): the land of the hand that keeps the most of the deck's
    nonland cards castable now (by copies), ties broken toward the colors the deck's
    costs need most, then toward a land that enters tapped (it costs nothing now). A
    fetch land is cracked at once for the land of the ``library`` (copies, its end the
    top) that keeps the most castable, its lowest-numbered copy taken out."""
    candidates = sorted({c for c in hand if deck.is_land[c]})
    if not candidates:
        return battlefield, 0
    if library is None or not any(c in deck.fetches for c in candidates):
        c, after, returned = _best_land(deck, policy, answers, battlefield, hand, tuple(candidates), land_rank)
        fetched = None
    else:
        c, after, returned, fetched = _best_land_or_fetch(deck, policy, answers, battlefield, hand, candidates,
                                                          land_rank, library)
    hand.remove(c)
    if returned is not None:
        hand.append(returned)
    if fetched is not None:  # (the copy a fetch took leaves the library, which it shuffles)
        assert library is not None
        library.remove(fetched)
        if shuffled is not None and not shuffled["done"] and shuffled["bottomed"]:
            _put_back_bottomed(library, shuffled)
    return after, 1


def _best_land_or_fetch(deck: DeckModel, policy: Policy, answers: BoardAnswers, battlefield: tuple, hand: list,
                        candidates: list, land_rank: dict, library: list) -> tuple:
    """(the land played, the battlefield after, the land a bounce land returned or None,
    the copy a fetch took or None) of :func:`_land_drop` where a fetch land may be played:
    each land of the ``library`` it finds a line of its own, scored as the lands are."""
    land_lines = [deck.type_line[code >> 2] for code in battlefield if deck.is_land[code >> 2]]
    best: tuple[tuple, int, tuple, int | None, int | None] | None = None  # (.., the land returned, the copy fetched)
    for c in candidates:
        if c in deck.fetches:
            rest = list(hand)
            rest.remove(c)
            take = lambda f: min((k for k in library if deck.library[k] == f), default=None)  # noqa: E731
            for after, _, copy in fetched_boards(deck, policy, battlefield, c, tuple(rest), take):
                score = (answers.masks(after)[2], land_rank[c], False, -c)
                if best is None or score > best[0]:
                    best = (score, c, after, None, copy)
            continue
        score, after, returned = _scored_drop(deck, policy, answers, battlefield, hand, c, land_lines, land_rank,
                                              single=False)
        if best is None or score > best[0]:
            best = (score, c, after, returned, None)
    assert best is not None  # (there are candidates)
    return best[1:]


#: the land drops ``_best_land`` keeps; past it, it starts again (a long run's memory)
MOST_LAND_DROPS_KEPT = 200_000


def _best_land(deck: DeckModel, policy: Policy, answers: BoardAnswers, battlefield: tuple, hand: list,
               candidates: tuple, land_rank: dict) -> tuple:
    """(the land played, the battlefield after, the land a bounce land returned or None)
    of :func:`_land_drop` where no fetch land is played: kept by (battlefield, the lands
    of the hand, and the hand's cards where a land reveals one of them), as games meet
    the same ones again and again."""
    reveals = any(deck.enters[c].kind == UNLESS_REVEAL for c in candidates)
    key = (battlefield, candidates, frozenset(hand) if reveals else None)
    kept = answers.land_drops
    found = kept.get(key)
    if found is not None:
        return found
    single = len(candidates) == 1 and not deck.enters[candidates[0]].returns_land and candidates[0] not in deck.fetches
    land_lines = [deck.type_line[code >> 2] for code in battlefield if deck.is_land[code >> 2]]
    best: tuple[tuple, int, tuple, int | None] | None = None
    for c in candidates:
        score, after, returned = _scored_drop(deck, policy, answers, battlefield, hand, c, land_lines, land_rank,
                                              single)
        if best is None or score > best[0]:
            best = (score, c, after, returned)
    assert best is not None  # (there are candidates)
    if len(kept) >= MOST_LAND_DROPS_KEPT:
        kept.clear()
    found = kept[key] = best[1:]
    return found


def _scored_drop(deck: DeckModel, policy: Policy, answers: BoardAnswers, battlefield: tuple, hand: list, c: int,
                 land_lines: list, land_rank: dict, single: bool) -> tuple:
    """(its score, the battlefield after, the land its bounce returned or None) of playing
    the land ``c``: the copies of the deck's nonland cards the board then pays (none asked
    where it is the only land: ``single``), the colors it makes, whether it enters tapped,
    then the lower card."""
    after, tapped, returned = _dropped(deck, policy, answers, battlefield, hand, c, land_lines)
    return (0 if single else answers.masks(after)[2], land_rank[c], tapped, -c), after, returned


def _dropped(deck: DeckModel, policy: Policy, answers: BoardAnswers, battlefield: tuple, hand: list, c: int,
             land_lines: list) -> tuple:
    """(the battlefield after playing the land ``c`` from ``hand``, whether it entered
    tapped, the land its bounce returned or None): tapped as its text says, given the type
    lines of the lands on the battlefield (``land_lines``) and of the hand's other cards
    (read only where a revealed card decides, CR 614.1d)."""
    rule = deck.enters[c]
    tapped = rule.tapped(tuple(land_lines), tuple(deck.type_line[h] for h in hand if h != c)
                         if rule.kind == UNLESS_REVEAL else (), policy.opponents)
    after = tuple(sorted(battlefield + ((c << 2) | entering_state(deck, c, tapped),)))
    returned = None
    if rule.returns_land:
        after, returned = _bounce(deck, answers, after, c)
    return after, tapped, returned


def _put_back_bottomed(library: list, shuffled: dict) -> None:
    """The copies the mulligan put on the bottom put back at places of their own at the
    first fetch (``players.put_back``, the places the lines of play use; ``library``'s end
    is its top)."""
    shuffled["done"] = True
    top_first = list(reversed(library))
    bottom = [k for k in top_first if k in shuffled["bottomed"]]
    rest = [k for k in top_first if k not in shuffled["bottomed"]]
    library[:] = list(reversed(put_back(rest, bottom, shuffled["places"])))


def _bounce(deck: DeckModel, answers: BoardAnswers, after: tuple, land: int) -> tuple:
    """A bounce land's trigger: return the land (possibly itself) whose leaving keeps
    the most castable now, the least useful to the deck's colors first."""
    options = sorted({code for code in after if deck.is_land[code >> 2]})
    best: tuple[tuple, tuple, int] | None = None
    for code in options:
        left = list(after)
        left.remove(code)
        rest = tuple(left)
        score = (answers.masks(rest)[2], code >> 2 != land, -code)
        if best is None or score > best[0]:
            best = (score, rest, code >> 2)
    assert best is not None  # (the bounce land itself is on the battlefield)
    return best[1], best[2]


def _spend(deck: DeckModel, policy: Policy, answers: BoardAnswers, battlefield: tuple, hand: list) -> tuple:
    """(battlefield, mana value cast): the mana permanents of the hand cast while they
    can be paid, cheapest first (if the policy ramps), then the costliest other card of
    the hand that the untapped rest can pay (one a turn: what is left of the mana is
    not followed further; those cards don't change the mana)."""
    spent = 0
    if policy.ramp:
        while True:
            sources = sorted({(deck.mana_value[c], c) for c in hand if deck.is_source[c]})
            castable = answers.masks(battlefield)[0]  # (a card it can't pay isn't paid: no plan asked)
            for _, c in sources:
                if not castable >> deck.measured_index[c] & 1:
                    continue
                after = answers.pay(battlefield, c)
                if after is not None:
                    state = TAPPED if deck.enters[c].tapped((), (), policy.opponents) else (
                        SICK if deck.creature[c] else READY)
                    battlefield = tuple(sorted(after + ((c << 2) | state,)))
                    hand.remove(c)
                    spent += deck.mana_value[c]
                    break
            else:
                break
    castable = answers.masks(battlefield)[0]
    best = None
    for c in hand:
        k = deck.measured_index.get(c)
        if k is not None and not deck.is_source[c] and castable >> k & 1 and (best is None or deck.mana_value[c] >
                                                                                 deck.mana_value[best]):
            best = c
    if best is not None:
        hand.remove(best)
        spent += deck.mana_value[best]
    return battlefield, spent
