"""The Duel Masters oracles the tests judge the solver with: an exhaustive search over
every tapping, the fewest legal points by a dynamic programme, and a check of an
unpayable answer's certificate (a maximum matching, networkx).

The rules (seed 004, DM Wiki "マナ"): a tapped card gives its mana number in points, in
ONE of its civilizations (「色はひとつのマナにつき1色しか生み出せない」); each
civilization of the card to play needs a DIFFERENT tapped card that paid it (「それ1枚
で文明の支払いを済ませることはできない」); the points reach the cost, and exceed it
only as far as finishing the civilizations needs (「コストの点数の範囲内で文明の支払いを
終了させることができない場合に限り、余分にマナをタップすることが認められる」).

Nothing here uses CP-SAT or the solver's grouping of the mana zone: only the values of
``model.duel_masters``.

>>> from manaplan.model.duel_masters import DMCard, DMRequest, ManaCard
>>> faerie_life = DMRequest(DMCard("Faerie Life", 2, {"nature"}),
...     (ManaCard("f1", {"fire"}), ManaCard("f2", {"fire"}), ManaCard("n1", {"nature"})))
>>> reference_search(faerie_life), minimum_legal_points(faerie_life)
((2, 2), 2)
"""

from __future__ import annotations

import itertools

from manaplan.model.duel_masters import (
                                         CIVILIZATION_NAMES, CIVILIZATIONS, POINTS, Civilization, CivilizationShortfall, DMRequest,
                                         PointsShortfall,
                                         )
from manaplan.model.plan import Unpayable

#: ``reference_search`` tries every subset; beyond this many untapped cards it refuses.
REFERENCE_SEARCH_LIMIT = 12


def objective(problem: DMRequest, tapped_ids) -> tuple:
    """The objective of a tapping, minimised lexicographically: (points, cards tapped,
    civilizations on the tapped cards, scarcity), where tapping a card costs, for each
    of its civilizations, the number of untapped cards that lack that civilization."""
    lacking = {name: sum(1 for card in problem.untapped if Civilization(name) not in card.civilizations)
               for name in CIVILIZATION_NAMES}
    by_id = {card.id: card for card in problem.mana_zone}
    cards = [by_id[card_id] for card_id in tapped_ids]
    return (sum(card.mana_number for card in cards),
            len(cards),
            sum(len(card.civilizations) for card in cards),
            sum(lacking[str(c)] for card in cards for c in card.civilizations))


def minimum_legal_points(problem: DMRequest) -> int | None:
    """The fewest points of any tapping that pays each civilization with a distinct
    card and reaches the cost (the overpayment rule's bound), or None if none exists.

    A dynamic programme over the cards one by one, with states (civilizations paid so
    far, points so far). For a given set of civilizations paid only the smallest total
    that already reaches the cost matters, so the states stay few.
    """
    required = problem.required_civilizations
    bit = {c: 1 << i for i, c in enumerate(required)}
    everything = (1 << len(required)) - 1
    need = problem.cost_to_pay

    def tidy(sums: set) -> set:
        reached = [s for s in sums if s >= need]
        return {s for s in sums if s < need} | ({min(reached)} if reached else set())

    states: dict = {0: {0}}
    for card in problem.untapped:
        grown = {mask: set(sums) for mask, sums in states.items()}
        for mask, sums in states.items():
            for total in sums:
                after = total + card.mana_number
                grown.setdefault(mask, set()).add(after)        # tapped for points
                for c in card.civilizations:                    # or to pay one civilization
                    if c in bit and not mask & bit[c]:
                        grown.setdefault(mask | bit[c], set()).add(after)
        states = {mask: tidy(sums) for mask, sums in grown.items()}
    finished = [s for s in states.get(everything, ()) if s >= need]
    return min(finished) if finished else None


def _pays_every_civilization(required: tuple, cards: tuple) -> bool:
    """Whether distinct cards among ``cards`` can pay each civilization (brute force)."""
    return any(all(card.has(c) for card, c in zip(chosen, required))
               for chosen in itertools.permutations(cards, len(required)))


def reference_search(problem: DMRequest, *, tiebreak: bool = False) -> tuple | None:
    """The optimum by trying every subset of the untapped cards: (points, cards tapped),
    or the whole objective with ``tiebreak=True``; None if nothing pays.

    Slow and plain on purpose: it is the oracle the CP-SAT model is tested against.
    """
    cards = problem.untapped
    if len(cards) > REFERENCE_SEARCH_LIMIT:
        raise ValueError(f"reference_search tries every subset; {len(cards)} untapped cards is too many")
    required = problem.required_civilizations
    need = problem.cost_to_pay
    best = None
    for size in range(len(cards) + 1):
        for chosen in itertools.combinations(cards, size):
            if sum(card.mana_number for card in chosen) < need:
                continue
            if not _pays_every_civilization(required, chosen):
                continue
            key = objective(problem, [card.id for card in chosen])
            key = key if tiebreak else key[:2]
            best = key if best is None or key < best else best
    return best


def check_certificate(problem: DMRequest, unpayable: Unpayable) -> bool:
    """Whether ``unpayable`` proves that no tapping pays the card.

    Code ``civilizations`` with a ``CivilizationShortfall``: the listed civilizations
    are the card's, and the untapped cards having any of them (recomputed here) are
    exactly ``sources`` and fewer than the civilizations, so distinct payers cannot
    exist; a maximum matching (networkx) must agree. Code ``points`` with a
    ``PointsShortfall``: ``needed`` is the cost to pay and ``available``, the points of
    the whole untapped zone (recomputed), falls short. Anything else proves nothing.
    """
    if not isinstance(unpayable, Unpayable):
        return False
    certificate = unpayable.certificate
    if unpayable.code == CIVILIZATIONS and isinstance(certificate, CivilizationShortfall):
        civilizations, sources = certificate.civilizations, certificate.sources
        if not isinstance(civilizations, (tuple, list)) or not civilizations \
                or not isinstance(sources, (tuple, list)):
            return False
        if not all(isinstance(c, Civilization) for c in civilizations):
            return False
        if len(set(civilizations)) != len(civilizations) or not set(civilizations) <= problem.card.civilizations:
            return False
        having = sorted(card.id for card in problem.untapped if card.civilizations & set(civilizations))
        if sorted(sources) != having or len(having) >= len(civilizations):
            return False
        return _maximum_matching_size(problem) < len(problem.card.civilizations)
    if unpayable.code == POINTS and isinstance(certificate, PointsShortfall):
        available = sum(card.mana_number for card in problem.untapped)
        return (certificate.needed == problem.cost_to_pay and certificate.available == available
                and available < problem.cost_to_pay)
    return False


def _maximum_matching_size(problem: DMRequest) -> int:
    """How many of the card's civilizations distinct untapped cards can pay at once."""
    import networkx as nx

    graph = nx.Graph()
    civs = [("civilization", str(c)) for c in problem.required_civilizations]
    graph.add_nodes_from(civs)
    for card in problem.untapped:
        for c in card.civilizations:
            if ("civilization", str(c)) in graph:
                graph.add_edge(("civilization", str(c)), ("card", card.id))
    matching = nx.bipartite.hopcroft_karp_matching(graph, top_nodes=civs)
    return sum(1 for node in civs if node in matching)
