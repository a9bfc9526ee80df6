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

>>> from manaplan.protocol.mtg import read
>>> from manaplan.solver.supply import build_supply
>>> signet = {"abilities": [{"cost": "{1}, {T}", "add": "{U}{B}"}]}
>>> board = [{"id": "l", "type_line": "Basic Land — Island"}] + [{"id": f"s{i}", **signet} for i in range(3)]
>>> depth_bound(build_supply(read({"spell": {"mana_cost": "{4}"}, "permanents": board})))
3
>>> heath = {"id": "h", "abilities": [{"cost": "{W/B}, {T}", "add": ["{W}{W}", "{B}{B}"]}]}
>>> depth_bound(build_supply(read({"spell": {"mana_cost": "{4}"}, "permanents": board[:2] + [heath]})))
2
"""

from __future__ import annotations

from .supply import Supply


def _types_paying(a) -> frozenset:
    """Every mana type that could pay some part of ``a``'s cost (generic: any type)."""
    out = set()
    for sym in a.cost_symbols:
        for option in sym.payment_options(0):
            for need in option.needs:
                out |= need.types
    return frozenset(out)


def funding_graph(supply: Supply):
    """The networkx DiGraph over the abilities that cost mana (by index in
    ``supply.acts``), with an edge A -> B when some mana A makes could pay part of B's
    cost. It may have more edges than real plans use (restrictions are ignored), never
    fewer, so depths read from it are upper bounds."""
    import networkx as nx  # lazy: only boards with chains need it

    graph = nx.DiGraph()
    costly = [j for j, a in enumerate(supply.acts) if a.costs_mana]
    graph.add_nodes_from(costly)
    paying = {j: _types_paying(supply.acts[j]) for j in costly}
    for j in costly:
        made = supply.acts[j].output_types
        graph.add_edges_from((j, k) for k in costly if made & paying[k])
    return graph


def activation_bound(supply: Supply) -> int:
    """A first, cheap bound on the depth of chains: every activation of an ability that
    costs mana, in one chain."""
    return sum(a.cap for a in supply.acts if a.costs_mana)


def depth_bound(supply: Supply) -> int:
    """The deepest chain of activations of abilities that cost mana any plan can have:
    at most :func:`activation_bound`, and far less where abilities can't fund each
    other."""
    costly = [j for j, a in enumerate(supply.acts) if a.costs_mana]
    if len(costly) <= 1:
        a = supply.acts[costly[0]] if costly else None
        if a is None:
            return 0
        return a.cap if a.output_types & _types_paying(a) else 1
    import networkx as nx

    graph = funding_graph(supply)
    dag = nx.condensation(graph)
    weight = {}
    for c, data in dag.nodes(data=True):
        members = data["members"]
        cyclic = len(members) > 1 or any(graph.has_edge(j, j) for j in members)
        weight[c] = sum(supply.acts[j].cap for j in members) if cyclic else 1
    deepest: dict = {}
    for c in nx.topological_sort(dag):
        deepest[c] = weight[c] + max((deepest[p] for p in dag.predecessors(c)), default=0)
    return max(deepest.values())
