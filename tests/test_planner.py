"""Payment scenarios, one rule each (CR numbers in the names); every plan is validated."""

from helpers import land, pay

SIGNET = {"cost": "{1}, {T}", "add": "{U}{B}"}
FILTER = {"cost": "{W/B}, {T}", "add": ["{W}{W}", "{W}{B}", "{B}{B}"]}


def test_colorless_symbol_needs_colorless_mana_cr_107_4c():
    assert not pay("{C}", [land("f", "{G}"), land("bop", "any")])["payable"]
    assert pay("{C}", [land("w", "{C}")])["payable"]
    # the same through the CP-SAT model (a Treasure makes the board non-plain)
    treasure = {"id": "t", "abilities": [{"cost": "{T}, Sacrifice this", "add": "any"}]}
    assert not pay("{C}", [treasure])["payable"]
    signet = {"id": "s", "abilities": [{"cost": "{C}, {T}", "add": "{U}{B}"}]}
    assert not pay("{U}", [land("f", "{G}"), signet])["payable"]


def test_hybrid_is_paid_with_either_color_cr_107_4e():
    out = pay("{W/U}{W/U}", [land("p", "{W}"), land("i", "{U}")])
    assert out["payable"] and len(out["plan"]["tapped"]) == 2


def test_twobrid_takes_two_generic_cr_107_4e():
    out = pay("{2/W}", [land("a", "{R}"), land("b", "{R}")])
    assert out["payable"] and out["plan"]["announced"] == [{"symbol": "{2/W}", "as": "generic"}]


def test_phyrexian_life_only_within_life_total_cr_118_3():
    assert pay("{B/P}", [], player={"life": 2})["payable"]
    out = pay("{B/P}", [], player={"life": 1})
    assert not out["payable"] and "life is 1" in out["reason"]["message"]
    out = pay("{B/P}{B/P}", [land("s", "{B}")], player={"life": 1})
    assert not out["payable"] and out["reason"]["message"].startswith("needs 2 black mana; only 1")


def test_snow_needs_a_snow_source_cr_107_4h():
    assert not pay("{S}", [land("f", "{G}")])["payable"]
    out = pay("{S}", [land("f", "{G}"), land("sf", "{G}", snow=True)])
    assert out["payable"] and out["plan"]["tapped"] == ["sf"]


def test_a_filter_land_cannot_pay_for_itself_cr_605_3c():
    assert not pay("{B}{B}", [{"id": "heath", "abilities": [FILTER]}])["payable"]
    # two filters can't bootstrap each other either: someone must pay first
    assert not pay("{B}{B}", [{"id": "h1", "abilities": [FILTER]}, {"id": "h2", "abilities": [FILTER]}])["payable"]


def test_signet_chain_doubling():
    board = [land("l", "{C}")] + [{"id": f"s{i}", "abilities": [SIGNET]} for i in range(5)]
    out = pay("{6}", board)
    assert out["payable"] and len(out["plan"]["tapped"]) == 6
    steps = [s["permanent"] for s in out["plan"]["steps"]]
    assert steps[0] == "l"


def test_pain_land_costs_life_and_is_used_last():
    caves = {"id": "caves", "abilities": [{"cost": "{T}", "add": "{C}"},
                                          {"cost": "{T}", "add": ["{W}", "{B}"], "damage": 1}]}
    out = pay("{1}", [caves])
    assert out["plan"]["life_paid"] == 0
    out = pay("{B}", [caves])
    assert out["plan"]["life_paid"] == 1


def test_treasures_are_sacrificed_only_when_needed():
    board = [land("m", "{R}"), {"id": "t", "abilities": [{"cost": "{T}, Sacrifice this", "add": "any"}]}]
    out = pay("{R}", board)
    assert out["plan"]["sacrificed"] == [] and out["plan"]["tapped"] == ["m"]
    out = pay("{R}{G}", board)
    assert out["plan"]["sacrificed"] == ["t"]


def test_summoning_sick_creatures_cannot_pay_tap_costs_cr_302_6():
    elf = {"id": "elf", "type_line": "Creature — Elf", "summoning_sick": True,
           "oracle_text": "{T}: Add {G}."}
    assert not pay("{G}", [elf])["payable"]
    assert pay("{G}", [{**elf, "summoning_sick": False}])["payable"]


def test_tapped_permanents_cannot_pay():
    assert not pay("{G}", [land("f", "{G}", tapped=True)])["payable"]


def test_restricted_mana_pays_only_what_it_allows_cr_106_6():
    temple = {"id": "t", "abilities": [{"cost": "{T}", "add": "{C}{C}", "restrict": "colorless Eldrazi spells"}]}
    assert pay({"mana_cost": "{2}", "type_line": "Creature — Eldrazi"}, [temple])["payable"]
    assert not pay({"mana_cost": "{2}", "type_line": "Creature — Elf"}, [temple])["payable"]
    pillar = {"id": "p", "abilities": [{"cost": "{T}", "add": "any", "restrict": "multicolored spells"}]}
    assert pay({"mana_cost": "{W}{U}", "type_line": "Instant"}, [pillar, land("x", "{C}")])["payable"] is False
    assert pay({"mana_cost": "{W}{U}", "type_line": "Instant"}, [pillar, dict(pillar, id="p2")])["payable"]


def test_floating_mana_is_spent_and_the_rest_stays():
    out = pay("{R}", [land("m", "{R}")], player={"pool": "{R}{G}"})
    assert out["plan"]["tapped"] == [] and out["plan"]["floating"] == "{G}"


def test_instant_only_abilities_are_not_used_mid_cast_and_the_reason_says_so():
    led = {"id": "led", "abilities": [{"cost": "{T}, Sacrifice this", "add": {"any": 3}, "instant_only": True}]}
    out = pay("{R}{R}", [led], mid_cast=True)
    assert not out["payable"]
    assert out["reason"]["code"] == "needs_activation_before_casting"
    assert out["reason"]["before_casting"] == ["led"]


def test_asked_with_priority_an_ability_that_cant_be_used_mid_cast_is_activated_before_casting():
    """v2's default (mid_cast false): Lion's Eye Diamond is a mana ability restricted to
    instant timing (CR 605.1); activated before the cast, its mana pays. The step says
    so, and a payment that needs no such step is preferred."""
    led = {"id": "led", "abilities": [{"cost": "{T}, Sacrifice this", "add": {"any": 3}, "instant_only": True}]}
    out = pay("{R}{R}", [led])
    assert out["payable"] and out["plan"]["steps"][0]["before_casting"] is True
    out = pay("{R}{R}", [led, land("m1", "{R}"), land("m2", "{R}")])
    assert sorted(out["plan"]["tapped"]) == ["m1", "m2"]
    assert not any(s.get("before_casting") for s in out["plan"]["steps"])


def test_counters_limit_activations():
    storage = {"id": "s", "counters": {"charge": 2},
               "abilities": [{"cost": "Remove a charge counter from this", "add": "{G}"}]}
    assert pay("{G}{G}", [storage])["payable"]
    assert not pay("{G}{G}{G}", [storage])["payable"]


def test_convoke_taps_creatures_for_their_color_or_one_generic_cr_702_51():
    board = [{"id": "c1", "type_line": "Creature — Elf", "colors": ["G"], "summoning_sick": True},
             {"id": "c2", "type_line": "Artifact Creature — Golem"}]
    out = pay({"mana_cost": "{1}{G}", "convoke": True, "type_line": "Instant"}, board)
    assert out["payable"] and sorted(out["plan"]["tapped"]) == ["c1", "c2"]
    assert not pay({"mana_cost": "{G}{G}", "convoke": True}, board)["payable"]


def test_a_creature_tapped_for_convoke_cannot_also_tap_for_mana():
    elf = {"id": "elf", "type_line": "Creature — Elf", "colors": ["G"], "oracle_text": "{T}: Add {G}."}
    assert not pay({"mana_cost": "{G}{G}", "convoke": True}, [elf])["payable"]


def test_improvise_and_delve_pay_only_generic():
    board = [{"id": "a", "type_line": "Artifact", "abilities": []}]
    assert pay({"mana_cost": "{1}", "improvise": True}, board)["payable"]
    assert not pay({"mana_cost": "{C}", "improvise": True}, board)["payable"]
    out = pay({"mana_cost": "{2}{B}", "delve": True}, [land("s", "{B}")], player={"graveyard": 2})
    assert out["payable"] and out["plan"]["exiled"] == 2


def test_trinisphere_floor_cr_601_2f():
    board = [land(f"m{i}", "{R}") for i in range(3)]
    assert pay({"mana_cost": "{R}", "minimum": 3}, board)["total_cost"] == "{2}{R}"
    assert not pay({"mana_cost": "{R}", "minimum": 3}, board[:2])["payable"]


def test_reductions_are_chosen_to_help_cr_118_7e():
    out = pay({"mana_cost": "{1}{W}{U}", "reduce": ["{W/U}"]}, [land("p", "{W}"), land("x", "{C}")])
    assert out["payable"] and out["total_cost"] == "{1}{W}"


def test_max_x_is_one_solve():
    out = pay({"mana_cost": "{X}{R}"}, [land(f"m{i}", "{R}") for i in range(4)], query="max_x")
    assert out["x"] == 3


def test_max_x_with_orochi_hatchery_counts_each_x():
    out = pay({"mana_cost": "{X}{X}"}, [land(f"w{i}", "{C}") for i in range(5)], query="max_x")
    assert out["x"] == 2


def test_unpayable_proof_names_sources():
    out = pay("{U}{U}{U}", [land("i1", "{U}"), land("i2", "{U}"), land("f", "{G}")])
    assert out["reason"]["message"] == "needs 3 blue mana; only 2 untapped sources can make blue: i1, i2"


def test_no_mana_cost_is_unpayable_and_zero_is_free_cr_202_1b_118_5():
    assert pay({"mana_cost": None}, [land("p", "{W}")])["reason"]["code"] == "no_mana_cost"
    out = pay("{0}", [])
    assert out["payable"] and out["plan"]["tapped"] == []


def test_card_text_boards():
    board = [{"id": "f", "name": "Forest", "type_line": "Basic Land — Forest"},
             {"id": "g", "name": "Breeding Pool", "type_line": "Land — Forest Island"},
             {"id": "s", "name": "Simic Signet", "type_line": "Artifact", "oracle_text": "{1}, {T}: Add {G}{U}."}]
    out = pay("{G}{U}{U}", board)
    assert out["payable"] and len(out["plan"]["tapped"]) == 3


def test_cascading_cataracts_converts_five_to_any_colors():
    cataracts = {"id": "cc", "abilities": [{"cost": "{T}", "add": "{C}"},
                                           {"cost": "{5}, {T}", "add": {"combination": 5}}]}
    board = [land(f"w{i}", "{C}") for i in range(5)] + [cataracts]
    out = pay("{W}{U}{B}{R}{G}", board)
    assert out["payable"] and len(out["plan"]["tapped"]) == 6


def test_tap_for_a_costly_ability_then_sacrifice_the_same_permanent():
    a = {"id": "a", "abilities": [{"cost": "{1}, {T}", "add": "{U}{B}"}, {"cost": "Sacrifice this", "add": "{R}"}]}
    out = pay("{U}{R}", [a], player={"pool": "{C}"})
    assert out["payable"] and [s["ability"] for s in out["plan"]["steps"]] == [0, 1]


def test_nothing_is_activated_after_a_sacrifice():
    a = {"id": "a", "abilities": [{"cost": "Sacrifice this", "add": "{R}"}, {"cost": "{R}", "add": "{W}"}]}
    assert not pay("{W}", [a])["payable"]


def test_pillar_of_the_paruns_text_pays_multicolored_spells_cr_106_6():
    pillar = {"type_line": "Land", "name": "Pillar of the Paruns",
              "oracle_text": "{T}: Add one mana of any color. Spend this mana only to cast a multicolored spell."}
    board = [dict(pillar, id="p1"), dict(pillar, id="p2")]
    assert pay({"mana_cost": "{W}{U}", "type_line": "Creature — Human"}, board)["payable"]
    assert not pay({"mana_cost": "{W}{W}", "type_line": "Creature — Human"}, board)["payable"]


def test_city_of_brass_damage_counts_and_a_painless_source_is_preferred():
    cob = {"id": "cob", "name": "City of Brass", "type_line": "Land",
           "oracle_text": "Whenever City of Brass becomes tapped, it deals 1 damage to you.\n"
                          "{T}: Add one mana of any color."}
    birds = {"id": "bop", "type_line": "Creature — Bird", "oracle_text": "{T}: Add one mana of any color."}
    out = pay("{R}", [cob, birds])
    assert out["plan"]["tapped"] == ["bop"] and out["plan"]["life_paid"] == 0
    out = pay("{R}{G}", [cob, birds])
    assert out["plan"]["life_paid"] == 1


def test_damage_is_not_a_cost_so_it_may_be_lethal_cr_118_3():
    tomb = {"id": "tomb", "abilities": [{"cost": "{T}", "add": "{C}{C}", "damage": 2}]}
    out = pay("{2}", [tomb], player={"life": 1})
    assert out["payable"] and out["plan"]["lethal"] is True
    # the spell's Phyrexian life is paid after every mana ability, so after its damage (CR 601.2g-h)
    out = pay("{2}{B/P}", [tomb], player={"life": 3})
    assert not out["payable"]


def test_colorless_hybrid_cr_107_4e():
    assert pay("{C/W}", [land("w", "{C}")])["payable"]
    assert pay("{C/W}", [land("p", "{W}")])["payable"]
    assert not pay("{C/W}", [land("i", "{U}")])["payable"]


def test_a_better_payment_before_casting_is_pointed_out_cr_601_2g():
    stack_ability = {"id": "spirit", "abilities": [{"cost": "{T}", "add": "{R}{R}", "mana_ability": False}]}
    out = pay("{R}{R}", [stack_ability, land("m1", "{R}"), land("m2", "{R}")], mid_cast=True)
    assert sorted(out["plan"]["tapped"]) == ["m1", "m2"]          # mid-cast, only mana abilities
    assert out["plan"]["better_before_casting"]["permanents"] == ["spirit"]
    assert "better_before_casting" not in pay("{R}{R}", [land("m1", "{R}"), land("m2", "{R}")],
                                              mid_cast=True)["plan"]
    out = pay("{R}{R}", [stack_ability, land("m1", "{R}"), land("m2", "{R}")])  # with priority: none needed
    assert sorted(out["plan"]["tapped"]) == ["m1", "m2"] and "better_before_casting" not in out["plan"]


GAEAS_CRADLE = {"name": "Gaea's Cradle", "type_line": "Legendary Land",
                "oracle_text": "{T}: Add {G} for each creature you control."}
ELF = {"type_line": "Creature — Elf", "summoning_sick": True, "abilities": []}


def test_amounts_counted_on_the_board_gaeas_cradle():
    elves = [{"id": f"e{k}", **ELF} for k in range(3)]
    out = pay("{G}{G}{G}", [{"id": "c", **GAEAS_CRADLE}] + elves)
    assert out["payable"] and out["plan"]["steps"][0]["adds"] == "{G}{G}{G}"
    assert not pay("{G}{G}{G}{G}", [{"id": "c", **GAEAS_CRADLE}] + elves)["payable"]
    # no creature: still a mana ability (CR 605.2), it just adds nothing
    assert not pay("{G}", [{"id": "c", **GAEAS_CRADLE}])["payable"]


def test_amounts_counted_on_the_board_in_a_chain_cabal_coffers():
    coffers = {"id": "cc", "name": "Cabal Coffers", "type_line": "Land",
               "oracle_text": "{2}, {T}: Add {B} for each Swamp you control."}
    swamps = [{"id": f"s{k}", "type_line": "Basic Land — Swamp"} for k in range(4)]
    out = pay("{4}{B}", [coffers] + swamps)  # two Swamps pay for Coffers, which adds {B}x4
    assert out["payable"] and len(out["plan"]["tapped"]) == 4
    assert pay("{5}{B}", [coffers] + swamps)["payable"]  # the two other Swamps too
    assert not pay("{6}{B}", [coffers] + swamps)["payable"]


def test_amounts_counted_explicitly_and_what_cant_be_counted():
    archdruid = {"id": "a", "type_line": "Creature — Elf Druid",
                 "abilities": [{"cost": "{T}", "add": {"for_each": "Elf", "mana": "{G}"}}]}
    assert pay("{G}{G}", [archdruid, {"id": "e", **ELF}])["payable"]  # it counts itself
    from manaplan import solve
    priest = {"id": "p", "type_line": "Creature — Elf Druid",
              "oracle_text": "{T}: Add {G} for each Elf on the battlefield."}  # opponents' Elves are unknown
    out = solve({"spell": {"mana_cost": "{G}"}, "permanents": [priest]})  # not read: the "no" is not certain
    assert out["payable"] is None and out["reason"]["code"] == "unread_abilities"
    assert out["reason"]["unread"] == [{"permanent": "p", "text": priest["oracle_text"]}]
    bad = {"id": "b", "abilities": [{"cost": "{T}", "add": {"for_each": "elves", "mana": "{G}"}}]}
    assert solve({"spell": {"mana_cost": "{G}"}, "permanents": [bad]})["error"]["at"] == \
        "permanents[0].abilities[0].add.for_each"


NYKTHOS = {"name": "Nykthos, Shrine to Nyx", "type_line": "Legendary Land",
           "oracle_text": "{T}: Add {C}.\n{2}, {T}: Choose a color. Add an amount of mana of that color equal to "
                          "your devotion to that color."}


def test_devotion_counts_colored_hybrid_and_phyrexian_symbols_cr_700_5():
    forests = [{"id": f"f{k}", "type_line": "Basic Land — Forest"} for k in range(2)]
    creatures = [{**ELF, "id": "g1", "mana_cost": "{G}{G}{G}"},
                 {**ELF, "id": "g2", "mana_cost": "{1}{G/W}{G/P}"}]
    board = [{"id": "n", **NYKTHOS}] + forests + creatures  # devotion to green: 3 + 1 + 1
    out = pay("{G}" * 5, board)
    assert out["payable"] and {"permanent": "n", "adds": "{G}" * 5}.items() <= out["plan"]["steps"][-1].items()
    assert not pay("{G}" * 6, board)["payable"]
    assert not pay("{W}{W}", board)["payable"]  # devotion to white is 1: Nykthos would make {W} for {2}


def test_devotion_of_one_color_and_of_none():
    acolyte = {"id": "k", "type_line": "Creature — Human Druid", "mana_cost": "{3}{G}",
               "oracle_text": "{T}: Add an amount of {G} equal to your devotion to green."}
    assert not pay("{G}{G}", [acolyte])["payable"]  # devotion 1: its own {G}
    assert pay("{G}", [acolyte])["payable"]
    explicit = {"id": "x", "abilities": [{"cost": "{T}", "add": {"for_each": "devotion", "mana": "{U}"}}]}
    assert not pay("{U}", [explicit])["payable"]  # no blue symbols: it adds nothing


def test_a_permanent_sacrificed_mid_payment_is_not_counted_later():
    """Devotion and "for each" counts drop when a counted permanent is sacrificed before
    the counting ability: here the Cantor's mana must pay for Nykthos, so Nykthos counts
    only the Elf's {G}{G} (CR 700.5)."""
    cantor = {"id": "cantor", "name": "Wild Cantor", "type_line": "Creature — Human Druid", "mana_cost": "{R/G}",
              "oracle_text": "Sacrifice Wild Cantor: Add one mana of any color."}
    board = [{"id": "nyk", **NYKTHOS}, {"id": "f", "type_line": "Basic Land — Forest"}, cantor,
             {**ELF, "id": "c", "mana_cost": "{G}{G}"}]
    assert not pay("{G}{G}{G}", board)["payable"]
    # tapped on its own, Gaea's Cradle comes before any sacrifice: everything counts
    assert pay("{G}{G}{G}", [{"id": "cr", **GAEAS_CRADLE}, {**cantor, "summoning_sick": True},
                             {**ELF, "id": "c"}, {**ELF, "id": "d"}])["payable"]


def test_changelings_are_every_creature_type_cr_702_73a():
    archdruid = {"id": "a", "name": "Elvish Archdruid", "type_line": "Creature — Elf Druid",
                 "oracle_text": "Other Elf creatures you control get +1/+1.\n{T}: Add {G} for each Elf you control."}
    changeling = {"id": "ch", "type_line": "Creature — Shapeshifter", "summoning_sick": True,
                  "oracle_text": "Changeling (This card is every creature type.)"}
    assert pay("{G}{G}", [archdruid, changeling])["payable"]


def test_effects_that_change_land_types_are_read_or_errors_never_ignored():
    """Urborg's line is read (model.land_types); a change of land types of a
    form that is not read is still an error, never ignored."""
    from manaplan import solve
    urborg = {"id": "u", "name": "Urborg, Tomb of Yawgmoth", "type_line": "Legendary Land",
              "oracle_text": "Each land is a Swamp in addition to its other land types."}
    out = solve({"spell": {"mana_cost": "{B}"}, "permanents": [{"id": "f", "type_line": "Basic Land — Forest"}, urborg]})
    assert out["payable"] is True
    odd = {"id": "o", "type_line": "Enchantment", "oracle_text": "Each land is a Swamp until end of turn."}
    out = solve({"spell": {"mana_cost": "{B}"}, "permanents": [{"id": "f", "type_line": "Basic Land — Forest"}, odd]})
    assert out["error"]["at"] == "permanents[1].oracle_text"


def test_a_problem_built_in_python_counts_its_amounts_too():
    from manaplan.model.cost import SpellCost
    from manaplan.model.plan import Plan, Unpayable
    from manaplan.model.problem import PaymentProblem, Spell
    from manaplan.model.abilities import Ability, AbilityCost, Output
    from manaplan.model.board import Board, Permanent, Player
    from manaplan.queries import answer
    cradle = Permanent("c", abilities=(Ability(AbilityCost(tap=True), Output.parse({"for_each": "creature",
                                                                                     "mana": "{G}"})),),
                       type_line="Land")
    elves = tuple(Permanent(f"e{i}", type_line="Creature — Elf", creature=True) for i in range(2))
    board = Board((cradle,) + elves)
    assert isinstance(answer(PaymentProblem(Spell(SpellCost.of("{G}{G}")), board, Player())), Plan)
    assert isinstance(answer(PaymentProblem(Spell(SpellCost.of("{G}{G}{G}{G}")), board, Player())), Unpayable)


def test_models_are_made_without_the_camel_case_aliases():
    """solver.runtime.new_model skips OR-Tools' per-model aliases (a fifth of a
    millisecond each) and is a CpModel all the same."""
    from ortools.sat.python import cp_model

    from manaplan.solver.runtime import new_model
    model = new_model()
    assert isinstance(model, cp_model.CpModel) and not hasattr(model, "NewIntVar")
    x = model.new_int_var(0, 3, "x")
    model.add(x >= 2)
    model.minimize(x)
    solver = cp_model.CpSolver()
    assert solver.solve(model) == cp_model.OPTIMAL and solver.value(x) == 2


def test_a_question_waits_for_or_tools_loading_only_within_its_own_time(monkeypatch):
    """``serve`` loads OR-Tools in the background from its start; a question
    that needs it meanwhile waits within its own time guard, then is undecided (as a
    solve that runs out), never late by the whole import. (The loading here never ends.)"""
    import threading
    from manaplan import solve
    from manaplan.solver import runtime

    monkeypatch.setattr(runtime, "_LOADED", threading.Event())
    chains = [{"id": "s", "type_line": "Artifact", "abilities": [{"cost": "{1}, {T}", "add": "{G}{U}"}]},
              {"id": "f", "type_line": "Basic Land — Forest"}]
    out = solve({"spell": {"mana_cost": "{G}{U}"}, "permanents": chains, "time_limit_ms": 50})
    assert out["payable"] is None and out["reason"]["code"] == "timeout"
    cards = solve({"query": "castable", "hand": [{"id": "a", "mana_cost": "{G}{U}"}, {"id": "b", "mana_cost": "{G}"}],
                   "permanents": chains, "time_limit_ms": 50})["castable"]
    assert [card["payable"] for card in cards] == [None, None]  # (each card undecided: the board needs the model)
    plain = solve({"spell": {"mana_cost": "{G}"}, "permanents": chains[1:], "time_limit_ms": 50})
    assert plain["payable"] is True


def test_duel_masters_waits_for_or_tools_loading_only_within_its_own_time(monkeypatch):
    """A Duel Masters request while OR-Tools loads in serve's
    background was an internal error; it is undecided (timeout), as Magic's are."""
    import threading
    from manaplan import solve
    from manaplan.solver import runtime

    monkeypatch.setattr(runtime, "_LOADED", threading.Event())
    out = solve({"game": "duel-masters", "time_limit_ms": 50, "card": {"cost": 2, "civilizations": ["nature"]},
                 "mana_zone": [{"id": "f1", "civilizations": ["fire"]}, {"id": "f2", "civilizations": ["fire"]},
                               {"id": "n1", "civilizations": ["nature"]}]})
    assert "error" not in out and out["payable"] is None and out["reason"]["code"] == "timeout"
