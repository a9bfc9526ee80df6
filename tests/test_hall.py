"""Hall's condition in one form (solver.hall.hall_shortfall) for every plain "no": it
holds exactly when a matching gives each need a source of its own (a brute force by
networkx's maximum matching), its vector form (demand_vector, supply_vector) agrees set by
set, and Duel Masters' civilizations use the same function."""

from collections import Counter

import networkx as nx
from hypothesis import given
from hypothesis import strategies as st

from manaplan.model.symbols import ALL_TYPES_MASK, MANA_TYPES, TYPE_SETS, type_mask
from manaplan.solver.hall import demand_vector, hall_shortfall, hall_violation, supply_vector

TYPE_SET = st.sets(st.sampled_from(MANA_TYPES), min_size=1).map(frozenset)
COUNTS = st.dictionaries(TYPE_SET, st.integers(1, 3), max_size=4).map(Counter)


def _matched(needs: Counter, sources: Counter) -> int:
    graph = nx.Graph()
    left = [("need", types, k) for types, n in needs.items() for k in range(n)]
    right = [("source", types, k) for types, n in sources.items() for k in range(n)]
    graph.add_nodes_from(left + right)
    graph.add_edges_from((a, b) for a in left for b in right if a[1] & b[1])
    return len(nx.bipartite.maximum_matching(graph, top_nodes=left)) // 2


@given(COUNTS, COUNTS)
def test_hall_shortfall_is_none_exactly_when_every_need_has_its_own_source(needs, sources):
    found = hall_violation(needs, sources)
    assert (found is None) == (_matched(needs, sources) == sum(needs.values()))
    demand, supply = demand_vector(needs), supply_vector(sources)
    short = [types for types in TYPE_SETS if demand[type_mask(types)] > supply[type_mask(types)]]
    if found is None:
        assert short == []
    else:
        types, n, m = found
        assert short[0] == types and (n, m) == (demand[type_mask(types)], supply[type_mask(types)])
        assert all(len(t) >= len(types) for t in short)  # (the smallest set: the proof a player reads)


def test_hall_shortfall_on_other_elements_than_mana_types():
    # three needs over two bits, sources touching the first bit only twice
    assert hall_shortfall([1, 2, 3], [(1, 1), (2, 1), (3, 1)], [(1, 2), (2, 1)]) is None
    assert hall_shortfall([1, 2, 3], [(1, 2), (3, 1)], [(1, 1), (2, 5)]) == (1, 2, 1)
    assert hall_shortfall(range(1, ALL_TYPES_MASK + 1), [], [(1, 1)]) is None
