"""The registry of queries (manaplan/queries.py): every query is one entry, and
the docs, the schemas and the version answer list each; the new query ``total_cost``
agrees with the rules of the total cost (model.cost) on random spells."""

import json
import os
import re

from hypothesis import given, settings, strategies as st

import manaplan
from manaplan.model.cost import Announcement, SpellCost, all_announcements, total_before_announcing, total_cost
from manaplan.model.mana import ManaCost
from manaplan.queries import DUEL_MASTERS, MAGIC, magic_query

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _doc() -> str:
    with open(os.path.join(ROOT, "docs", "protocol.md"), encoding="utf-8") as f:
        return f.read()


def _schema(name: str) -> dict:
    with open(os.path.join(ROOT, "docs", "schema", f"{name}.schema.json"), encoding="utf-8") as f:
        return json.load(f)


def test_every_registered_query_is_documented_and_in_the_schemas():
    doc = _doc()
    request, response = _schema("request"), _schema("response")
    asked = request["$defs"]["magicRequest"]["properties"]["query"]["enum"]
    listed = response["$defs"]["versionAnswer"]["properties"]["games"]["properties"]["mtg"]["items"]["enum"]
    for query in MAGIC:
        assert f"### `{query.name}`" in doc, query.name
        assert query.name in asked and query.name in listed, query.name
        for field in query.fields:
            assert field in request["$defs"]["magicRequest"]["properties"], (query.name, field)
    version = manaplan.solve({"query": "version"})["games"]
    assert version["mtg"][:len(MAGIC)] == [q.name for q in MAGIC] and version["duel-masters"] == [
        q.name for q in DUEL_MASTERS]


def test_every_entry_names_functions_that_exist():
    """Each entry's answer, writer and explainer import (they are named, and loaded on
    first use)."""
    import importlib
    for query in MAGIC + DUEL_MASTERS:
        for named in (query.answer, query.write, query.explain):
            module = importlib.import_module(named.module, "manaplan")
            assert callable(getattr(module, named.name)), named


def test_an_unknown_query_names_every_query():
    out = manaplan.solve({"query": "pya", "spell": {"mana_cost": "{G}"}})
    message = out["error"]["message"]
    assert out["error"]["at"] == "query"
    for name in [q.name for q in MAGIC] + ["version", "drop_board"]:
        assert name in message, name


def test_a_field_its_query_does_not_use_is_named():
    for query in MAGIC:
        others = {f for q in MAGIC for f in q.fields} - set(query.fields)
        for field in sorted(others):
            out = manaplan.solve({"query": query.name, field: None})
            assert out["error"]["at"] == field, (query.name, field, out)


SYMBOLS = ["{1}", "{2}", "{W}", "{U}", "{W/U}", "{2/W}", "{W/P}", "{C}", "{X}", "{S}", "{U/P}", "{C/W}"]
REDUCTIONS = ["{1}", "{W}", "{U}", "{C}", "{S}", "{W/P}", "{2}"]


@settings(max_examples=max(settings.default.max_examples, 200), deadline=None)
@given(st.lists(st.sampled_from(SYMBOLS), min_size=1, max_size=4), st.lists(st.sampled_from(SYMBOLS), max_size=2),
       st.lists(st.sampled_from(REDUCTIONS), max_size=3), st.integers(0, 4), st.integers(0, 3))
def test_the_total_before_announcing_is_each_locked_in_total_announced(printed, added, reduce, minimum, x):
    """Where total_cost writes a total before announcing, announcing its choice symbols as
    the spell's are announced gives each locked-in total the rules give (model.cost);
    where it writes none, the totals differ by more than how the symbols are written."""
    spell = SpellCost.of("".join(printed), x=x, additional=["".join(added)] if added else (), reduce=reduce,
                         minimum=minimum)
    written = total_before_announcing(spell)
    answer = manaplan.solve({"query": "total_cost", "spell": {
        "mana_cost": "".join(printed), "x": x, "additional": ["".join(added)] if added else [], "reduce": reduce,
        "minimum": minimum}})
    assert answer["total_cost"] == written
    totals = {total_cost(spell, a) for a in all_announcements(spell)}
    assert {t["total_cost"] for t in answer.get("totals", [])} <= {str(t) for t in totals}
    if written is None:
        return
    as_written = SpellCost(ManaCost.parse(written))
    for a in all_announcements(spell):
        assert total_cost(as_written, Announcement(a.halves)) == total_cost(spell, a), (written, a)
    assert magic_query("total_cost").required == ("spell",)
