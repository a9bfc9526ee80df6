"""How deep a chain of mana abilities can go: the graph of which abilities can fund which.

An ability that costs mana is activated with mana made before it (CR 605.3), so the
activations of one payment form chains: a Signet paid by a land, a filter land paid by
the Signet. The CP-SAT model gives each depth a layer (``solver.cpsat``), and a model
with as many layers as the deepest possible chain is exact. This module finds that depth
from the board, with networkx: an edge runs from ability A to ability B when some mana A
makes could pay part of B's cost. Within a strongly connected component (Signets paying
each other, a converter paying itself) a chain can pass through every activation the
component allows; between components it follows the condensation's order, which is
acyclic. The deepest chain is then the heaviest path in the condensation, where a
component weighs 1 if no chain can return to it, and the number of activations its
abilities allow otherwise.

>>> from manaplan.model.cost import SpellCost
>>> from manaplan.model.problem import PaymentProblem, Spell
>>> from manaplan.model.abilities import Ability, AbilityCost, Output
>>> from manaplan.model.board import Board, Permanent, Player
>>> from manaplan.solver.supply import build_supply
>>> def depth(*permanents):
...     problem = PaymentProblem(Spell(SpellCost.of("{4}")), Board(permanents), Player())
...     return depth_bound(build_supply(problem))
>>> island = Permanent("l", abilities=(Ability(AbilityCost(tap=True), Output.parse("{U}")),))
>>> signet = Ability(AbilityCost.parse("{1}, {T}"), Output.parse("{U}{B}"))
>>> depth(island, *(Permanent(f"s{i}", abilities=(signet,)) for i in range(3)))  # Signets pay Signets
3
>>> heath = Ability(AbilityCost.parse("{W/B}, {T}"), Output.parse(["{W}{W}", "{B}{B}"]))
>>> depth(island, Permanent("s", abilities=(signet,)), Permanent("h", abilities=(heath,)))
2
"""

from __future__ import annotations

from manaplan.solver.supply import Supply


def _types_paying(a) -> frozenset:
    """Every mana type that could pay some part of ``a``'s cost (generic: any type)."""
    out = set()
    for sym in a.cost_symbols:
        for option in sym.payment_options(0):
            for need in option.needs:
                out |= need.types
    return frozenset(out)


def funding_graph(supply: Supply):
    """The networkx DiGraph of the abilities whose activations can stand at a depth
    (by index in ``supply.acts``): those that cost mana, and the free abilities of a
    permanent one of whose abilities sacrifices it (``movable``: they may have to wait
    for that permanent's other activations). Its edges:

    - A -> B when some mana A makes could pay part of B's cost (CR 605.3: B then comes
      after A);
    - A -> S when A and S are abilities of one such permanent and S sacrifices it:
      nothing of a permanent is used after its sacrifice, so S comes no earlier than A;
    - C -> S and S -> C between an ability that counts the board (Nykthos) and the
      sacrifice of a permanent it counts: either may wait for the other (CR 700.5);
    - P -> D, when the board has both (``supply.life_order``), from an ability that pays
      life to one that deals damage: the damage may have to wait for the payment (CR
      118.3), a layer later when a sacrifice paid the life.

    It may have more edges than real plans use (restrictions are ignored), never fewer,
    so depths read from it are upper bounds."""
    import networkx as nx  # lazy: only boards whose first depth did not settle need it

    acts = supply.acts
    graph = nx.DiGraph()
    nodes = [j for j, a in enumerate(acts)
             if a.costs_mana or a.movable or a.counted or supply.life_order and a.pays_life]
    graph.add_nodes_from(nodes)
    for c in nodes:
        counted = {g for _, losses in acts[c].counted for g, _ in losses}
        graph.add_edges_from((c, k) for k in nodes if acts[k].group in counted and acts[k].sacrifice)
        graph.add_edges_from((k, c) for k in nodes if acts[k].group in counted and acts[k].sacrifice)
    if supply.life_order:
        graph.add_edges_from((p, d) for p in nodes if acts[p].pays_life
                             for d in nodes if d != p and acts[d].damage)
    paying = {j: _types_paying(acts[j]) for j in nodes if acts[j].costs_mana}
    for j in nodes:
        made = acts[j].output_types
        graph.add_edges_from((j, k) for k in paying if made & paying[k])
        if supply.groups[acts[j].group].ordered:
            graph.add_edges_from((j, k) for k in nodes
                                 if k != j and acts[k].group == acts[j].group and acts[k].sacrifice)
    return graph


def _takes_a_layer(supply: Supply, a) -> bool:
    """Whether an activation of ``a`` may need a layer of its own: it costs mana, it
    doubles the pool (one doubling per layer), it deals damage that may have to wait for
    a life payment, it counts the board and may wait for a sacrifice, or it sacrifices a
    permanent that a counting ability which sacrifices its own permanent may count first."""
    return a.costs_mana or a.doubles or supply.life_order and bool(a.damage) or bool(a.counted) or \
        a.sacrifice and a.movable and any(a.group == g for c in supply.acts if c.counted and c.sacrifice
                                          for _, losses in c.counted for g, _ in losses)


def activation_bound(supply: Supply) -> int:
    """A first, cheap bound on the depth of chains: every activation that may need a
    layer of its own, in one chain; and with a doubling (Doubling Cube), one layer more
    after it, for free abilities that wait for it."""
    return sum(a.cap for a in supply.acts if _takes_a_layer(supply, a)) + supply.doubles


def one_for_one(a) -> bool:
    """Whether ``a`` only turns one mana into one mana (Orochi Leafcaller's "{G}: Add one
    mana of any color"): a cost of one mana symbol paid with one mana, nothing else paid
    or done (no {T}, sacrifice, counters, life, energy, damage, exile, triggered mana,
    count, doubling, another permanent's ability), and one mana made."""
    return (len(a.cost_symbols) == 1 and all(not o.life and o.mana_count == 1
                                             for o in a.cost_symbols[0].payment_options(0))
            and not (a.tap or a.sacrifice or a.counters or a.life or a.energy or a.damage or a.exile or a.bonus
                     or a.counted or a.doubles or a.made_by or a.precast)
            and a.max_output == 1)


def _cyclic_weight(supply: Supply, costly: list) -> int:
    """The most activations of abilities that cost mana one chain can make within a
    component of the funding graph that a chain can return to.

    Every activation the component allows, but for abilities that only turn one mana
    into one mana (:func:`one_for_one`): between two other activations on a chain (or
    before the first, or after the last), a run of those need not pass through the same
    ability twice. If it did (mana turned by A, then by others of them, then by A again),
    A's first activation could have made what its second one made, and the activations
    between, which paid and made nothing else, be left out: a plan as good, no deeper.
    So a chain has at most R other activations and R + 1 runs of at most F of them, R
    being what the other abilities allow and F the number of one-for-one abilities."""
    acts = supply.acts
    free = [j for j in costly if one_for_one(acts[j])]
    others = sum(acts[j].cap for j in costly if j not in free)
    everything = sum(acts[j].cap for j in costly)
    return min(everything, others + (others + 1) * len(free))


def depth_bound(supply: Supply) -> int:
    """The deepest chain of activations of abilities that cost mana any plan can have:
    the heaviest path through the condensation of :func:`funding_graph`, where a
    component weighs the activations of its abilities that cost mana when a chain can
    return to it, and one such activation (or none) when it can't; never more than
    :func:`activation_bound`."""
    if not any(_takes_a_layer(supply, a) for a in supply.acts):
        return int(supply.doubles)  # (a layer after a doubling, for free abilities that wait for it)
    import networkx as nx

    graph = funding_graph(supply)
    dag = nx.condensation(graph)
    weight = {}
    for c, data in dag.nodes(data=True):
        costly = [j for j in data["members"] if _takes_a_layer(supply, supply.acts[j])]
        cyclic = len(data["members"]) > 1 or any(graph.has_edge(j, j) for j in data["members"])
        weight[c] = _cyclic_weight(supply, costly) if cyclic else min(1, sum(supply.acts[j].cap for j in costly))
    deepest: dict = {}
    for c in nx.topological_sort(dag):
        deepest[c] = weight[c] + max((deepest[p] for p in dag.predecessors(c)), default=0)
    return min(activation_bound(supply), max(deepest.values()) + supply.doubles)
