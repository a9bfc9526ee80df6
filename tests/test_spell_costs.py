"""The total cost read from the cards themselves - the spell's own text, the
board's and the opponents' cost effects (CR 601.2f), and land types changed by the board
(CR 305.7, 613) - through ``serve``, and held to the reference search and to an
independent count on random boards."""

import json
import subprocess
import sys

from hypothesis import example, given, reject, settings
from hypothesis import strategies as st

from manaplan import solve
from manaplan.model.errors import SearchTooLarge
from manaplan.model.plan import Plan, Undecided
from manaplan.protocol.mtg import read
from manaplan.queries import answer
from manaplan.solver.checks.reference import plan_objective, reference_optimum
from manaplan.solver.checks.validator import validate_plan
from strategies import has_doubling, requests

ISLAND = {"type_line": "Basic Land — Island"}
MOUNTAIN = {"type_line": "Basic Land — Mountain"}
SWAMP = {"type_line": "Basic Land — Swamp"}
FOREST = {"type_line": "Basic Land — Forest"}
ORNITHOPTER = {"name": "Ornithopter", "type_line": "Artifact Creature — Thopter", "oracle_text": "Flying"}
FROGMITE = {"name": "Frogmite", "mana_cost": "{4}", "type_line": "Artifact Creature — Frog",
            "oracle_text": "Affinity for artifacts (This spell costs {1} less to cast for each artifact you control.)"}
BONE_SPLINTERS = {"name": "Bone Splinters", "mana_cost": "{B}", "type_line": "Sorcery",
                  "oracle_text": "As an additional cost to cast this spell, sacrifice a creature.\nDestroy target "
                                 "creature."}
VILLAGE_RITES = {"name": "Village Rites", "mana_cost": "{B}", "type_line": "Instant",
                 "oracle_text": "As an additional cost to cast this spell, sacrifice a creature.\nDraw two cards."}
LLANOWAR = {"name": "Llanowar Elves", "type_line": "Creature — Elf Druid", "oracle_text": "{T}: Add {G}."}
BEARS = {"name": "Grizzly Bears", "type_line": "Creature — Bear", "mana_cost": "{1}{G}", "colors": ["G"]}
BIRDS = {"name": "Birds of Paradise", "type_line": "Creature — Bird",
         "oracle_text": "Flying\n{T}: Add one mana of any color."}
THALIA = {"name": "Thalia, Guardian of Thraben", "type_line": "Legendary Creature — Human Soldier",
          "oracle_text": "First strike\nNoncreature spells cost {1} more to cast."}
ELECTROMANCER = {"name": "Goblin Electromancer", "type_line": "Creature — Goblin Wizard",
                 "oracle_text": "Instant and sorcery spells you cast cost {1} less to cast."}
SPHERE = {"name": "Sphere of Resistance", "type_line": "Artifact", "oracle_text": "Spells cost {1} more to cast."}
HELM = {"name": "Helm of Awakening", "type_line": "Artifact", "oracle_text": "Spells cost {1} less to cast."}
LODESTONE = {"name": "Lodestone Golem", "type_line": "Artifact Creature — Golem",
             "oracle_text": "Nonartifact spells cost {1} more to cast."}
ARBITER = {"name": "Grand Arbiter Augustin IV", "type_line": "Legendary Creature — Human Advisor",
           "oracle_text": "White spells you cast cost {1} less to cast.\nBlue spells you cast cost {1} less to cast.\n"
                          "Spells your opponents cast cost {1} more to cast."}
TRINISPHERE = {"name": "Trinisphere", "type_line": "Artifact",
               "oracle_text": "As long as Trinisphere is untapped, each spell that would cost less than three mana to "
                              "cast costs three mana to cast. (Additional mana in the cost may be paid with any color "
                              "of mana or colorless mana. For example, a spell that would cost {1}{B} to cast costs "
                              "{2}{B} to cast instead.)"}
BLOOD_MOON = {"name": "Blood Moon", "type_line": "Enchantment", "oracle_text": "Nonbasic lands are Mountains."}
URBORG = {"name": "Urborg, Tomb of Yawgmoth", "type_line": "Legendary Land",
          "oracle_text": "Each land is a Swamp in addition to its other land types."}
YAVIMAYA = {"name": "Yavimaya, Cradle of Growth", "type_line": "Legendary Land",
            "oracle_text": "Each land is a Forest in addition to its other land types."}
OMEN = {"name": "Prismatic Omen", "type_line": "Enchantment",
        "oracle_text": "Lands you control are every basic land type in addition to their other types."}
SEAS = {"name": "Spreading Seas", "type_line": "Enchantment — Aura",
        "oracle_text": "Enchant land\nWhen Spreading Seas enters, draw a card.\nEnchanted land is an Island."}
VOLCANIC = {"name": "Volcanic Island", "type_line": "Land — Island Mountain",
            "oracle_text": "({T}: Add {U} or {R}.)"}


def _serve(requests: list) -> list:
    proc = subprocess.run([sys.executable, "-m", "manaplan", "serve"], input="\n".join(map(json.dumps, requests)) + "\n",
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def _agrees_with_the_reference(problem, out) -> None:
    """A "yes" exactly where the reference search pays, the plan valid and of its optimum."""
    try:
        best = reference_optimum(problem, 50_000)
    except SearchTooLarge:
        reject()
    assert isinstance(out, Plan) == (best is not None), (out, best)
    if isinstance(out, Plan):
        assert validate_plan(problem, out) == []
        assert plan_objective(problem, out) == best


def _on(*perms, prefix="p"):
    return [{"id": f"{prefix}{i}", **p} for i, p in enumerate(perms)]


def test_must_show_1_through_serve():
    bolt = {"name": "Lightning Bolt", "mana_cost": "{R}", "type_line": "Instant",
            "oracle_text": "Lightning Bolt deals 3 damage to any target."}
    strike = {"name": "Lightning Strike", "mana_cost": "{1}{R}", "type_line": "Instant",
              "oracle_text": "Lightning Strike deals 3 damage to any target."}
    cruise = {"name": "Treasure Cruise", "mana_cost": "{7}{U}", "type_line": "Sorcery",
              "oracle_text": "Delve (Each card you exile from your graveyard while casting this spell pays for {1}.)\n"
                             "Draw three cards."}
    stoke = {"name": "Stoke the Flames", "mana_cost": "{2}{R}{R}", "type_line": "Instant",
             "oracle_text": "Convoke (Your creatures can help cast this spell. Each creature you tap while casting "
                            "this spell pays for {1} or one mana of that creature's color.)\nStoke the Flames deals 4 "
                            "damage to any target."}
    engineer = {"name": "Reverse Engineer", "mana_cost": "{3}{U}{U}", "type_line": "Sorcery",
                "oracle_text": "Improvise (Your artifacts can help cast this spell. Each artifact you tap after "
                               "you're done activating mana abilities pays for {1}.)\nDraw three cards."}
    answers = _serve([
        {"id": "frogmite", "query": "total_cost", "spell": FROGMITE, "permanents": _on(ORNITHOPTER, ORNITHOPTER,
                                                                                       ORNITHOPTER)},
        {"id": "frogmite-pay", "spell": FROGMITE, "permanents": _on(ORNITHOPTER, ORNITHOPTER, ORNITHOPTER, MOUNTAIN)},
        {"id": "splinters-none", "spell": BONE_SPLINTERS, "permanents": _on(SWAMP)},
        {"id": "splinters-elves", "spell": BONE_SPLINTERS, "permanents": _on(SWAMP, LLANOWAR)},
        {"id": "thalia", "spell": bolt, "permanents": _on(MOUNTAIN), "opponents": _on(THALIA, prefix="o")},
        {"id": "electromancer", "query": "total_cost", "spell": strike, "permanents": _on(ELECTROMANCER, MOUNTAIN)},
        {"id": "moon-u", "spell": {"mana_cost": "{U}"}, "permanents": _on(BLOOD_MOON, VOLCANIC)},
        {"id": "moon-r", "spell": {"mana_cost": "{R}"}, "permanents": _on(BLOOD_MOON, VOLCANIC)},
        {"id": "urborg", "spell": {"mana_cost": "{B}"}, "permanents": _on(FOREST, URBORG)},
        {"id": "delve", "spell": cruise, "permanents": _on(ISLAND), "player": {"graveyard": 7}},
        {"id": "convoke", "spell": stoke, "permanents": _on(MOUNTAIN, MOUNTAIN, BEARS, BEARS)},
        {"id": "improvise", "spell": engineer, "permanents": _on(ISLAND, ISLAND, ORNITHOPTER, ORNITHOPTER,
                                                                 ORNITHOPTER)},
    ])
    by = {a["id"]: a for a in answers}
    assert by["frogmite"]["total_cost"] == "{1}"
    assert by["frogmite"]["parts"][1] == {"from": "reduce", "cost": "{3}", "text": "Affinity for artifacts"}
    assert by["frogmite-pay"]["payable"] is True and by["frogmite-pay"]["total_cost"] == "{1}"
    assert by["splinters-none"]["payable"] is False and by["splinters-none"]["reason"]["code"] == "nothing_to_sacrifice"
    assert by["splinters-elves"]["payable"] is True and by["splinters-elves"]["plan"]["sacrificed_for_cost"] == ["p1"]
    assert by["thalia"]["payable"] is False and by["thalia"]["reason"]["needs"] == 2  # {1}{R}: one Mountain can't
    assert by["electromancer"]["total_cost"] == "{R}"
    assert by["electromancer"]["parts"][1]["permanent"] == "p0"
    assert by["moon-u"]["payable"] is False and by["moon-r"]["payable"] is True  # CR 305.7: only a Mountain
    assert by["urborg"]["payable"] is True and by["urborg"]["plan"]["payment"][0]["mana"] == "B"
    assert by["delve"]["payable"] is True and by["delve"]["plan"]["exiled"] == 7
    assert by["convoke"]["payable"] is True and "convoke" in {s["ability"] for s in by["convoke"]["plan"]["steps"]}
    assert by["improvise"]["payable"] is True


def test_village_rites_paid_by_a_lone_birds_that_taps_for_black_then_is_sacrificed():
    """Mana abilities come before costs are paid (CR 601.2g-h)."""
    out = solve({"spell": VILLAGE_RITES, "permanents": _on(BIRDS)})
    assert out["payable"] is True
    assert out["plan"]["tapped"] == ["p0"] and out["plan"]["sacrificed_for_cost"] == ["p0"]
    # but not a creature that is sacrificed for mana: an altar's creature can't be both
    altar = {"name": "Ashnod's Altar", "type_line": "Artifact", "oracle_text": "Sacrifice a creature: Add {C}{C}."}
    out = solve({"spell": {**VILLAGE_RITES, "mana_cost": "{2}"}, "permanents": _on(altar, LLANOWAR)})
    assert out["payable"] is False  # the Elves pay {1} of {2} at most, or are sacrificed for {C}{C}: not both


def test_the_callers_total_is_never_counted_twice():
    """Item 5: an engine that works out the total sends its parts; then the spell's and the
    board's cost text is not read again (docs/protocol.md, "The spell's text")."""
    board = _on(ORNITHOPTER, ORNITHOPTER, ORNITHOPTER, THALIA)
    read_out = solve({"query": "total_cost", "spell": FROGMITE, "permanents": board})
    assert read_out["total_cost"] == "{1}"  # Frogmite is a creature: Thalia does not tax it
    given = solve({"query": "total_cost", "spell": {**FROGMITE, "reduce": ["{3}"]}, "permanents": board})
    assert given["total_cost"] == "{1}" and len(given["parts"]) == 2
    sorcery = {"name": "Fling", "mana_cost": "{1}{R}", "type_line": "Instant",
               "oracle_text": "As an additional cost to cast this spell, sacrifice a creature.\nFling deals damage "
                              "equal to the sacrificed creature's power to any target."}
    both = solve({"query": "total_cost", "spell": {**sorcery, "increase": ["{1}"]}, "permanents": board})
    assert both["total_cost"] == "{2}{R}"  # the caller's {1}, not Thalia's again


def test_the_opponents_side_decides_whose_spells_a_line_names():
    arbiter_mine = solve({"query": "total_cost", "spell": {"mana_cost": "{1}{W}"}, "permanents": _on(ARBITER)})
    assert arbiter_mine["total_cost"] == "{W}"
    arbiter_theirs = solve({"query": "total_cost", "spell": {"mana_cost": "{1}{W}"}, "permanents": [],
                            "opponents": _on(ARBITER, prefix="o")})
    assert arbiter_theirs["total_cost"] == "{2}{W}"
    electro_theirs = solve({"query": "total_cost", "spell": {"mana_cost": "{1}{R}", "type_line": "Instant"},
                            "permanents": [], "opponents": _on(ELECTROMANCER, prefix="o")})
    assert electro_theirs["total_cost"] == "{1}{R}"  # "you cast": its controller's spells, not ours
    tri = solve({"query": "total_cost", "spell": {"mana_cost": "{R}"}, "permanents": _on(TRINISPHERE)})
    tapped = solve({"query": "total_cost", "spell": {"mana_cost": "{R}"},
                    "permanents": [{"id": "t", **TRINISPHERE, "tapped": True}]})
    assert tri["total_cost"] == "{2}{R}" and tapped["total_cost"] == "{R}"


def test_land_types_with_the_layer_rules():
    def pays(cost, perms, **more):
        return solve({"spell": {"mana_cost": cost}, "permanents": perms, **more})["payable"]
    moon, urborg, forest = {"id": "moon", **BLOOD_MOON}, {"id": "u", **URBORG}, {"id": "f", **FOREST}
    assert pays("{B}", [urborg, forest]) and pays("{B}{B}", [urborg, forest])  # Urborg is a Swamp itself
    # CR 613.8: Urborg's effect depends on Blood Moon's, which removes it: no Swamps; Urborg is a Mountain
    assert pays("{B}", [moon, urborg, forest]) is False and pays("{R}{G}", [moon, urborg, forest])
    assert pays("{G}", [{"id": "y", **YAVIMAYA}, {"id": "i", **ISLAND}])
    assert pays("{U}", [{"id": "o", **OMEN}, forest])
    seas = {"id": "s", **SEAS, "attached_to": "m"}
    assert pays("{U}", [seas, {"id": "m", **MOUNTAIN}]) and pays("{R}", [seas, {"id": "m", **MOUNTAIN}]) is False
    # an opponent's Blood Moon changes the player's lands too; basics are not changed
    assert pays("{U}", [{"id": "v", **VOLCANIC}], opponents=[moon]) is False
    assert pays("{U}", [{"id": "i", **ISLAND}], opponents=[moon])
    # two independent effects: their order decides (CR 613.7); without timestamps a "no" is not certain
    volc = {"id": "v", **VOLCANIC}
    assert pays("{U}", [moon, {"id": "o", **OMEN}, volc]) is None
    assert pays("{U}", [{**moon, "timestamp": 1}, {"id": "o", **OMEN, "timestamp": 2}, volc]) is True
    assert pays("{U}", [{**moon, "timestamp": 2}, {"id": "o", **OMEN, "timestamp": 1}, volc]) is False
    # a land played from the hand under Blood Moon enters a Mountain
    turn = solve({"query": "best_turn", "hand": [volc, {"id": "c", "mana_cost": "{U}"}], "permanents": [moon]})
    assert turn["value"] == 0


#: lines about a spell's own cost that are not read, and lines on the board about costs
#: that are not read: each makes any answer null
UNREAD_SPELL_LINES = ["As an additional cost to cast this spell, discard a card.",
                      "As an additional cost to cast this spell, pay 3 life.",
                      "Spend only black mana on X.",
                      "This spell costs {2} less to cast if you've cast another spell this turn."]
UNREAD_BOARD_LINES = ["Each spell a player casts costs {1} more to cast for each other spell that player has cast "
                      "this turn.",
                      "Each spell costs {3} more to cast except during its controller's turn."]


@settings(max_examples=max(settings.default.max_examples, 60), deadline=None)
@given(requests(max_permanents=3), st.sampled_from(UNREAD_SPELL_LINES + UNREAD_BOARD_LINES), st.booleans())
def test_a_cost_line_not_read_makes_the_answer_null(request, line, opponents):
    spell = {k: v for k, v in request["spell"].items() if k not in ("increase", "reduce", "minimum", "additional")}
    req = {"spell": spell, "permanents": request["permanents"], "player": request["player"]}
    if line in UNREAD_SPELL_LINES:
        req["spell"] = {**spell, "oracle_text": line}
    else:
        holder = {"id": "holder", "type_line": "Artifact", "oracle_text": line}
        if opponents:
            req["opponents"] = [holder]
        else:
            req["permanents"] = request["permanents"] + [holder]
    out = solve(req)
    if spell.get("mana_cost") is None and "error" not in out:
        return  # no mana cost: it can't be cast whatever it costs (CR 202.1b)
    assert out.get("payable", "error") is None, out
    assert out["reason"]["code"] == "unread_abilities" and any(u["text"] == line for u in out["reason"]["unread"])


#: cost changers drawn for the random boards, with what each does to a spell, for the
#: independent count: (permanent, test on (spell's card types, colors), change)
CHANGERS = [(THALIA, lambda types, colors: "Creature" not in types, +1),
            (SPHERE, lambda types, colors: True, +1),
            (HELM, lambda types, colors: True, -1),
            (LODESTONE, lambda types, colors: "Artifact" not in types, +1),
            (ELECTROMANCER, lambda types, colors: bool({"Instant", "Sorcery"} & types), -1)]
SPELL_TEXTS = ["", "Affinity for artifacts", "This spell costs {1} less to cast for each creature you control.",
               "As an additional cost to cast this spell, sacrifice a creature.",
               "As an additional cost to cast this spell, sacrifice an artifact or land."]


def _expected_generic(spell: dict, perms: list, opponents: list) -> int:
    """The change to the generic part of a spell's cost, counted apart from manaplan's
    code: each changer's +1 or -1 where it applies (either side: these lines name every
    spell, or "you cast" for the Electromancer), affinity and "for each creature"."""
    types = set(spell.get("type_line", "Instant").split("—")[0].split())
    change = 0
    for side, group in (("mine", perms), ("theirs", opponents)):
        for p in group:
            for changer, applies, delta in CHANGERS:
                if p.get("oracle_text") == changer["oracle_text"] and applies(types, set()):
                    if changer is ELECTROMANCER and side == "theirs":
                        continue
                    change += delta
    text = spell.get("oracle_text", "")
    if text == "Affinity for artifacts":
        change -= sum(1 for p in perms if "Artifact" in p.get("type_line", ""))
    elif "each creature you control" in text:
        change -= sum(1 for p in perms if "Creature" in p.get("type_line", ""))
    return change


@settings(max_examples=max(settings.default.max_examples, 80), deadline=None)
@given(requests(max_permanents=3), st.lists(st.sampled_from(range(len(CHANGERS))), max_size=2),
       st.lists(st.sampled_from(range(len(CHANGERS))), max_size=1), st.sampled_from(SPELL_TEXTS))
@example({"spell": {"mana_cost": "{B}", "type_line": "Instant"}, "player": {"life": 20, "pool": ""},
          "permanents": [{"id": "b", "type_line": "Creature — Bird", "abilities": [{"cost": "{T}", "add": "any"}]}]},
         [], [], SPELL_TEXTS[3])
@example({"spell": {"mana_cost": "{1}", "type_line": "Creature — Elf", "convoke": True, "improvise": True},
          "player": {"life": 1, "pool": ""}, "hand": [{"id": "h0", "mana_cost": "{U}{U}"}],
          "permanents": [{"id": "cantor0", "type_line": "Creature — Human Druid", "colors": ["G"], "mana_cost": "{R/G}",
                          "abilities": [{"cost": "Sacrifice this", "add": "any"}]},
                         {"id": "cantor1", "type_line": "Creature — Human Druid", "colors": ["G"], "mana_cost": "{R/G}",
                          "abilities": [{"cost": "Sacrifice this", "add": "any"}]},
                         {"id": "orrery", "type_line": "Artifact",
                          "oracle_text": "You may spend mana as though it were mana of any color."}]},
         [], [], SPELL_TEXTS[3])  # fuzz: convoking with the creature the cost sacrifices keeps no flexibility
@example({"spell": {"mana_cost": "{2}", "type_line": "Creature — Elf", "increase": ["{1}"]},
          "player": {"life": 1, "pool": "{R}", "energy": 0},
          "permanents": [{"id": "p1", "type_line": "Snow Creature — Elf", "colors": [],
                          "abilities": [{"cost": "{2}", "add": "{C}{C}"}, {"cost": "{T}", "add": "any", "damage": 1}]},
                         {"id": "ld0", "type_line": "Land", "abilities": [{"cost": "{T}, Pay 1 life", "add": "any"}]}]},
         [], [], SPELL_TEXTS[3])  # fuzz: tapping the creature the cost sacrifices keeps no flexibility, in the model too
def test_cost_changers_and_spell_text_agree_with_the_reference_and_an_independent_count(request, mine, theirs, text):
    if has_doubling(request["permanents"]):
        reject()
    spell = {k: v for k, v in request["spell"].items() if k not in ("increase", "reduce", "minimum", "additional")}
    if text:
        spell["oracle_text"] = text
    perms = request["permanents"] + [{"id": f"c{i}", **CHANGERS[k][0]} for i, k in enumerate(mine)]
    opponents = [{"id": f"o{i}", **CHANGERS[k][0]} for i, k in enumerate(theirs)]
    req = {"spell": spell, "permanents": perms, "player": request["player"], "opponents": opponents}
    if spell.get("mana_cost") is None:
        return
    total = solve({**req, "query": "total_cost"})
    base = solve({"query": "total_cost", "spell": {k: v for k, v in spell.items() if k != "oracle_text"},
                  "permanents": [], "player": request["player"]})
    if total.get("total_cost") is not None and base.get("total_cost") is not None:
        def generic(t):
            import re
            return sum(int(n) for n in re.findall(r"\{(\d+)\}", t))
        expected = max(0, generic(base["total_cost"]) + _expected_generic(spell, perms, opponents))
        assert generic(total["total_cost"]) == expected, (total, base)
    problem = read(req)
    out = answer(problem)
    if isinstance(out, Undecided):
        reject()
    _agrees_with_the_reference(problem, out)


LANDS = {"forest": FOREST, "island": ISLAND, "volcanic": VOLCANIC,
         "tundra": {"name": "Tundra", "type_line": "Land — Plains Island"},
         "bare": {"name": "Bare Land", "type_line": "Land"}}
CHANGERS_OF_LANDS = {"moon": BLOOD_MOON, "urborg": URBORG, "yavimaya": YAVIMAYA, "omen": OMEN, "seas": SEAS}
_COLOR = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}


def _expected_colors(lands: list, effects: list) -> set:
    """The colors the board's lands can make, worked out apart from manaplan's code: each
    effect in the order given (its timestamp), Urborg's and Yavimaya's dropped when an
    effect sets their own types (CR 613.8), a setting effect leaving only its type (CR
    305.7), an adding one adding its types."""
    board = [(f"l{i}", LANDS[name]) for i, name in enumerate(lands)]
    board += [("urborg", URBORG)] * ("urborg" in [e for e, _ in effects])
    board += [("yavimaya", YAVIMAYA)] * ("yavimaya" in [e for e, _ in effects])

    def nonbasic(land):
        return "Basic" not in land["type_line"]

    def sets_it(effect, target, pid, land):
        return (effect == "moon" and nonbasic(land)) or (effect == "seas" and target == pid)
    colors = set()
    for pid, land in board:
        types = {t for t in land["type_line"].split("—")[-1].split() if t in _COLOR} if "—" in land["type_line"] else set()
        for effect, target in effects:
            if sets_it(effect, target, pid, land):
                types = {"Mountain"} if effect == "moon" else {"Island"}
            elif effect in ("urborg", "yavimaya"):
                if not any(sets_it(e, t, effect, URBORG) for e, t in effects):  # its own land set: no ability
                    types |= {"Swamp" if effect == "urborg" else "Forest"}
            elif effect == "omen":
                types |= set(_COLOR)
        colors |= {_COLOR[t] for t in types}
    return colors


@settings(max_examples=max(settings.default.max_examples, 80), deadline=None)
@given(st.lists(st.sampled_from(sorted(LANDS)), min_size=1, max_size=3),
       st.lists(st.sampled_from(sorted(CHANGERS_OF_LANDS)), max_size=3, unique=True), st.data())
@example(["forest"], ["moon", "urborg"], None)
@example(["volcanic"], ["omen", "moon"], None)
def test_land_types_agree_with_an_independent_reading_of_the_layers(lands, changers, data):
    """A fuzz of land-type changers: with timestamps in the order given, the
    colors each board can pay agree with the layer rules worked out apart (CR 305.7,
    613.7, 613.8), and with the reference search."""
    targets = [f"l{i}" for i in range(len(lands))] + [c for c in ("urborg", "yavimaya") if c in changers]
    effects = []
    for name in changers:
        target = (data.draw(st.sampled_from(targets)) if data is not None else targets[0]) if name == "seas" else None
        effects.append((name, target))
    perms = [{"id": f"l{i}", **LANDS[name]} for i, name in enumerate(lands)]
    for k, (name, target) in enumerate(effects):
        perm = {"id": name if name in ("urborg", "yavimaya") else f"e{k}", **CHANGERS_OF_LANDS[name], "timestamp": k}
        if target:
            perm["attached_to"] = target
        perms.append(perm)
    if any(p.get("attached_to") in ("urborg", "yavimaya") and p["attached_to"] not in [q["id"] for q in perms]
           for p in perms):
        reject()
    expected = _expected_colors(lands, effects)
    for color in "WUBRG":
        request = {"spell": {"mana_cost": "{%s}" % color}, "permanents": perms}
        out = solve(request)
        assert out["payable"] is (color in expected), (color, expected, out)
        problem = read(request)
        assert (reference_optimum(problem, 50_000) is not None) is (color in expected)


def test_the_rest_of_the_real_cards_item_4():
    """Millikin is no mana ability since 2026-08-07 (CR 605.1a: it mills), so it is
    activated before casting, like Chromatic Sphere; Lion's Eye Diamond is a mana ability
    but only as an instant, and before casting it discards the hand, the spell with it;
    Boseiju's "can't be countered" rider has no bearing on paying."""
    millikin = {"id": "mk", "name": "Millikin", "type_line": "Artifact Creature — Construct",
                "oracle_text": "{T}, Mill a card: Add {C}."}
    out = solve({"spell": {"mana_cost": "{1}"}, "permanents": [millikin]})
    assert out["payable"] and out["plan"]["steps"][0]["before_casting"] is True
    assert solve({"spell": {"mana_cost": "{1}"}, "permanents": [millikin], "mid_cast": True})["payable"] is False
    led = {"id": "led", "name": "Lion's Eye Diamond", "type_line": "Artifact",
           "oracle_text": "Discard your hand, Sacrifice Lion's Eye Diamond: Add three mana of any one color. Activate "
                          "only as an instant."}
    out = solve({"spell": {"mana_cost": "{1}"}, "permanents": [led]})
    assert out["payable"] is False and "discards the hand, and the spell with it" in out["reason"]["message"]
    boseiju = {"id": "b", "name": "Boseiju, Who Shelters All", "type_line": "Legendary Land",
               "oracle_text": "Boseiju, Who Shelters All enters tapped.\n{T}, Pay 2 life: Add {C}. If that mana is spent "
                              "on an instant or sorcery spell, that spell can't be countered."}
    out = solve({"spell": {"mana_cost": "{1}", "type_line": "Instant"}, "permanents": [boseiju]})
    assert out["payable"] is True and out["plan"]["life_paid"] == 2


def test_explanations_name_where_each_part_came_from():
    from manaplan.api import explain
    words, ok = explain({"query": "total_cost", "spell": {"name": "Lightning Strike", "mana_cost": "{1}{R}",
                                                          "type_line": "Instant"},
                         "permanents": _on(ELECTROMANCER), "opponents": _on(THALIA, prefix="o")})
    assert ok and "+ {1} increase (Thalia, Guardian of Thraben: Noncreature spells cost {1} more" in words
    assert "- {1} reduce (Goblin Electromancer: " in words
    words, ok = explain({"spell": BONE_SPLINTERS, "permanents": _on(SWAMP, LLANOWAR)})
    assert ok and "sacrificed for its additional cost: Llanowar Elves" in words
    line = "As an additional cost to cast this spell, discard a card or pay 3 life."
    words, ok = explain({"query": "total_cost", "spell": {"name": "Bitter Triumph", "mana_cost": "{1}{B}",
                                                          "type_line": "Instant", "oracle_text": line}})
    assert ok and f"not known: spell: {line!r}" in words


MULLDRIFTER = {"name": "Mulldrifter", "mana_cost": "{4}{U}", "type_line": "Creature — Elemental",
               "oracle_text": "Flying\nWhen this creature enters, if it was cast, draw two cards.\nEvoke {2}{U} (You may "
                              "cast this spell for its evoke cost. If you do, it's sacrificed when it enters.)"}


def test_a_card_is_cast_any_way_it_can_be_for_mana_alone():
    """Item 1: "can I cast it" tries the other ways to cast it for mana alone (evoke, dash,
    overload, bestow: CR 118.9) when its mana cost can't be paid, and says which it used;
    the board's changes apply to them too; alternative_cost pins one."""
    islands = _on(ISLAND, ISLAND, ISLAND)
    out = solve({"spell": MULLDRIFTER, "permanents": islands})
    assert out["payable"] and out["total_cost"] == "{2}{U}" and out["plan"]["cast_with"] == "evoke"
    full = solve({"spell": MULLDRIFTER, "permanents": _on(*[ISLAND] * 5)})
    assert full["payable"] and "cast_with" not in full["plan"]
    no = solve({"spell": MULLDRIFTER, "permanents": islands[:2]})
    assert no["payable"] is False and "evoke {2}{U}" in no["reason"]["message"]
    taxed = solve({"spell": MULLDRIFTER, "permanents": islands, "opponents": _on(SPHERE, prefix="o")})
    assert taxed["payable"] is False  # {3}{U} with Sphere of Resistance
    pinned = solve({"spell": {**MULLDRIFTER, "alternative_cost": "{2}{U}"}, "permanents": islands})
    assert pinned["payable"] and "cast_with" not in pinned["plan"]
    cast = solve({"query": "castable", "hand": [{"id": "m", **MULLDRIFTER}], "permanents": islands})
    assert cast["castable"][0]["plan"]["cast_with"] == "evoke"
    # several payments choose it inside the turn
    seq = solve({"query": "sequence", "spells": [{"id": "m", **MULLDRIFTER}], "permanents": islands})
    assert seq["payable"] is True and seq["sequence"][0]["plan"]["cast_with"] == "evoke"
    turn = solve({"query": "best_turn", "hand": [{"id": "m", **MULLDRIFTER}], "permanents": islands})
    assert turn["cast"] == ["m"] and "not_modelled" not in turn


def test_x_less_where_x_is_counted_on_the_board():
    """Item 1: "costs {X} less, where X is the total power of creatures you control"
    (Ghalta) counts the permanents' ``power`` (a Scryfall card's too); a creature that
    does not give it makes the count a lower bound: a "no" is null."""
    ghalta = {"name": "Ghalta, Primal Hunger", "mana_cost": "{10}{G}{G}", "type_line": "Legendary Creature — Elder "
              "Dinosaur", "oracle_text": "Trample\nThis spell costs {X} less to cast, where X is the total power of "
                                         "creatures you control."}
    beasts = [{"id": "a", "type_line": "Creature — Beast", "power": 4},
              {"id": "b", "object": "card", "name": "Colossal Dreadmaw", "type_line": "Creature — Dinosaur",
               "mana_cost": "{4}{G}{G}", "oracle_text": "Trample", "power": "6", "toughness": "6"}]
    assert solve({"query": "total_cost", "spell": ghalta, "permanents": beasts})["total_cost"] == "{G}{G}"
    forests = [{"id": f"f{i}", **FOREST} for i in range(2)]
    assert solve({"spell": ghalta, "permanents": beasts + forests})["payable"] is True
    unknown = [{"id": "c", "type_line": "Creature — Elf"}] + forests
    assert solve({"spell": ghalta, "permanents": unknown})["payable"] is None


TORMENTING_VOICE = {"name": "Tormenting Voice", "mana_cost": "{1}{R}", "type_line": "Sorcery",
                    "oracle_text": "As an additional cost to cast this spell, discard a card.\nDraw two cards."}
SPIRIT_GUIDE = {"id": "ssg", "name": "Simian Spirit Guide", "mana_cost": "{2}{R}", "type_line": "Creature — Ape Spirit",
                "oracle_text": "Exile this card from your hand: Add {R}."}


def test_a_discard_cost_is_paid_from_the_hand_after_mana_abilities():
    mountains = _on(MOUNTAIN, MOUNTAIN)
    island = {"id": "isl", "name": "Island", "type_line": "Basic Land — Island"}
    assert solve({"spell": TORMENTING_VOICE, "permanents": mountains})["payable"] is None  # no hand: not known
    out = solve({"spell": TORMENTING_VOICE, "permanents": mountains, "hand": [island]})
    assert out["payable"] and out["plan"]["discarded_for_cost"] == ["isl"]
    alone = solve({"query": "castable", "permanents": mountains, "hand": [{"id": "v", **TORMENTING_VOICE}]})
    assert alone["castable"][0]["reason"]["code"] == "nothing_to_discard"  # the spell is not its own discard
    # a Spirit Guide is exiled for mana or discarded, not both
    one = solve({"spell": TORMENTING_VOICE, "permanents": mountains[:1], "hand": [SPIRIT_GUIDE]})
    assert one["payable"] is False
    two = solve({"spell": TORMENTING_VOICE, "permanents": mountains[:1], "hand": [SPIRIT_GUIDE, island]})
    assert two["payable"] and two["plan"]["discarded_for_cost"] == ["isl"]
    total = solve({"query": "total_cost", "spell": TORMENTING_VOICE})
    assert total["parts"][1] == {"from": "discard", "cards": 1, "kind": "card", "text": TORMENTING_VOICE[
        "oracle_text"].split("\n")[0]}


@settings(max_examples=max(settings.default.max_examples, 60), deadline=None)
@given(requests(max_permanents=3), st.lists(st.sampled_from(["island", "ssg", "bolt"]), max_size=2),
       st.sampled_from(["As an additional cost to cast this spell, discard a card.",
                        "As an additional cost to cast this spell, discard a land card.",
                        "As an additional cost to cast this spell, sacrifice a creature."]))
def test_additional_costs_agree_with_the_reference(request, hand, line):
    if has_doubling(request["permanents"]):
        reject()
    cards = {"island": {"name": "Island", "type_line": "Basic Land — Island"}, "ssg": SPIRIT_GUIDE,
             "bolt": {"name": "Lightning Bolt", "mana_cost": "{R}", "type_line": "Instant"}}
    spell = {k: v for k, v in request["spell"].items() if k not in ("increase", "reduce", "minimum", "additional")}
    if spell.get("mana_cost") is None:
        return
    req = {"spell": {**spell, "oracle_text": line}, "permanents": request["permanents"], "player": request["player"],
           "hand": [{**cards[h], "id": f"h{i}"} for i, h in enumerate(hand)]}
    problem = read(req)
    out = answer(problem)
    if not hand and "discard" in line:
        assert isinstance(out, Undecided)  # without a hand a discard cost is not known
        return
    if isinstance(out, Undecided):
        reject()  # (the time guard)
    _agrees_with_the_reference(problem, out)


def test_counts_on_the_board_domain_counters_chosen_types_and_spells_cast():
    """Scion of Draco's domain, Animar's counters, Herald's Horn's chosen type, Hum of the
    Radix's artifacts, Damping Sphere's spells cast this turn (a player field; without it,
    or across a sequence, not known), Natural Order's green creature."""
    def total(spell, perms, **more):
        return solve({"query": "total_cost", "spell": spell, "permanents": perms, **more})["total_cost"]
    scion = {"name": "Scion of Draco", "mana_cost": "{12}", "type_line": "Artifact Creature — Dragon",
             "oracle_text": "Domain — This spell costs {2} less to cast for each basic land type among lands you "
                            "control.\nFlying"}
    assert total(scion, _on(VOLCANIC, FOREST)) == "{6}"
    assert total(scion, _on(VOLCANIC, FOREST, {"name": "Blood Moon", **BLOOD_MOON})) == "{8}"  # a Mountain, a Forest
    animar = {"name": "Animar, Soul of Elements", "type_line": "Legendary Creature — Elemental",
              "oracle_text": "Creature spells you cast cost {1} less to cast for each +1/+1 counter on Animar.",
              "counters": {"+1/+1": 3}}
    wurm = {"mana_cost": "{4}{G}{G}", "type_line": "Creature — Wurm"}
    assert total(wurm, _on(animar)) == "{1}{G}{G}"
    horn = {"name": "Herald's Horn", "type_line": "Artifact", "chosen_type": "Elf",
            "oracle_text": "As this artifact enters, choose a creature type.\nCreature spells you cast of the chosen type "
                           "cost {1} less to cast."}
    assert total({"mana_cost": "{1}{G}", "type_line": "Creature — Elf"}, _on(horn)) == "{G}"
    assert total({"mana_cost": "{1}{G}", "type_line": "Creature — Bear"}, _on(horn)) == "{1}{G}"
    hum = {"name": "Hum of the Radix", "type_line": "Enchantment",
           "oracle_text": "Each artifact spell costs {1} more to cast for each artifact its controller controls."}
    assert total({"mana_cost": "{2}", "type_line": "Artifact"}, _on(hum, ORNITHOPTER, ORNITHOPTER)) == "{4}"
    sphere = {"name": "Damping Sphere", "type_line": "Artifact",
              "oracle_text": "Each spell a player casts costs {1} more to cast for each other spell that player has cast "
                             "this turn."}
    assert total({"mana_cost": "{R}"}, _on(sphere), player={"spells_cast": 2}) == "{2}{R}"
    assert solve({"spell": {"mana_cost": "{R}"}, "permanents": _on(sphere, MOUNTAIN, MOUNTAIN)})["payable"] is None
    seq = solve({"query": "sequence", "spells": [{"id": "a", "mana_cost": "{R}"}, {"id": "b", "mana_cost": "{R}"}],
                 "permanents": _on(sphere, MOUNTAIN, MOUNTAIN, MOUNTAIN), "player": {"spells_cast": 0}})
    # the count rises spell by spell: b is the second spell this turn
    assert [s["total_cost"] for s in seq["sequence"]] == ["{R}", "{1}{R}"]
    two = solve({"query": "sequence", "spells": [{"id": "a", "mana_cost": "{R}"}, {"id": "b", "mana_cost": "{R}"}],
                 "permanents": _on(sphere, MOUNTAIN, MOUNTAIN), "player": {"spells_cast": 0}})
    assert two["reason"]["code"] == "sequence_fails"
    order = {"name": "Natural Order", "mana_cost": "{2}{G}{G}", "type_line": "Sorcery",
             "oracle_text": "As an additional cost to cast this spell, sacrifice a green creature."}
    forests = _on(FOREST, FOREST, FOREST, FOREST)
    elves = {"id": "elves", **LLANOWAR, "mana_cost": "{G}"}
    assert solve({"spell": order, "permanents": forests + [elves]})["plan"]["sacrificed_for_cost"] == ["elves"]
    human = {"id": "h", "type_line": "Creature — Human", "mana_cost": "{W}"}
    assert solve({"spell": order, "permanents": forests + [human]})["reason"]["code"] == "nothing_to_sacrifice"
