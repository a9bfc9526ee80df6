"""Hypothesis strategies for payment requests (the JSON protocol's shape).

They cover every symbol kind, X, additional costs, increases, reductions and a floor,
sources that make several mana or a choice, ``any`` and combinations, life-costing,
sacrificing and counter-using sources, filter lands and Signets (abilities that cost
mana), tapped and summoning-sick permanents, restricted and snow mana, convoke,
improvise and delve, floating mana and low life totals, triggered mana and "tapped for
mana" replacement effects. Boards stay small enough for the reference search.
"""

import re

from hypothesis import strategies as st

SPELL_SYMBOLS = ["{1}", "{2}", "{W}", "{U}", "{B}", "{G}", "{C}", "{W/U}", "{U/B}", "{2/W}", "{2/U}",
                 "{W/P}", "{U/P}", "{W/U/P}", "{S}", "{X}", "{0}", "{C/U}"]
REDUCTIONS = ["{1}", "{2}", "{W}", "{U}", "{C}", "{W/U}", "{2/W}", "{U/P}", "{S}", "{C/W}"]
OUTPUTS = ["{W}", "{U}", "{B}", "{C}", "{G}", "{C}{C}", "{U}{B}", "{W}{W}", "any", {"any": 2},
           ["{W}", "{U}"], ["{W}{W}", "{W}{U}", "{U}{U}"], ["{U}", "{B}", "{C}"], {"combination": 2},
           {"for_each": "land", "mana": "{C}"}, {"for_each": "Forest", "mana": "{G}"},  # Gaea's Cradle-style
           {"for_each": "devotion", "mana": "any"}]                                      # Nykthos-style
ABILITY_MANA = ["", "", "", "", "{1}", "{W/U}", "{U}", "{2}", "{W/P}", "{C}"]


#: abilities without {T} that turn mana into mana. An any-color converter (Orochi
#: Leafcaller) is left to explicit examples: with it the exhaustive reference search can
#: take minutes on a four-permanent board.
CONVERTERS = [("{1}", "{W}"), ("{2}", "{C}{C}"), ("{U}", ["{B}", "{R}"]), ("{W/U}", "{G}")]


@st.composite
def abilities(draw):
    if draw(st.integers(0, 12)) == 0:  # no {T}: a converter, as often as its mana allows
        cost, add = draw(st.sampled_from(CONVERTERS))
        return {"cost": cost, "add": add}
    parts = []
    mana = draw(st.sampled_from(ABILITY_MANA))
    if mana:
        parts.append(mana)
    tap = draw(st.booleans() | st.just(True))
    sac = draw(st.integers(0, 6)) == 0
    life = draw(st.sampled_from([0, 0, 0, 0, 1, 2]))
    counter = draw(st.integers(0, 7)) == 0
    energy = draw(st.integers(0, 9)) == 0  # the player's energy, shared by every ability (Aether Hub)
    if tap:
        parts.append("{T}")
    if life:
        parts.append(f"Pay {life} life")
    if sac:
        parts.append("Sacrifice this")
    if counter:
        parts.append("Remove a charge counter from this")
    if energy:
        parts.append("Pay {E}")
    if not (tap or sac or counter or life):
        parts.append("{T}")
    out = draw(st.sampled_from(OUTPUTS))
    if mana and not (tap or sac or counter or life):
        pass
    spec = {"cost": ", ".join(parts), "add": out}
    if draw(st.integers(0, 9)) == 0:
        spec["restrict"] = draw(st.sampled_from(["creature spells", "a multicolored spell", "instant spells"]))
    if draw(st.integers(0, 14)) == 0:
        spec["instant_only"] = True
    if draw(st.integers(0, 9)) == 0:
        spec["damage"] = 1
    return spec


@st.composite
def permanents(draw, pid):
    p = {"id": pid, "abilities": draw(st.lists(abilities(), min_size=0, max_size=2))}
    if draw(st.integers(0, 7)) == 0:  # tapped for an ability, then sacrificed for more (dual use): its
        p["abilities"] = [{"cost": draw(st.sampled_from(["{W}, {T}", "{1}, {T}", "{U}, {T}", "{T}", "{T}"])),  # sacrifice
                           "add": draw(st.sampled_from(["{G}", "{U}{B}", "{W}"]))},               # must wait
                          {"cost": draw(st.sampled_from(["Sacrifice this", "{U}, Sacrifice this"])),
                           "add": draw(st.sampled_from(["{R}", "{W}", "any"]))}]
    kind = draw(st.sampled_from(["land", "land", "forest", "artifact", "creature"]))
    p["type_line"] = {"land": "Land", "forest": "Land — Forest", "artifact": "Artifact",
                      "creature": "Creature — Elf"}[kind]
    if draw(st.integers(0, 5)) == 0:
        p["type_line"] = "Snow " + p["type_line"]
    if kind == "creature":
        p["colors"] = draw(st.sampled_from([[], ["G"], ["W"], ["W", "U"]]))
        if p["colors"]:  # for devotion
            p["mana_cost"] = "{1}" + "".join("{%s}" % c for c in p["colors"])
        p["summoning_sick"] = draw(st.integers(0, 3)) == 0
    if draw(st.integers(0, 8)) == 0:
        p["tapped"] = True
    if any("counter" in a["cost"] for a in p["abilities"]):
        p["counters"] = {"charge": draw(st.integers(0, 2))}
    return p


def has_converter(perms: list) -> bool:
    """Whether an ability can be activated again and again for mana (it costs mana, and
    no tap, sacrifice or counter): beside a doubling (Doubling Cube, CR 701.9f) the proof
    of the best plan can run to the time guard (README, "limits"), so random boards keep
    the two apart."""
    return any(re.search(r"\{[^T}]*\}", a["cost"]) and not re.search(r"\{T\}|Sacrifice|counter", a["cost"])
               for p in perms for a in p.get("abilities", []))


def has_doubling(perms: list) -> bool:
    return any(a.get("add") == "double" for p in perms for a in p.get("abilities", []))


@st.composite
def requests(draw, max_permanents=4):
    cost = "".join(draw(st.lists(st.sampled_from(SPELL_SYMBOLS), min_size=0, max_size=4)))
    spell = {"mana_cost": cost if cost or draw(st.booleans()) else None,
             "type_line": draw(st.sampled_from(["Creature — Elf", "Instant"]))}
    if "{X}" in cost:
        spell["x"] = draw(st.integers(0, 2))
    if draw(st.integers(0, 5)) == 0:
        spell["additional"] = [draw(st.sampled_from(["{1}", "{W}", "{U/P}", "{2/U}", "{X}"]))]
        if "{X}" in spell["additional"]:
            spell["x"] = draw(st.integers(0, 2))
    if draw(st.integers(0, 6)) == 0:
        spell["increase"] = ["{1}"]
    if draw(st.integers(0, 2)) == 0:
        spell["reduce"] = draw(st.lists(st.sampled_from(REDUCTIONS), min_size=1, max_size=2))
    if draw(st.integers(0, 6)) == 0:
        spell["minimum"] = draw(st.integers(1, 3))
    for key in ("convoke", "improvise", "delve"):
        if draw(st.integers(0, 7)) == 0:
            spell[key] = True
    n = draw(st.integers(0, max_permanents))
    player = {"life": draw(st.sampled_from([20, 20, 4, 2, 1, 0])),
              "pool": draw(st.sampled_from(["", "", "", "{R}", "{C}", "{W}{U}"])),
              "energy": draw(st.sampled_from([0, 1, 1, 2]))}
    if spell.get("delve"):
        player["graveyard"] = draw(st.integers(0, 2))
    perms = [draw(permanents(f"p{i}")) for i in range(n)]
    room = MOST_PERMANENTS - 2 - len(perms)  # a spawn and an enchantment may follow: the reference's limit
    if room >= 1 and draw(st.integers(0, 5)) == 0:  # life paid and damage dealt: their order (CR 118.3)
        player["life"] = draw(st.sampled_from([1, 2, 3]))
        for k, cost in enumerate(draw(st.lists(st.sampled_from(LIFE_AND_DAMAGE), min_size=1, max_size=min(3, room)))):
            spec, type_line = cost
            perms.append({"id": f"ld{k}", "type_line": type_line, "abilities": [dict(spec)]})
    room = MOST_PERMANENTS - 2 - len(perms)
    if room >= 2 and draw(st.integers(0, 6)) == 0:  # a count made as the ability resolves (CR 700.5):
        perms.append({"id": "count", "type_line": "Legendary Land", "abilities": [draw(st.sampled_from(COUNTING))]})
        for k in range(draw(st.integers(1, min(2, room - 1)))):          # sacrificed before it, one stops counting
            perms.append({"id": f"cantor{k}", "type_line": "Creature — Human Druid", "colors": ["G"],
                          "mana_cost": draw(st.sampled_from(["{R/G}", "{G}", "{G}{G}"])),
                          "abilities": [{"cost": draw(st.sampled_from(["Sacrifice this", "{1}, Sacrifice this"])),
                                         "add": draw(st.sampled_from(["any", "{G}", "{C}"]))}]})
    room = MOST_PERMANENTS - 2 - len(perms)
    if room >= 1 and draw(st.integers(0, 5)) == 0:  # a cost that sacrifices another permanent (Ashnod's Altar)
        altar_type, victims = draw(st.sampled_from([("Artifact", "creature"), ("Snow Artifact", "creature"),
                                                     ("Enchantment", "creature"), ("Creature — Elf", "artifact"),
                                                     ("Land", "creature")]))
        sacrifice = f"Sacrifice {'an' if victims[0] in 'aeiou' else 'a'} {victims}"
        cost = draw(st.sampled_from([sacrifice, "{1}, " + sacrifice, "{T}, " + sacrifice,  # Phyrexian Tower
                                     f"{{T}}, Tap an untapped {victims} you control"]))  # Springleaf Drum
        perms.append({"id": "altar", "type_line": altar_type,
                      "abilities": [{"cost": cost, "add": draw(st.sampled_from(["{C}{C}", "any", "{B}"]))}]})
    room = MOST_PERMANENTS - 2 - len(perms)
    if room >= 1 and draw(st.integers(0, 6)) == 0:  # mana spent as though of any color (CR 609.4b):
        perms.append({"id": "orrery", "type_line": "Artifact",  # not convoke's, {C} still colorless
                      "oracle_text": "You may spend mana as though it were mana of any color."})
    room = MOST_PERMANENTS - 2 - len(perms)
    if room >= 1 and not has_converter(perms) and draw(st.integers(0, 6)) == 0:  # a doubling of the pool
        perms.append({"id": "cube", "type_line": draw(st.sampled_from(["Artifact", "Snow Artifact"])),
                      "abilities": [{"cost": draw(st.sampled_from(["{3}, {T}", "{1}, {T}", "{T}", "{W/U}, {T}",
                                                                    "{1}, Sacrifice this"])),
                                     "add": "double"}]})
    if (spell.get("convoke") or spell.get("improvise")) and draw(st.booleans()):  # both tapped to pay and
        perms.append({"id": "spawn", "type_line": draw(st.sampled_from(  # sacrificed for mana? (CR 601.2g-h)
            ["Creature — Eldrazi Spawn", "Artifact — Gold", "Artifact Creature — Construct"])),
            "colors": draw(st.sampled_from([[], ["G"]])),
            "abilities": [{"cost": "Sacrifice this", "add": draw(st.sampled_from(["{C}", "any"]))}]})
    doubling = any(p["id"] == "cube" for p in perms)  # under triggered mana it is not modelled (unread)
    if n and not doubling and draw(st.integers(0, 3)) == 0:  # triggered mana, or a "tapped for mana" replacement
        spec = dict(draw(st.sampled_from(TRIGGERS)))
        keeps = [p for p in perms if not any("Sacrifice" in a["cost"] for a in p.get("abilities", []))]
        altar = any(p["id"] == "altar" for p in perms)  # sacrificing a permanent with triggers: not modelled
        if keeps and spec["of"] != "enchanted" and not altar and draw(st.booleans()):
            source = draw(st.sampled_from(keeps))  # a source that makes mana itself (Badgermole Cub)
            source.update({"triggers": [spec], "chosen_color": "U"})
        else:
            source = {"id": "t", "type_line": draw(st.sampled_from(["Enchantment", "Snow Enchantment"])),
                      "abilities": [], "triggers": [spec], "chosen_color": "U"}
            if spec["of"] == "enchanted":
                source["attached_to"] = draw(st.sampled_from([p["id"] for p in perms]))
            perms.append(source)
    request = {"spell": spell, "player": player, "permanents": perms}
    if draw(st.integers(0, 4)) == 0:  # the rest of the hand: flexibility keeps the colors it needs
        request["hand"] = [{"id": f"h{k}", "mana_cost": draw(st.sampled_from(["{U}{U}", "{1}{G}", "{W/B}", "{R}{R}{R}"]))}
                           for k in range(draw(st.integers(1, 2)))]
    return request


#: Vernal Bloom, Caged Sun, Mana Flare, Overgrowth, Fertile Ground, Leyline of
#: Abundance, Kinnan, Mana Reflection (as the protocol writes them)
#: abilities that pay life or deal damage, for boards where their order decides (pay
#: the life first, take the damage after: CR 118.3); a payment funded by a pain land
#: must wait for it, a sacrifice comes after its permanent's tap
LIFE_AND_DAMAGE = [
    ({"cost": "{T}, Pay 1 life", "add": "any"}, "Land"),                      # Mana Confluence
    ({"cost": "{T}", "add": "{R}", "damage": 1}, "Land"),                     # a pain land
    ({"cost": "{T}", "add": ["{W}", "{B}"], "damage": 1}, "Land"),
    ({"cost": "{1}, Pay 1 life", "add": "{G}"}, "Artifact"),                  # a converter paying life
    ({"cost": "{R}, {T}, Pay 1 life", "add": "{U}{U}"}, "Artifact"),          # funded by the pain land?
    ({"cost": "Sacrifice this, Pay 1 life", "add": "any"}, "Artifact"),       # life paid by a sacrifice
    ({"cost": "{T}, Pay 1 life", "add": "{B}", "damage": 1}, "Land"),         # both at once
    ({"cost": "{T}, Sacrifice this", "add": "{C}", "damage": 1}, "Artifact"),
]

#: the most permanents a random board has: the reference search's limit, so that every
#: "no" is checked by it
MOST_PERMANENTS = 8

#: abilities that count the board: Nykthos, Gaea's Cradle, and one that sacrifices itself
COUNTING = [
    {"cost": "{2}, {T}", "add": {"for_each": "devotion", "mana": "any"}},
    {"cost": "{1}, {T}", "add": {"for_each": "creature", "mana": "{G}"}},
    {"cost": "{T}", "add": {"for_each": "creature", "mana": "{G}"}},
    {"cost": "Sacrifice this", "add": {"for_each": "creature", "mana": "{C}"}},
]

TRIGGERS = [{"when": "tapped", "of": "Forest", "add": "{G}"},
            {"when": "adds", "of": "land", "produces": "chosen", "add": "chosen"},
            {"when": "tapped", "of": "land", "add": "same"},
            {"when": "tapped", "of": "enchanted", "add": "{G}{G}"},
            {"when": "tapped", "of": "enchanted", "add": "any"},
            {"when": "tapped", "of": "creature", "add": "{G}"},
            {"when": "tapped", "of": "nonland permanent", "add": "same"},
            {"when": "tapped", "of": "permanent", "multiply": 2}]


PLAIN_OUTPUTS = ["{W}", "{U}", "{B}", "{R}", "{G}", "{C}", ["{W}", "{U}"], ["{B}", "{R}", "{G}"], "any",
                 ["{U}", "{C}"]]
PLAIN_SYMBOLS = ["{1}", "{2}", "{W}", "{U}", "{B}", "{R}", "{G}", "{C}", "{W/U}", "{B/G}", "{R/W}", "{X}"]


@st.composite
def plain_requests(draw, max_permanents=7):
    """Boards of single-mana {T} sources and costs of colored, {C}, hybrid and generic
    symbols: where Hall's condition decides exactly."""
    cost = "".join(draw(st.lists(st.sampled_from(PLAIN_SYMBOLS), min_size=1, max_size=6)))
    spell = {"mana_cost": cost, "x": draw(st.integers(0, 2))}
    if draw(st.booleans()):
        spell["reduce"] = draw(st.lists(st.sampled_from(["{1}", "{W}", "{C}"]), max_size=2))
    perms = []
    for i in range(draw(st.integers(0, max_permanents))):
        abilities = [{"cost": "{T}", "add": draw(st.sampled_from(PLAIN_OUTPUTS))}]
        if draw(st.integers(0, 4)) == 0:  # a dual land written as two abilities
            abilities.append({"cost": "{T}", "add": draw(st.sampled_from(PLAIN_OUTPUTS))})
        perms.append({"id": f"p{i}", "tapped": draw(st.integers(0, 6)) == 0, "abilities": abilities})
    return {"spell": spell, "permanents": perms,
            "player": {"pool": draw(st.sampled_from(["", "", "{G}", "{C}{U}"]))}}


#: twobrid and Phyrexian symbols: each way to announce them a plain cost (solver.hall.two_way_choices)
TWO_WAY_SYMBOLS = ["{2/W}", "{2/U}", "{G/P}", "{B/P}", "{W/U/P}", "{R/G/P}"]


@st.composite
def two_way_requests(draw, max_permanents=6):
    """Plain boards (as :func:`plain_requests`) and costs with twobrid and Phyrexian
    symbols among plain ones, at a life total that may be short of them (CR 119.4)."""
    request = draw(plain_requests(max_permanents))
    cost = request["spell"]["mana_cost"] + "".join(draw(st.lists(st.sampled_from(TWO_WAY_SYMBOLS), min_size=1,
                                                                 max_size=3)))
    return {**request, "spell": {**request["spell"], "mana_cost": cost},
            "player": {**request["player"], "life": draw(st.sampled_from([20, 4, 3, 2, 1, 0]))}}


#: what the pools of solver.pools cover: {T} abilities that may cost mana and add several
#: (Signets, filter lands, bounce lands, Sol Ring, Elves, duals, any color, combinations)
POOL_ABILITIES = [("{T}", "{G}"), ("{T}", "{U}"), ("{T}", "{C}"), ("{T}", ["{G}", "{U}"]), ("{T}", "{G}{U}"),
                  ("{T}", "{C}{C}"), ("{T}", "any"), ("{T}", {"combination": 2}),
                  ("{1}, {T}", "{G}{U}"), ("{1}, {T}", "{W}{B}"), ("{G/U}, {T}", ["{G}{G}", "{G}{U}", "{U}{U}"]),
                  ("{U}, {T}", "{B}{B}"), ("{2}, {T}", ["{W}{W}{W}", "{U}{U}{U}"]), ("{C}, {T}", "{R}{G}"),
                  ("{W}{U}, {T}", "{G}{G}{G}")]
#: now and then something the pools leave to the general model (a restriction, snow, life)
OUTSIDE_POOLS = [{"cost": "{T}", "add": "{G}", "restrict": "creature spells"}, {"cost": "{T}, Pay 1 life", "add": "{W}"},
                 {"cost": "{T}, Sacrifice this", "add": "any"}]


@st.composite
def pool_requests(draw, max_permanents=5):
    """Boards of {T} abilities that may cost mana and add several mana, some permanents
    tapped or summoning sick, floating mana, and costs of plain, twobrid and Phyrexian
    symbols at a life total that may be short: where solver.pools decides."""
    cost = "".join(draw(st.lists(st.sampled_from(PLAIN_SYMBOLS + TWO_WAY_SYMBOLS[:3]), min_size=1, max_size=6)))
    spell = {"mana_cost": cost, "x": draw(st.integers(0, 2)), "type_line": draw(st.sampled_from(["Creature — Elf",
                                                                                                "Instant"]))}
    perms = []
    for i in range(draw(st.integers(0, max_permanents))):
        abilities = [{"cost": c, "add": a} for c, a in draw(st.lists(st.sampled_from(POOL_ABILITIES), min_size=1,
                                                                      max_size=2))]
        if draw(st.integers(0, 12)) == 0:
            abilities.append(draw(st.sampled_from(OUTSIDE_POOLS)))
        p = {"id": f"p{i}", "abilities": abilities,
             "type_line": draw(st.sampled_from(["Land", "Artifact", "Creature — Elf"]))}
        if draw(st.integers(0, 6)) == 0:
            p["tapped"] = True
        if p["type_line"].startswith("Creature") and draw(st.integers(0, 3)) == 0:
            p["summoning_sick"] = True
        perms.append(p)
    return {"spell": spell, "permanents": perms,
            "player": {"pool": draw(st.sampled_from(["", "", "", "{G}", "{C}{U}"])),
                       "life": draw(st.sampled_from([20, 20, 2, 1, 0]))}}
