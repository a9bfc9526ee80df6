"""benchmarks/phase_games.py's translation, with no phase installed (CI): phase's state at
a ManaPayment prompt (objects as phase's `battlefield()` gives them, cut to the fields
read) becomes a manaplan `pay` request, and manaplan's plan becomes phase's actions."""

import importlib.util
import os

import pytest

import manaplan

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("phase_games", os.path.join(HERE, "..", "benchmarks", "phase_games.py"))
phase_games = importlib.util.module_from_spec(spec)
spec.loader.exec_module(phase_games)

LAND = {"supertypes": [], "core_types": ["Land"], "subtypes": []}
MANA = {"kind": "Activated", "is_mana_ability": True}
OBJECTS = [
    {"id": 30, "name": "Hinterland Harbor", "controller": 0, "zone": "Battlefield", "tapped": False, "card_types": LAND,
     "abilities": [{**MANA, "description": "{T}: Add {G} or {U}."}], "entered_battlefield_turn": 3},
    {"id": 31, "name": "Forest", "controller": 0, "zone": "Battlefield", "tapped": False,
     "card_types": {"supertypes": ["Basic"], "core_types": ["Land"], "subtypes": ["Forest"]},
     "abilities": [{**MANA, "description": None}], "entered_battlefield_turn": 4},
    {"id": 21, "name": "Llanowar Elves", "controller": 0, "zone": "Battlefield", "tapped": False,
     "card_types": {"supertypes": [], "core_types": ["Creature"], "subtypes": ["Elf", "Druid"]},
     "abilities": [{**MANA, "description": "{T}: Add {G}."}], "entered_battlefield_turn": 5},
    {"id": 40, "name": "Savannah Lions", "controller": 1, "zone": "Battlefield", "tapped": False,
     "card_types": {"supertypes": [], "core_types": ["Creature"], "subtypes": ["Cat"]}, "abilities": []},
]
ORACLE = {"Hinterland Harbor": "This land enters tapped unless you control a Forest or an Island.\n{T}: Add {G} or {U}.",
          "Forest": "({T}: Add {G}.)", "Llanowar Elves": "{T}: Add {G}."}


def test_the_prompt_becomes_a_request_and_the_plan_phases_actions():
    cost = {"type": "Cost", "generic": 0, "shards": ["Green", "Blue"]}
    request = phase_games.request_at_prompt(OBJECTS, 0, cost, ORACLE, 20, [], turn=5)
    assert request["spell"] == {"mana_cost": "{G}{U}"} and request["mid_cast"] is True
    assert [p["id"] for p in request["permanents"]] == ["30", "31", "21"]  # (the opponent's left out)
    assert request["permanents"][2]["summoning_sick"] is True  # (entered this turn: CR 302.6)
    assert request["permanents"][1]["type_line"] == "Basic Land — Forest"
    answer = manaplan.solve(request)
    assert answer["payable"] is True and sorted(answer["plan"]["tapped"]) == ["30", "31"]
    actions = phase_games.plan_actions(answer["plan"], OBJECTS)
    assert actions[-1] == {"type": "PassPriority"}
    by_source = {a["data"]["source_id"]: a for a in actions[:-1]}
    assert by_source[30]["data"]["ability_index"] == 0 and by_source[30]["colors"] == ["U"]
    assert by_source[31]["colors"] == ["G"]


def test_a_pool_and_costs_phase_writes_are_read_or_refused():
    request = phase_games.request_at_prompt(OBJECTS, 0, {"type": "Cost", "generic": 2, "shards": []}, ORACLE, 7,
                                            [{"color": "Green"}, {"color": "Colorless"}], turn=9)
    assert request["spell"]["mana_cost"] == "{2}" and request["player"] == {"life": 7, "pool": "{G}{C}"}
    assert "summoning_sick" not in request["permanents"][2]
    assert phase_games.cost_text({"type": "NoCost"}) == ""
    with pytest.raises(ValueError, match="does not read"):
        phase_games.cost_text({"type": "Cost", "generic": 0, "shards": ["PhyrexianGreen"]})
    with pytest.raises(ValueError):
        phase_games.plan_actions({"steps": [{"permanent": "99", "ability": 0, "adds": "{G}"}]}, OBJECTS)


def test_the_pairs_statistics_count_each_arms_wins_and_the_sign_test():
    def pair(seat, phase_winner, manaplan_winner, life_phase=5, life_manaplan=5):
        lives = lambda life: (life, 0) if seat == 0 else (0, life)  # noqa: E731
        return {"seat": seat, "phase": (phase_winner, 10, lives(life_phase)),
                "manaplan": (manaplan_winner, 10, lives(life_manaplan))}

    pairs = ([pair(0, 1, 0)] * 6 + [pair(1, 1, 0)] + [pair(0, 0, 0, 5, 8)] * 2 + [pair(1, 1, 1)])
    stats = phase_games.pair_statistics(pairs)
    assert stats["won_by_manaplan_arm_only"] == 6 and stats["won_by_phase_arm_only"] == 1
    assert stats["sign_test_p"] == 0.125  # (7 discordant pairs, 6 to 1: 2 * 8/128)
    assert stats["same_winner_pairs"] == 3 and stats["life_difference_same_winner_mean"] == 2.0
    assert phase_games.pair_statistics([])["sign_test_p"] == 1.0


def test_hybrid_and_twobrid_shards_are_read_and_phyrexian_is_refused():
    cost = {"type": "Cost", "generic": 1, "shards": ["GreenWhite", "GreenWhite", "TwoBlue", "Red"]}
    assert phase_games.cost_text(cost) == "{1}{G/W}{G/W}{2/U}{R}"
    assert manaplan.solve({"spell": {"mana_cost": phase_games.cost_text(cost)}, "permanents": []})["payable"] is False
    for shard in ("PhyrexianGreen", "X", "Snow", "GreenPurple"):
        with pytest.raises(ValueError, match="does not read"):
            phase_games.shard_text(shard)


def test_untapped_creatures_are_kept_for_combat_where_a_payment_as_good_allows():
    request = phase_games.request_at_prompt(OBJECTS, 0, {"type": "Cost", "generic": 1, "shards": []}, ORACLE, 20, [],
                                            turn=9)
    assert request["prefer"] == {"keep_untapped": ["21"]}  # (Llanowar Elves, not summoning sick on turn 9)
    answer = manaplan.solve(request)
    assert answer["plan"]["tapped"] in (["30"], ["31"])  # (a land, not the Elves)
    tapped = [dict(o, tapped=True) if o["id"] in (30, 31) else o for o in OBJECTS]
    answer = manaplan.solve(phase_games.request_at_prompt(tapped, 0, {"type": "Cost", "generic": 1, "shards": []},
                                                          ORACLE, 20, [], turn=9))
    assert answer["plan"]["tapped"] == ["21"]  # (kept only where a payment as good allows)


def test_a_color_prompt_is_answered_with_the_steps_mana_one_color_or_a_filter_lands_combination():
    single = [{"type": "ChooseManaColor", "data": {"choice": {"type": "SingleColor", "data": c}}}
              for c in ("Green", "Blue")]
    pick, left = phase_games.pick_color(single, ["U", "G"])
    assert pick["data"]["choice"]["data"] == "Blue" and left == ["G"]
    combos = [{"type": "ChooseManaColor", "data": {"choice": {"type": "Combination", "data": c}, "count": 1}}
              for c in (["Blue", "Blue"], ["Green", "Blue"], ["Green", "Green"])]
    pick, left = phase_games.pick_color(combos, ["U", "G"])
    assert pick["data"]["choice"]["data"] == ["Green", "Blue"] and left == []
    with pytest.raises(ValueError, match="no choice"):
        phase_games.pick_color(combos, ["W", "G"])


def test_the_term_that_makes_a_payment_suboptimal_is_the_first_compared_that_differs():
    answer = manaplan.check({"steps": [{"permanent": "a", "adds": "{G}"}, {"permanent": "b", "adds": "{G}"}],
                             "payment": [{"symbol": "{G}", "mana": "G", "from": "a"}]},
                            "{G}", [{"id": "a", "type_line": "Basic Land — Forest"},
                                    {"id": "b", "type_line": "Basic Land — Forest"}])
    assert answer["verdict"] == "suboptimal"
    assert phase_games.deciding_term(answer) == "tapped"  # (compared first of the three it is worse on)
    assert phase_games.deciding_term(answer, ("floating",)) == "floating"  # (prefer.order first)
    assert phase_games.deciding_term({"verdict": "optimal"}) is None


def test_the_floating_mana_paying_a_filter_lands_cost_is_the_one_the_plan_says():
    options = [{"type": "PayManaAbilityMana", "data": {"payment": [c]}} for c in ("White", "Green")]
    assert phase_games.pick_ability_payment(options, ["G"])["data"]["payment"] == ["Green"]
    with pytest.raises(ValueError, match="no payment"):
        phase_games.pick_ability_payment(options, ["U"])
    bastion = {"id": 42, "name": "Wooded Bastion", "controller": 0, "zone": "Battlefield", "tapped": False,
               "card_types": LAND, "abilities": [{**MANA}, {**MANA}]}
    plain = [{**OBJECTS[1], "id": 7}]
    oracle = {**ORACLE, "Wooded Bastion": "{T}: Add {C}.\n{G/W}, {T}: Add {G}{G}, {G}{W}, or {W}{W}."}
    request = phase_games.request_at_prompt([bastion] + plain, 0, {"type": "Cost", "generic": 0,
                                                                   "shards": ["White", "White"]}, oracle, 20, [], 4)
    answer = manaplan.solve(request)
    assert answer["payable"] is True
    actions = phase_games.plan_actions(answer["plan"], [bastion] + plain)
    filter_step = next(a for a in actions[:-1] if a["data"]["source_id"] == 42)
    assert filter_step["data"]["ability_index"] == 1 and filter_step["pays_with"] == ["G"]
    assert sorted(filter_step["colors"]) == ["W", "W"]


spec_engine = importlib.util.spec_from_file_location("phase_engine", os.path.join(HERE, "..", "benchmarks",
                                                                                   "phase_engine.py"))
phase_engine = importlib.util.module_from_spec(spec_engine)
spec_engine.loader.exec_module(phase_engine)


class _Game:
    """What the rebuild asks of a phase game after the cast: the seat's pool, the spell."""

    def __init__(self, pool):
        self.pool = pool

    def player(self, seat):
        return {"mana_pool": {"mana": self.pool}}

    def object(self, oid):
        return {"keywords": []}


def test_a_payment_is_rebuilt_from_phases_events_with_the_mana_floating_at_the_prompt_paid_from_the_pool():
    """Seat 1 casts {G}{U} (object 90) with {G} floating that its Forest (7) made before
    the cast, and taps its Island (8): the rebuilt plan pays {G} from the pool and {U}
    from the Island, and the referee finds it optimal; phase's record of the sources
    spent names the Forest, the pool's maker."""
    events = [
        {"type": "AbilityActivated", "data": {"kind": "Mana", "source_id": 8}},
        {"type": "PermanentTapped", "data": {"object_id": 8}},
        {"type": "ManaAdded", "data": {"player_id": 1, "mana_type": "Blue", "source_id": 8}},
        {"type": "ManaAbilityProduced", "data": {}},
        {"type": "ManaAdded", "data": {"player_id": 0, "mana_type": "Red", "source_id": 55}},  # (the other seat's)
        {"type": "ZoneChanged", "data": {"object_id": 90, "to": "Stack", "record": {"trigger_source_context": {
            "mana_spent_source_snapshots": [{"source_id": 7}, {"source_id": 8}],
            "colors_spent_to_cast": {"Green": 1, "Blue": 1}, "mana_spent_to_cast_amount": 2}}}},
    ]
    ids = {7: "7", 8: "8"}
    names = {"7": "Forest", "8": "Island"}
    rebuilt = phase_engine.plan_from_events(events, _Game([]), 90, ids, names, {}, ["{G}", "{U}"], 0, [],
                                            [("G", 7)], seat=1)
    plan = rebuilt["plan"]
    assert plan["steps"] == [{"permanent": "8", "adds": "{U}"}]
    assert sorted((line["symbol"], line["from"]) for line in plan["payment"]) == [("{G}", "pool"), ("{U}", "8")]
    request = {"spell": {"mana_cost": "{G}{U}"}, "player": {"pool": "{G}"}, "mid_cast": True,
               "permanents": [{"id": "7", "name": "Forest", "type_line": "Basic Land — Forest", "tapped": True},
                              {"id": "8", "name": "Island", "type_line": "Basic Land — Island"}]}
    assert manaplan.solve({**request, "query": "check", "plan": plan})["verdict"] == "optimal"
    # what is still floating after the cast is found by its maker, not taken as spent
    left = phase_engine.plan_from_events(events[:4], _Game([{"color": "Green", "source_id": 7}]), 90, ids, names, {},
                                         ["{U}"], 0, [], [("G", 7)], seat=1)["plan"]
    assert [(line["symbol"], line["from"]) for line in left["payment"]] == [("{U}", "8")]


def test_the_rest_of_the_hand_goes_with_the_request_and_its_colors_are_kept():
    hand = [{"id": 70, "name": "Kalonian Tusker"}, {"id": 71, "name": "Forest"}, {"id": 72, "name": "Opt"},
            {"id": 73, "name": "Cancel"}]
    cards = {"Kalonian Tusker": {"mana_cost": "{G}{G}", "type_line": "Creature — Beast"},
             "Forest": {"mana_cost": "", "type_line": "Basic Land — Forest"},
             "Opt": {"mana_cost": "{U}", "type_line": "Instant"}, "Cancel": {"mana_cost": "{1}{U}{U}", "type_line": "Instant"}}
    cards_in_hand = phase_games.hand_cards(hand, cards, leave_out=73)  # (Cancel is the card being cast)
    assert [c["id"] for c in cards_in_hand] == ["70", "72"]
    island = {"id": 32, "name": "Island", "controller": 0, "zone": "Battlefield", "tapped": False,
              "card_types": {"supertypes": ["Basic"], "core_types": ["Land"], "subtypes": ["Island"]},
              "abilities": [{**MANA}]}
    request = phase_games.request_at_prompt(OBJECTS[1:2] + [island], 0, {"type": "Cost", "generic": 1, "shards": []},
                                            {**ORACLE, "Island": "({T}: Add {U}.)"}, 20, [], 9,
                                            phase_games.hand_cards(hand[:1], cards))
    assert manaplan.solve(request)["plan"]["tapped"] == ["32"]  # (the Forest kept for the Tusker's {G}{G})


def test_what_the_pairs_can_show_is_said_from_the_pairs_won_by_one_arm_only():
    assert "could not show a difference" in phase_games.what_it_can_show(3, 2)
    assert phase_games.what_it_can_show(9, 1).endswith("shows one")  # (p = 0.021)
    assert phase_games.what_it_can_show(6, 4).endswith("does not show one")
    assert "at least 9 of 10" in phase_games.what_it_can_show(6, 4)
