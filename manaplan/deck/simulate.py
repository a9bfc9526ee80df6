"""Simulated games of one deck: on each turn, which of the deck's nonland cards the mana
on the battlefield can pay for, exactly (every answer is manaplan's own payment).

One game (:func:`play_game`): shuffle; draw seven and mulligan by the policy (London:
draw seven, put one card on the bottom per mulligan taken, CR 103.5); then each turn
untap, draw (not on the first turn on the play, CR 103.8a), make the land drop the
policy picks, measure, and cast mana permanents from the hand when the policy says so.

What is measured on turn t is the contract's: for each nonland card of the deck, drawn
or not, whether the untapped permanents after the land drop can pay its cost (X = 0),
before anything is cast that turn; and whether every land drop so far was made.

Boards are described by a *signature*: the sorted codes ``card * 4 + state`` of what is
on the battlefield (state: ready, tapped, summoning sick). Every exact answer is kept by
signature (:class:`Oracle`): a deck's games go through a few thousand distinct boards,
so after the first games almost every question is a dictionary look-up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from ..model.dependent_mana import COMMANDER as COMMANDER_IDENTITY
from ..model.entering import EntersRule
from ..model.fetch import fetch_rule
from ..model.errors import RequestError
from ..model.plan import Payable, Plan, Undecided, Unpayable
from ..model.problem import CAN_PAY, copied_with
from ..model.board import Board, PermanentsByBody, split_type_line
from ..model.symbols import COLORS, MANA_TYPES
from ..scryfall import front_mana_cost

READY, TAPPED, SICK = 0, 1, 2
PLAY, DRAW, BOTH = "play", "draw", "both"
LONDON, NO_MULLIGAN = "london", "none"


@dataclass(frozen=True)
class Policy:
    """How the simulated player plays (docs: README, "Deck analysis").

    ``on``: on the play, on the draw, or both (even games on the play, odd on the draw).
    ``mulligan``: London with Karsten's keep rule (keep seven with 2 to 5 lands; after
    bottoming, six or five cards with 2 to 4; always four), or none. ``ramp``: cast the
    mana rocks and creatures of the hand whenever they can be paid, cheapest first
    (they wait for the measurement of the turn they are cast). ``opponents``: for lands
    that care (Battlebond lands)."""

    turns: int = 8
    on: str = PLAY
    mulligan: str = LONDON
    ramp: bool = True
    opponents: int = 1
    #: (fewest, most) lands to keep, by the hand's size after bottoming
    keep: tuple = ((7, 2, 5), (6, 2, 4), (5, 2, 4))
    #: Commander's free first mulligan and draw on the first turn (CR 103.5c, 103.8c)
    free_mulligan: bool = False
    draw_first: bool = False
    #: keep each game's on-curve score (``curve_score``: ``deck lands`` pairs games by it)
    scored: bool = False
    #: (card name, weight) pairs for that score, in place of the card's copies
    weights: tuple = ()

    def __post_init__(self):
        if self.on not in (PLAY, DRAW, BOTH):
            raise RequestError(f"'on' must be play, draw or both, not {self.on!r}", "on")
        if self.mulligan not in (LONDON, NO_MULLIGAN):
            raise RequestError(f"'mulligan' must be london or none, not {self.mulligan!r}", "mulligan")
        if not 1 <= self.turns <= 30:
            raise RequestError("'turns' must be 1 to 30", "turns")


@dataclass
class DeckModel:
    """A deck ready to simulate: its distinct cards by index, what each is, the library."""

    names: list
    cards: list  # Scryfall card objects
    copies: list
    is_land: list
    mana_value: list
    creature: list
    permanent: list
    enters: list  # EntersRule
    type_line: list
    makes: list  # the colors a card's permanent can make (its abilities' outputs)
    is_source: list  # a nonland permanent with a mana ability
    measured: list  # the nonland cards, in deck order
    unread: dict  # name -> lines of card text about mana not read
    library: list = field(default_factory=list)
    #: the cards in the command zone (a Commander section): measured, never drawn
    commanders: list = field(default_factory=list)
    #: the colors a card's permanent makes with no other mana (a filter land's {C} alone)
    makes_alone: list = field(default_factory=list)
    #: the fetch lands (model.fetch): card -> (its FetchRule, the deck's cards it finds)
    fetches: dict = field(default_factory=dict)
    #: the measured cards (by measured number) whose mana cost has X: analysed at X = 0,
    #: and at the largest X a line pays (``BoardAnswers.largest_x``)
    x_spells: tuple = ()
    #: the commanders' color identity (CR 903.4), or None: no commander
    identity: frozenset | None = None
    measured_index: dict = field(default_factory=dict)  # card -> its bit in the masks
    #: whether a board with one more permanent always pays at least as much (no mana
    #: permanent of the deck changes what the others make)
    monotone: bool = True
    #: whether a mana permanent makes mana only some spells may spend (Eldrazi Temple)
    restricted: bool = False
    #: whether a tapped permanent or a summoning-sick creature of the deck never changes
    #: what a board can pay: every mana ability taps its own permanent (CR 602.5a, 302.6),
    #: and nothing counts, gives, replaces, triggers, changes costs or land types, or is
    #: unread; no card's text convokes, improvises, sacrifices or counts (``_BOARD_WORDS``).
    #: Boards are then asked by their ready part
    idle_when_tapped: bool = True

    @cached_property
    def shapes_lines(self) -> list:
        """By card, whether it shapes a line of play from the hand (``players``): a land
        (a land drop) or a mana permanent (cast before the card measured); the other
        cards are never cast there."""
        return [land or source for land, source in zip(self.is_land, self.is_source)]

    @classmethod
    def build(cls, decklist, cards: dict) -> "DeckModel":
        from ..protocol.permanents import read_permanent  # (the protocol's reader: card objects to permanents)

        names, objs, copies, in_library = [], [], [], []
        for entry in decklist.main + decklist.commanders:
            if entry.name not in names:
                names.append(entry.name)
                objs.append({**cards[entry.name], "object": "card"})
                copies.append(0)
                in_library.append(0)
            copies[names.index(entry.name)] += entry.count
            if entry in decklist.main:
                in_library[names.index(entry.name)] += entry.count
        if not decklist.main:
            raise RequestError("the decklist has no main deck", "decklist")
        model = cls(names, objs, copies, [], [], [], [], [], [], [], [], [], {})
        if decklist.commanders:  # (fixed for the game: Command Tower's mana is then plain, CR 903.4)
            from .formats import color_identity

            model.identity = frozenset().union(*(color_identity(cards[e.name]) for e in decklist.commanders))
        for i, card in enumerate(objs):
            face = card.get("card_faces", [card])[0] if "card_faces" in card and "type_line" not in card else card
            type_line = card.get("type_line") or face.get("type_line", "")
            front_type = type_line.split(" // ")[0]
            types = split_type_line(front_type)[0]
            land = "Land" in types
            model.is_land.append(land)
            model.type_line.append(front_type)
            model.mana_value.append(_mana_value(card))
            model.creature.append("Creature" in types)
            is_permanent = bool({"Land", "Creature", "Artifact", "Enchantment", "Planeswalker", "Battle"} & set(types))
            model.permanent.append(is_permanent)
            body = read_permanent({"id": "x", "card": card}, f"cards[{card['name']!r}]") if is_permanent else None
            text = (face.get("oracle_text") or card.get("oracle_text") or "").split("\n//")[0]
            try:  # how it enters matters to the lands and mana permanents the simulation plays
                model.enters.append(EntersRule.parse(text, face.get("name", card["name"]))
                                    if land or body is not None and body.abilities else EntersRule())
            except RequestError as e:
                raise RequestError(f"{card['name']}: {e.message}", "cards") from None
            makes, alone = set(), set()
            if body is not None:
                for a in body.abilities:
                    made = {t for alt in a.output.alternatives for t in alt}
                    if a.depends and a.depends[0] == COMMANDER_IDENTITY:
                        made.update(model.identity or ())
                    makes.update(made)
                    # (no other mana, no other permanent needed: not a filter land's colors, nor a Verge's
                    # second color; the commander's identity is fixed for the game)
                    if not a.cost.mana.symbols and (not a.depends or a.depends[0] == COMMANDER_IDENTITY):
                        alone.update(made)
                if body.unread:
                    model.unread[card["name"]] = [line for line, _ in body.unread]
            model.makes.append(frozenset(makes))
            model.makes_alone.append(frozenset(alone))
            in_play = in_library[i] > 0  # (a commander stays in the command zone: its text never plays)
            if in_play and body is not None and body.abilities and not _self_contained(body, model.identity):
                model.monotone = False  # (a permanent that changes what others make: no short cut by sub-boards)
            if body is not None and any(a.restrict for a in body.abilities):
                model.restricted = True  # (mana only some spells may spend: generic mana is no bound)
            if not _idle_when_tapped(body if in_play else None, card, face, model.identity):
                # (a commander's own cost text counts, convoke say; its permanent's text never plays)
                model.idle_when_tapped = False
            model.is_source.append(not land and bool(body is not None and body.abilities))
            if not land:
                model.measured.append(i)
        if not any(model.is_land):
            raise RequestError(f"the deck has no lands among its {sum(copies)} cards: no turn could make mana, "
                               f"nothing to simulate", "decklist")
        model._read_fetches()
        model.library = [i for i, n in enumerate(in_library) for _ in range(n)]
        model.commanders = [i for i, (n, m) in enumerate(zip(copies, in_library)) if n > m]
        model.measured_index = {c: k for k, c in enumerate(model.measured)}
        model.x_spells = tuple(k for k, c in enumerate(model.measured) if "{X}" in front_mana_cost(model.cards[c]))
        return model

    def _read_fetches(self) -> None:
        """Each land whose text searches the library for a land (model.fetch): what it
        finds among the deck's lands, and the colors those make as its own (a fetch land
        is a source of each color it can find: ``deck sources``, the land drop's ranking)."""
        for c, card in enumerate(self.cards):
            if not self.is_land[c]:
                continue
            faces = card.get("card_faces") or [card]
            text = (faces[0].get("oracle_text") if "oracle_text" not in card else card.get("oracle_text")) or ""
            try:
                rule = fetch_rule(text.split("\n//")[0], card["name"])
            except RequestError as e:  # (a search not read: the land plays on without it, the line named)
                self.unread.setdefault(card["name"], []).append(e.message.split(": ", 1)[-1])
                continue
            if rule is None:
                continue
            if self.enters[c].kind != "untapped":  # (its {T} waits a turn: not followed, named)
                self.unread.setdefault(card["name"], []).append(
                    f"a fetch land that enters {self.enters[c]}: its search is not followed (the games crack a fetch "
                    "the turn it is played)")
                continue
            finds = tuple(j for j in range(len(self.names)) if self.is_land[j] and j != c
                          and rule.finds(self.type_line[j]))
            self.fetches[c] = (rule, finds)
            self.makes[c] = frozenset().union(*(self.makes[j] for j in finds))
            self.makes_alone[c] = frozenset().union(*(self.makes_alone[j] for j in finds))

    def color_weights(self) -> dict:
        """How much the deck's nonland costs ask of each color: colored symbols times
        copies (a hybrid symbol counts for each of its colors)."""
        weights = dict.fromkeys(COLORS, 0)
        for c in self.measured:
            cost = self.cards[c].get("mana_cost") or ""
            for color in COLORS:
                weights[color] += cost.count(color) * self.copies[c] if "{" in cost else 0
        return weights


#: words in a card's text that may make a tapped permanent or a summoning-sick creature
#: matter to a payment: tapped for convoke or improvise (sickness doesn't stop it, CR
#: 702.51a), sacrificed as an additional or alternative cost of a spell (CR 601.2b, 601.2h:
#: only {T} cares about sickness; a permanent's own "Sacrifice this: draw a card", Mind
#: Stone's, is no cost of a spell), or counted by a cost change (affinity, "for each")
_BOARD_WORDS = ("convoke", "improvise", "additional cost", "rather than pay", "emerge", "casualty", "bargain",
                "offering", "exploit", "affinity", "for each", "less to cast", "more to cast")


def _self_contained(body, identity) -> bool:
    """Whether what the permanent makes depends on nothing but its own text and state
    (``Permanent.self_contained``), the commander's color identity counted as its own
    where the deck has a commander (Command Tower, Arcane Signet: fixed for the game)."""
    if body.self_contained:
        return True
    return identity is not None and not (
        body.grants or body.replaces or body.triggers or body.spending or body.land_types or any(
            a.via or a.through or a.given_by or a.restrict or a.output.per or a.output.doubles or a.cost.sacrifice_other
            or a.cost.tap_other or a.unresolved or (a.depends and a.depends[0] != COMMANDER_IDENTITY)
            for a in body.abilities))


def _idle_when_tapped(body, card: dict, face: dict, identity=None) -> bool:
    """Whether the card, tapped (or, a creature, summoning sick), changes nothing about
    what a board pays (:attr:`DeckModel.idle_when_tapped`), and no text of it makes such
    a permanent matter to a payment (:data:`_BOARD_WORDS`)."""
    text = " ".join(str(f.get("oracle_text") or "") for f in [card, face] + list(card.get("card_faces") or ())).lower()
    keywords = {k.lower() for k in card.get("keywords") or ()}
    if any(word in text or word in keywords for word in _BOARD_WORDS):
        return False
    if body is None:
        return True
    return (_self_contained(body, identity) and not body.unread and not body.cost_effects and not body.land_types
            and not body.landfall and (not body.depends_on_board or identity is not None)
            and all(a.cost.tap and not a.cost.untap and not a.cost.by_other for a in body.abilities))


def _mana_value(card: dict) -> int:
    """A card's mana value: Scryfall's ``cmc``, else worked out from its mana cost (a
    split card's halves together, CR 709.4; X as 0, CR 202.3e)."""
    if isinstance(card.get("cmc"), (int, float)):
        return int(card["cmc"])
    from ..model.mana import ManaCost

    costs = [card.get("mana_cost") or ""] if "card_faces" not in card or card.get("mana_cost") else \
        [f.get("mana_cost") or "" for f in card["card_faces"][:1 if card.get("layout") not in ("split",) else 2]]
    return sum(ManaCost.parse(half).mana_value for c in costs for half in c.split(" // ") if half)


class BoardAnswers:
    """The exact answers, kept by board signature: what the board can pay (a bit per
    measured card), which of the failures lack mana altogether (the same mana value in
    generic mana can't be paid either), and the board after paying a card."""

    def __init__(self, deck: DeckModel, exchange=None):
        self.deck = deck
        self.castable: dict = {}
        self.pooled: dict = {}  # (board, mana floating) -> masks, as ``castable``
        self.paid: dict = {}
        self.amounts: dict = {}  # board -> the most generic mana it pays (``mana``)
        #: (board, mana permanents in hand) -> what every way of casting them this turn
        #: reaches (manaplan.deck.players)
        self.lines: dict = {}
        #: (a turn's states, each hand's lands and mana permanents alone; the card drawn
        #: if it is one) -> that turn of every line (``players.lines_of_play``)
        self.turns: dict = {}
        #: a hand -> its mana permanents, sorted (``players._this_turn``, asked again and again)
        self.sources_in: dict = {}
        #: (battlefield, the hand's lands, its cards where one is revealed) -> the simulated
        #: player's land drop (``games._best_land``)
        self.land_drops: dict = {}
        self.xs: dict = {}  # (board, X spell, mana floating) -> the largest X it pays (``largest_x``)
        self._splits: dict = {}  # board -> (its ready part, the rest): ``_split``, asked again and again
        #: the answers the run's other processes solved (manaplan.deck.exchange), or None
        self.exchange = exchange
        self.weights = [deck.copies[c] for c in deck.measured]
        self.undecided = 0
        # a split card or an adventurer is castable when either half is (CR 709.3, 715.3)
        self._asked: dict[int, list[str]] = {}  # measured card -> the hand ids asked for it
        self._hand = []
        for k, c in enumerate(deck.measured):
            card = deck.cards[c]
            halves = card.get("layout") in ("split", "adventure") and len(card.get("card_faces") or ()) == 2
            for j, face in enumerate(card["card_faces"] if halves else [card]):
                spell = {"id": f"c{k}.{j}", "card": card, **({"face": j} if halves else {})}
                if "{X}" in (face.get("mana_cost") or ""):
                    spell["x"] = 0
                self._hand.append(spell)
                self._asked.setdefault(k, []).append(spell["id"])
        self._values = sorted({deck.mana_value[c] for c in deck.measured} - {0})
        self._hand += [{"id": f"g{v}", "mana_cost": "{%d}" % v, "type_line": PROBE_TYPE} for v in self._values]
        self._costs = [self._cost(c) for c in deck.measured]
        #: the measured cards that may be paid with less mana than their mana value (Phyrexian
        #: and twobrid symbols, a half of a split card): generic mana is no bound on them
        #: (and any card whose text speaks of what it costs: affinity, convoke, "costs {2}
        #: less", text not read; its answer is asked, never bounded by generic mana)
        self._cheaper = ["/P" in cost or "{2/" in cost or len(self._asked[k]) > 1 or _speaks_of_cost(deck.cards[c])
                         for k, (c, cost) in enumerate(zip(deck.measured, self._costs))]
        #: the measured cards whose payment is their mana value in mana, whatever the board:
        #: none of the above, one face, no text about costs (affinity, convoke, delve, "costs
        #: less"), no restricted mana in the deck (``mana``)
        self._plain = [] if deck.restricted else [
            k for k, c in enumerate(deck.measured)
            if not self._cheaper[k] and "card_faces" not in deck.cards[c]
            and not _speaks_of_cost(deck.cards[c])]
        #: the player of every request: the commander's color identity where there is one
        self._player = {} if deck.identity is None else {"player": {"commander_identity": sorted(deck.identity)}}
        #: each question's problem without its board, read once (the hand, the spell, the
        #: player, the pool), and each permanent's body by card and state, read once: a
        #: board is put together from them (``_problem``), no request written or read per board
        self._bases: dict = {}
        self._bodies: dict = {}
        self._by_whole_board: dict = {}  # board -> masks (``masks``: kept by the ready part)
        self._inexact: set = set()  # the ready parts whose masks some time guard left undecided

    def _cost(self, c: int) -> str:
        card = self.deck.cards[c]
        return front_mana_cost(card)

    def masks(self, sig: tuple, pool: tuple = ()) -> tuple:
        """(castable mask, short-of-mana mask, copies castable) for the board ``sig``
        (asked of its ready part where the rest never pays: ``idle_when_tapped``), with
        the mana ``pool`` floating (its types: what a mana permanent cast earlier in the
        same phase left, CR 106.4); kept also by the whole board (``sig`` as given), the
        question asked most (each turn of each game)."""
        if not pool:
            found = self._by_whole_board.get(sig)
            if found is not None:
                return found
        whole = sig
        sig, _ = self._split(sig)
        kept, key, kind = (self.castable, sig, "masks") if not pool else (self.pooled, (sig, pool), "pooled")
        found = kept.get(key)
        if found is None and self._catch_up():
            found = kept.get(key)
        if found is None:
            undecided = self.undecided
            found = kept[key] = self._masks(sig, pool) if pool else self._masks(sig)
            if self.undecided != undecided:
                self._inexact.add(key)  # (another process's exact answer may take its place: _catch_up)
            elif self.exchange is not None:  # (exact answers only)
                self.exchange.publish(kind, key, found)
        if not pool and key not in self._inexact:
            if len(self._by_whole_board) >= MOST_WHOLE_BOARDS_KEPT:
                self._by_whole_board.clear()
            self._by_whole_board[whole] = found
        return found

    def _split(self, sig: tuple) -> tuple:
        """(the board a question is asked of, the rest): its ready part and its tapped and
        summoning-sick permanents where those never pay (``idle_when_tapped``), else the
        whole board and nothing."""
        if not self.deck.idle_when_tapped:
            return sig, ()
        found = self._splits.get(sig)
        if found is None:
            found = self._splits[sig] = (tuple(code for code in sig if code & 3 == READY),
                                         tuple(code for code in sig if code & 3 != READY))
        return found

    def _catch_up(self) -> bool:
        """Take in what the other processes solved; whether there was anything."""
        if self.exchange is None:
            return False
        news = self.exchange.news()
        for kind, key, value in news:
            {"masks": self.castable, "pooled": self.pooled}.get(kind, self.paid)[key] = value
        return bool(news)

    def _masks(self, sig: tuple, pool: tuple = ()) -> tuple:
        """Asked of the solver card by card, with three short cuts that follow from
        more permanents never paying less: what the board without one of its ready
        permanents could pay, this one can; a mana value that generic mana alone can't
        reach can't be paid in colors either (how far generic mana reaches: ``_reach``,
        also the answer of ``mana`` for the board); cards of the same cost share the
        answer."""
        from ..queries import answer
        from ..solver.direct import can_pay_directly

        deck = self.deck
        known = 0
        for code in set(sig) if deck.monotone else ():
            if code & 3 == READY:
                smaller = list(sig)
                smaller.remove(code)
                below = self.pooled.get((tuple(smaller), pool)) if pool else self.castable.get(tuple(smaller))
                if below is not None:
                    known |= below[0]
        if pool:  # (what the board alone pays, it pays with mana floating too)
            alone = self.castable.get(sig)
            known |= alone[0] if alone is not None else 0
        problem = self._problem(sig, ("castable", pool), lambda: {"query": "castable", "hand": self._hand,
                                                                  **self._with_pool(pool)})
        spells = {spell.id: spell for spell in problem.hand}

        def payable(spell_id: str) -> bool:
            question = copied_with(problem.for_spell(spells[spell_id]), query=CAN_PAY, explain_no=False)
            directly = can_pay_directly(question)
            if directly is not None:
                return directly
            result = answer(question)
            if isinstance(result, Undecided):
                self.undecided += 1
                undecided_ids.add(spell_id)
            return isinstance(result, Payable)

        undecided_ids: set = set()

        reach, most = self._reach(payable, problem, spells)
        if most is not None and not pool:  # (``mana``'s answer: the same question of the same board)
            self.amounts.setdefault(sig, most)
        # (a generic amount undecided: no card is left unasked because of it; one that says no is
        # still called short of mana past the amounts decided)
        bound = float("inf") if undecided_ids else reach
        by_cost: dict = {}  # cost -> True, False, or None: undecided (a card of that cost asked already)
        castable = short = copies = unknown = 0
        for k, c in enumerate(deck.measured):
            value, cost = deck.mana_value[c], self._costs[k]
            if value > bound and not self._cheaper[k]:
                short |= 1 << k
                continue
            if known >> k & 1:
                verdict = True
            elif cost in by_cost:
                verdict = by_cost[cost]
            else:
                verdict = any(payable(spell_id) for spell_id in self._asked[k])
                if not verdict and any(spell_id in undecided_ids for spell_id in self._asked[k]):
                    verdict = None
                by_cost[cost] = verdict
            if verdict:
                castable |= 1 << k
                copies += self.weights[k]
            elif verdict is None:
                unknown |= 1 << k  # (undecided: neither castable nor short of mana)
            elif value > reach or deck.restricted and value and not payable(f"g{value}"):
                short |= 1 << k
        return castable, short, copies, unknown

    def _reach(self, payable, problem, spells: dict) -> tuple:
        """(the most generic mana, among the deck's mana values, that the board of
        ``problem`` pays, the most it pays at once or None): the largest value, unasked,
        where mana is restricted (no bound then); from the most it pays at once where the
        solver finds that in one pass (``solver.direct``); else a binary search of
        ``payable`` over the probes ``spells``, as a board that pays N generic mana pays
        fewer."""
        from ..solver.direct import most_generic

        values = self._values
        if self.deck.restricted or not values:
            return (values[-1] if values else 0), None
        most = most_generic(copied_with(problem.for_spell(spells[f"g{values[-1]}"]), query=CAN_PAY, explain_no=False))
        if most is not None:
            return max((v for v in values if v <= most), default=0), most
        low, high = 0, len(values)  # values[:low] are paid, values[high:] are not
        while low < high:
            mid = (low + high) // 2
            if payable(f"g{values[mid]}"):
                low = mid + 1
            else:
                high = mid
        return (values[low - 1] if low else 0), None

    def mana(self, sig: tuple) -> int:
        """The most generic mana the board pays at once (``{N}``, X = 0): asked upward
        from the most the deck's mana values showed it pays (``masks``), so that one
        question only is answered no (a proof, the costly answer); kept by board."""
        sig, _ = self._split(sig)
        found = self.amounts.get(sig)
        if found is None:
            from ..queries import answer

            found = 0
            castable = self.masks(sig)[0]
            for k in self._plain:  # (a card of plain cost it pays: its mana value at least)
                if castable >> k & 1:
                    found = max(found, self.deck.mana_value[self.deck.measured[k]])
            paid = True
            while paid:  # (the board read once for the next few generic costs, not once a cost)
                amounts = range(found + 1, found + 2 * len(sig) + 2)
                problem = self._problem(sig, ("amounts", amounts.start, amounts.stop), lambda: {
                    "query": "castable", **self._player, "hand": [{"id": f"m{n}", "mana_cost": "{%d}" % n,
                                                                  "type_line": PROBE_TYPE}
                                                                 for n in amounts]})
                for spell in problem.hand:
                    paid = isinstance(answer(copied_with(problem.for_spell(spell, CAN_PAY), explain_no=False)), Payable)
                    if not paid:
                        break
                    found += 1
            self.amounts[sig] = found
        return found

    def _with_pool(self, pool: tuple) -> dict:
        """The request's player: the commander's color identity, the mana ``pool``."""
        if not pool:
            return self._player
        return {"player": {**self._player.get("player", {}), "pool": "".join("{%s}" % t for t in pool)}}

    def pay_floating(self, sig: tuple, card: int, pool: tuple = ()) -> tuple | None:
        """(the board after paying for ``card`` with the best plan, from the board and
        the mana ``pool`` floating, the mana types left floating after it), or None: a
        phase's mana permanents cast one after another, what one leaves paying the next
        (CR 106.4; Sol Ring paid by another Sol Ring's {C}{C} leaves {C})."""
        sig, idle = self._split(sig)
        key = (sig, card, pool)
        if key not in self.paid:
            self._catch_up()
        if key not in self.paid:
            self.paid[key], proven = self._paid(sig, card, pool)
            if self.exchange is not None and proven:  # (proven answers only, as ``pay``)
                self.exchange.publish("paid", key, self.paid[key])
        found = self.paid[key]
        return None if found is None else (tuple(sorted(found[0] + idle)), found[1])

    def _paid(self, sig: tuple, card: int, pool: tuple) -> tuple:
        """((the ready part after the plan, its floating mana types) or None, whether
        that is proven): what every best plan does, where they all do the same
        (``solver.direct.forced_outcome``: which of alike permanents is tapped changes no
        board here), else the planner's plan."""
        from ..queries import answer
        from ..solver.direct import forced_outcome

        spell = {"id": "cast", "card": self.deck.cards[card]}
        if "{X}" in (self.deck.cards[card].get("mana_cost") or ""):
            spell["x"] = 0
        problem = self._problem(sig, ("pay", card, pool), lambda: {"query": "pay", "spell": spell,
                                                                   **self._with_pool(pool)})
        forced = forced_outcome(problem)
        if forced is False:
            return None, True
        if forced is not None and all(len({_code_of(sig, pid) for pid in ids}) == 1 and _code_of(sig, ids[0]) is not None
                                      for ids, _ in forced[0]):
            tapped_ids = {pid for ids, n in forced[0] for pid in ids[:n]}
            return (tuple((code & ~3) | TAPPED if f"p{i}" in tapped_ids else code for i, code in enumerate(sig)),
                    tuple(sorted(t for t, n in zip(MANA_TYPES, forced[1]) for _ in range(n)))), True
        plan = answer(copied_with(problem, explain_no=False))  # (a no's words are never read here)
        if not isinstance(plan, Plan):
            return None, isinstance(plan, Unpayable)
        tapped, gone = set(plan.tapped), set(plan.sacrificed)
        after = tuple((code & ~3) | TAPPED if f"p{i}" in tapped else code
                      for i, code in enumerate(sig) if f"p{i}" not in gone)
        # (mana a restriction ties to some spells is not carried: Player.after)
        floating = tuple(sorted(u.type for u in plan.floating if not (u.spell_only or u.generic_only
                                                                       or u.ability_only or u.keyword)))
        return (after, floating), plan.optimal

    def _problem(self, sig: tuple, key: tuple, request):
        """The question ``request()`` asks (a request without permanents, read once under
        ``key``: the deck's cards through the protocol's reader of card objects) on the
        board ``sig``, put together from each permanent's body (:meth:`_board`)."""
        base = self._bases.get(key)
        if base is None:
            from ..protocol import mtg

            base = self._bases[key] = mtg.read(request())
        # (a new problem, its checks run: the board's mana resolved with the player, CR 903.4f,
        # haste given, and the cost effects of this board applied to spells read without any)
        return replace(base, board=self._board(sig, base.board.given().permanents), spell=_unapplied(base.spell),
                       hand=tuple(_unapplied(s) for s in base.hand))

    def _board(self, sig: tuple, from_hand: Sequence = ()) -> Board:
        """The board of ``sig``: permanent ``p{i}`` of card ``code >> 2`` in state ``code &
        3`` (tapped, or a creature summoning sick: CR 302.6), held by body (each body read
        once per card and state), and the hand's mana abilities (``from_hand``: Spirit
        Guides) beside them."""
        ids_of: dict = {}
        for i, code in enumerate(sig):
            ids_of.setdefault(code, []).append(f"p{i}")
        kinds = []
        for code, ids in ids_of.items():
            body = self._bodies.get(code)
            if body is None:
                body = self._bodies[code] = self._body(code)
            kinds.append((body, tuple(ids)))  # (a kind's body under any id: the one read, what it found kept on it)
        if from_hand:
            return Board(tuple(body.with_id(pid) for body, ids in kinds for pid in ids) + tuple(from_hand))
        body_of = {pid: body for body, ids in kinds for pid in ids}
        return Board(PermanentsByBody(tuple(kinds), tuple(f"p{i}" for i in range(len(sig))), body_of, None))

    def _body(self, code: int):
        """The permanent of card ``code >> 2`` in state ``code & 3``, read (id ``p``)."""
        from ..protocol.permanents import read_permanent

        deck, c = self.deck, code >> 2
        return read_permanent({"id": "p", "card": deck.cards[c], "tapped": code & 3 == TAPPED,
                               "summoning_sick": code & 3 == SICK and deck.creature[c]}, f"cards[{deck.names[c]!r}]")

    def largest_x(self, sig: tuple, card: int, pool: tuple = ()) -> int | None:
        """The largest X the board ``sig`` (and the mana ``pool``) pays for the X spell
        ``card`` (the max_x query), or None where it pays no X at all or the answer is
        undecided; kept by board."""
        sig, _ = self._split(sig)
        key = (sig, card, pool)
        if key not in self.xs:
            from ..queries import answer

            problem = self._problem(sig, ("max_x", card, pool), lambda: {
                "query": "max_x", "spell": {"id": "cast", "card": self.deck.cards[card]}, **self._with_pool(pool)})
            found = answer(copied_with(problem, explain_no=False))
            self.xs[key] = found.x if isinstance(found, Plan) and found.x is not None else None
        return self.xs[key]

    def pay(self, sig: tuple, card: int) -> tuple | None:
        """The board after paying for ``card`` with the best plan (what it tapped is
        tapped, what it sacrificed gone; the card itself not added), or None: the
        question of :meth:`pay_floating` with no mana floating (one answer kept for both:
        the simulated player's cast and a line of play's are the same request)."""
        paid = self.pay_floating(sig, card)
        return None if paid is None else paid[0]


#: the boards ``BoardAnswers.masks`` keeps by the whole board; past it, it starts again
MOST_WHOLE_BOARDS_KEPT = 200_000


def _code_of(sig: tuple, pid: str) -> int | None:
    """The code of the permanent ``pid`` of the board ``sig`` (``p{i}``: its i-th), or
    None for another id (a card of the hand with a mana ability)."""
    i = pid[1:]
    return sig[int(i)] if pid[:1] == "p" and i.isdigit() and int(i) < len(sig) else None


#: the card type of the generic costs the games ask about (how much mana a board makes):
#: a sorcery, which any mana may pay that some spell may (mana for noninstant spells: a
#: planeswalker's +1: Add {R}{R}, activated before casting, CR 606.3)
PROBE_TYPE = "Sorcery"


def _unapplied(spell):
    """A spell read on the empty board of a question's base, without what that board
    applied to its cost (its own reductions counted there)."""
    return spell.unapplied() if spell.cost_effects_applied else spell


def _speaks_of_cost(card: dict) -> bool:
    """Whether a card's text speaks of what it costs (affinity, convoke, improvise, delve,
    "costs ... less"): it may be paid with other mana than its mana value."""
    text = " ".join([str(card.get("oracle_text") or "")] + [str(f.get("oracle_text") or "")
                                                            for f in card.get("card_faces") or ()]).lower()
    return any(word in text for word in ("cost", "affinity", "convoke", "improvise", "delve"))


@dataclass
class Tally:
    """What games add up to: by turn (index 0 is turn 1), how many games had each
    castable mask as players mean it (``players.lines_of_play``: all games, and those
    that made every land drop so far), each short-of-mana mask of that figure, each
    castable mask as the simulated player played, the mana spent, the land drops made,
    and the games whose lines of play were cut (``players.MOST_STATES``)."""

    turns: int
    games: int = 0
    castable: list = field(default_factory=list)
    castable_given_lands: list = field(default_factory=list)
    short: list = field(default_factory=list)
    castable_as_played: list = field(default_factory=list)
    lands_hit: list = field(default_factory=list)
    spent: list = field(default_factory=list)
    mulligans: dict = field(default_factory=dict)
    cut: int = 0
    #: by turn, how many games had each amount of mana (the simulated player's board)
    mana: list = field(default_factory=list)
    #: (game number, on-curve score) of each game, where the policy asks (``curve_score``)
    scores: list = field(default_factory=list)
    #: by turn, how many games had each mask of cards whose answer was undecided (text not
    #: read, a time guard): neither castable nor not, as players mean it and as played
    undecided: list = field(default_factory=list)
    undecided_as_played: list = field(default_factory=list)
    #: by turn, {X spell (measured number): {the largest X some line pays: games}}
    largest_x: list = field(default_factory=list)

    def __post_init__(self):
        if not self.largest_x:
            self.largest_x = [{} for _ in range(self.turns)]
        if not self.castable:
            self.castable = [{} for _ in range(self.turns)]
            self.castable_given_lands = [{} for _ in range(self.turns)]
            self.short = [{} for _ in range(self.turns)]
            self.castable_as_played = [{} for _ in range(self.turns)]
            self.mana = [{} for _ in range(self.turns)]
            self.undecided = [{} for _ in range(self.turns)]
            self.undecided_as_played = [{} for _ in range(self.turns)]
            self.lands_hit = [0] * self.turns
            self.spent = [0] * self.turns

    def add(self, other: "Tally") -> None:
        self.games += other.games
        self.cut += other.cut
        self.scores += other.scores
        for mine, theirs in ((self.castable, other.castable), (self.castable_given_lands, other.castable_given_lands),
                             (self.short, other.short), (self.castable_as_played, other.castable_as_played),
                             (self.mana, other.mana), (self.undecided, other.undecided),
                             (self.undecided_as_played, other.undecided_as_played)):
            for t in range(self.turns):
                for mask, n in theirs[t].items():
                    mine[t][mask] = mine[t].get(mask, 0) + n
        for t in range(self.turns):
            self.lands_hit[t] += other.lands_hit[t]
            self.spent[t] += other.spent[t]
            for k, counts in other.largest_x[t].items():
                mine_x = self.largest_x[t].setdefault(k, {})
                for x, n in counts.items():
                    mine_x[x] = mine_x.get(x, 0) + n
        for k, n in other.mulligans.items():
            self.mulligans[k] = self.mulligans.get(k, 0) + n
