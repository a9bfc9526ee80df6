"""How the card-text reader does on the fixture of real mana-producing cards
(tests/fixtures/mana_cards.json): each card is read, refused (naming each
line it could not read), or misread (read without a word, but not as the fixture
expects: a bug). ``python3 tests/card_coverage.py`` prints the README's table."""

from __future__ import annotations

import collections
import json
import os

from manaplan.model.errors import ManaplanError
from manaplan.model.mana import ManaCost
from manaplan.model.abilities import Ability, AbilityCost, Output
from manaplan.model.board import Board
from manaplan.model.oracle import CHANGES_COSTS, LOYALTY_ACTIVATION, LOYALTY_TIMING, hand_mana_from_text, spell_mana_from_text
from manaplan.model.restrictions import parse_restriction
from manaplan.model.triggers import ManaTrigger
from manaplan.model.dependent_mana import resolve_board_mana
from manaplan.protocol.mtg import read_player
from manaplan.protocol.permanents import read_ability, read_permanent

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "mana_cards.json")
READ, REFUSED, MISREAD = "read", "refused", "misread"


def cards() -> list:
    with open(FIXTURE, encoding="utf-8") as f:
        return json.load(f)["cards"]


def _ability_key(a) -> tuple:
    restrict = parse_restriction(a.restrict) if a.restrict else ()
    # (the life an activation loses: City of Brass's comes from a trigger, after the spell is cast)
    return a.cost, a.output, restrict, a.instant_only, a.mana_ability, a.damage + a.trigger_damage


def _raw_ability(spec: dict) -> Ability:
    """An ability the protocol's ``add`` can't write: {mana, counters, combination, types}
    (X mana of two colors for X storage counters, Calciform Pools), or {cost, combination,
    types} (Orcish Lumberjack)."""
    if "cost" in spec:
        cost = AbilityCost.parse(spec["cost"])
    else:
        cost = AbilityCost(mana=ManaCost.parse(spec["mana"]), counter_kind="storage", counters=spec["counters"])
    return Ability(cost, Output((), spec["combination"], tuple(c for c in "WUBRG" if c in spec["types"])))


def _loyalty(spec: dict) -> Ability:
    """A loyalty ability that adds mana ({"cost": "+1", "add": ..., "loyalty": true}): once
    a turn, before casting, for sorcery-speed spells (CR 606.3)."""
    return Ability(AbilityCost(counter_kind=LOYALTY_ACTIVATION, counters=1), Output.parse(spec["add"]),
                   "noninstant spells", mana_ability=False)


def judge(card: dict) -> tuple:
    """(status, what was not read: a list of lines, or the error's message)."""
    expected = card["expected"]
    name = card["name"].split(" // ")[0]
    inexpressible = bool(expected.get("inexpressible"))
    if any(t in card["type_line"] for t in ("Instant", "Sorcery")):  # a ritual: the mana its text adds
        try:
            got = spell_mana_from_text(card["oracle_text"], name,
                                       card.get("with", {}).get("player", {}).get("graveyard", 0))
        except ManaplanError as e:
            return REFUSED, [e.message]
        want = tuple(expected.get("spell_adds", "").replace("{", "").replace("}", ""))
        return (READ if got == want and not inexpressible else MISREAD), []
    perm = {"id": "x", "name": name, "type_line": card["type_line"], "oracle_text": card["oracle_text"],
            **card.get("state", {})}
    if card.get("mana_cost"):
        perm["mana_cost"] = card["mana_cost"]
    if "chosen color" in card["oracle_text"]:
        perm["chosen_color"] = "G"
    try:
        p = read_permanent(perm, "")
    except ManaplanError as e:
        return REFUSED, [e.message]
    if "with" in card:  # its mana depends on the rest of the board: resolved on this one
        others = tuple(read_permanent(q, "") for q in card["with"].get("permanents", []))
        opponents = card["with"].get("opponents")
        if opponents is not None:
            opponents = tuple(read_permanent(q, "") for q in opponents)
        p = resolve_board_mana(Board((p,) + others), read_player(card["with"].get("player")), opponents).permanents[0]
    unread = [line for line, why in p.unread if ("hand_adds" not in expected or hand_mana_from_text(line, name) is None)
              and why not in (LOYALTY_TIMING, CHANGES_COSTS)]  # read (a loyalty ability's timing is the
    # request's to say; a change of what spells cost, the spell's increase or reduce)
    grants = [(which, _ability_key(a)) for which, a in p.grants]
    want_grants = [(g["to"], _ability_key(read_ability({"cost": g["cost"], "add": g["add"]})))
                   for g in expected.get("grants", [])]
    want = [_ability_key(_loyalty(a) if a.get("loyalty") else read_ability(a, name))
            for a in expected.get("abilities", [])]
    want += [_ability_key(_raw_ability(a)) for a in expected.get("abilities_raw", [])]
    want_triggers = [ManaTrigger.parse(t, "G").format() for t in expected.get("triggers", [])]
    same = ([_ability_key(a) for a in p.abilities] == want and [t.format() for t in p.triggers] == want_triggers
            and grants == want_grants and list(p.replaces) == expected.get("replaces", [])
            and list(p.spending) == expected.get("spending", []))
    if unread:
        return REFUSED, unread
    return (READ if same and not inexpressible else MISREAD), []


def table() -> list:
    """[(family, read, refused, misread, total)], then the totals."""
    counts: dict = collections.defaultdict(collections.Counter)
    for card in cards():
        counts[card["family"]][judge(card)[0]] += 1
    rows = [(family, c[READ], c[REFUSED], c[MISREAD], sum(c.values())) for family, c in counts.items()]
    total = [sum(r[i] for r in rows) for i in range(1, 5)]
    return rows + [("all", *total)]


if __name__ == "__main__":
    print("| kind of card | read | refused (each line named) | misread | total |\n|---|---|---|---|---|")
    for row in table():
        print("| " + " | ".join(str(x) for x in row) + " |")
