"""benchmarks/phase_games.py's translation, with no phase installed (CI): phase's state at
a ManaPayment prompt (objects as phase's `battlefield()` gives them, cut to the fields
read) becomes a manaplan `pay` request, and manaplan's plan becomes phase's actions."""

import importlib.util
import json
import os
import sys
import types

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
    assert request["spell"] == {"mana_cost": "{G}{U}", "increase": [], "reduce": []} and request["mid_cast"] is True
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
    forests = [{"id": f"f{k}", "type_line": "Basic Land — Forest"} for k in range(5)]
    mountain = [{"id": "m", "type_line": "Basic Land — Mountain"}]
    answer = manaplan.solve({"spell": {"mana_cost": phase_games.cost_text(cost)}, "permanents": forests + mountain})
    assert answer["payable"] is True and len(answer["plan"]["tapped"]) == 6  # ({2/U} paid with two: no blue)
    assert manaplan.solve({"spell": {"mana_cost": phase_games.cost_text(cost)}, "permanents": forests})["payable"] is False
    for shard in ("PhyrexianGreen", "X", "Snow", "GreenPurple", ""):
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

    def __init__(self, pool, seat=1):
        self.pool, self.seat = pool, seat

    def player(self, seat):
        return {"mana_pool": {"mana": self.pool if seat == self.seat else [{"color": "Red", "source_id": 55}]}}

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


class _Action:
    """phase's GameAction, as the driver uses it (a fake: phase is not installed here)."""

    def __init__(self, d):
        self.d = d
        self.kind = d["type"]

    @classmethod
    def from_dict(cls, d):
        return cls(d)

    def to_dict(self):
        return json.loads(json.dumps(self.d))


class _Applied:
    events: list = []


class _StillGame:
    """A game that stays on turn 3 in seat 0's main phase with a card in hand phase does
    not offer (and refuses to cast), its AI passing each time, for ``steps`` steps."""

    def __init__(self, steps=40):
        self.steps, self.turn, self.phase = steps, 3, "PreCombatMain"

    def waiting_for(self):
        return {"type": "Priority"} if self.steps > 0 else {"type": "GameOver", "data": {"winner": 1}}

    def priority_player(self):
        return 0

    def choose_action(self, actor):
        return _Action({"type": "PassPriority"})

    def apply(self, actor, action):
        if action.kind == "CastSpell":
            raise ValueError("Action not allowed: Cannot cast")
        self.steps -= 1
        return _Applied()

    def stack(self):
        return []

    def actions(self):
        return []

    def hand(self, seat):
        return [{"id": 5, "name": "Grizzly Bears"}]

    def object(self, oid):
        return {"name": "Grizzly Bears", "zone": "Hand"}

    def state(self):
        return {"state": {"active_player": 0}}

    def battlefield(self):
        return []

    def player(self, seat):
        return {"life": 20, "mana_pool": {"mana": []}}


class _Serve:
    def ask(self, request):
        assert request["query"] == "castable"
        return {"castable": [{"id": c["id"], "payable": True} for c in request["hand"]]}


def test_a_cast_the_third_arm_tried_and_phase_refused_is_not_tried_again_that_turn(monkeypatch):
    monkeypatch.setitem(sys.modules, "phase", types.SimpleNamespace(GameAction=_Action))
    game = _StillGame()
    table = types.SimpleNamespace(
        engine=types.SimpleNamespace(new_game=lambda **kw: game, load_game=lambda snapshot: game),
        decks=([], []), cards={"Grizzly Bears": {"mana_cost": "{1}{G}", "type_line": "Creature — Bear"}},
        oracle={"Grizzly Bears": ""}, mp=_Serve())
    counts: dict = {}
    result = phase_games.play(table, 1, 0, 0, counts, 0, extra=True, most_steps=200)
    assert result[0] == 1  # (the game went on to its end: the AI's pass applied after the refusal)
    assert counts == {"extra_offered": 1, "extra_refused_by_phase": 1}
    looking: dict = {}
    game.steps = 40
    phase_games.play(table, 1, 0, 0, looking, 0, extra="detect", most_steps=200)
    assert looking["would_offer"] == 40  # (watching only: each pass of the turn, nothing cast)


def test_the_third_arms_own_payments_are_counted_apart_from_the_manaplan_arms(monkeypatch):
    def play(table, seed, first, manaplan_seat, counts, watch_seat, extra=False, most_turns=None):
        if extra == "detect":
            counts.update(prompts=2, carried_out=2, would_offer=1, extra_offered=1)
        elif extra:
            counts.update(prompts=3, carried_out=2, extra_casts=1, extra_prompts=1)
        else:
            counts.update(phase_arm_autopay_gave_up=1)
        return (0, 9, (5, 0))
    monkeypatch.setattr(phase_games, "play", play)
    monkeypatch.setattr(phase_games, "_table", lambda *a: None)
    out = phase_games._play_pair(7, 0, 1, ("a", "b"), "c", "python3", True, None)
    assert out["counts"] == {"phase_arm_autopay_gave_up": 1, "prompts": 2, "carried_out": 2, "third_prompts": 3,
                             "third_carried_out": 2, "extra_casts": 1, "extra_prompts": 1}
    assert out["first"] == 1 and out["third"] == (0, 9, (5, 0))


def test_the_phase_arm_follows_a_cast_its_auto_payer_gave_up_on_until_it_is_no_longer_pending():
    class Game:
        pending, zone = True, "Hand"

        def state(self):
            return {"state": {"pending_cast": {"object_id": 57} if self.pending else None,
                              "has_pending_cast": self.pending}}

        def object(self, oid):
            return {"zone": self.zone}

    game, counts = Game(), {}
    watched = phase_games._watch_autopay(game, "ManaPayment", {"data": {"player": 1}}, 1, None, counts)
    assert watched == 57 and counts == {"phase_arm_autopay_gave_up": 1}
    assert phase_games._watch_autopay(game, "ManaPayment", {"data": {"player": 0}}, 1, None, {}) is None  # (the other seat)
    assert phase_games._watch_autopay(game, "ChooseManaColor", {}, 1, 57, counts) == 57  # (paying by hand)
    assert phase_games._watch_autopay(game, "Priority", {}, 1, 57, counts) == 57  # (still pending)
    game.pending, game.zone = False, "Stack"
    assert phase_games._watch_autopay(game, "Priority", {}, 1, 57, counts) is None
    assert counts == {"phase_arm_autopay_gave_up": 1, "phase_arm_paid_by_hand": 1}
    game.zone = "Hand"
    phase_games._watch_autopay(game, "Priority", {}, 1, 57, counts)
    assert counts["phase_arm_abandoned"] == 1


def test_pairs_with_an_unfinished_game_are_left_out_of_the_sign_test():
    pairs = [{"seat": 0, "phase": (None, 24, (3, 4)), "manaplan": (0, 20, (5, 0))},
             {"seat": 0, "phase": (0, 20, (5, 0)), "manaplan": (None, 24, (3, 4))},
             {"seat": 1, "phase": (0, 20, (5, 0)), "manaplan": (1, 20, (0, 7))},
             {"seed": 9, "error": "ValueError: x", "counts": {}}]
    stats = phase_games.pair_statistics(pairs)
    assert stats["pairs"] == 3 and stats["pairs_with_an_unfinished_game"] == 2
    assert stats["won_by_manaplan_arm_only"] == 1 and stats["won_by_phase_arm_only"] == 0
    assert stats["same_winner_pairs"] == 0


def test_the_locked_in_cost_is_final_whatever_the_board_says_about_costs():
    """phase's locked-in total has its increases and reductions applied: a reduction on the
    board (Warden of Evos Isle) left the question undecided, an increase manaplan reads
    (Thalia) would have been counted twice."""
    def creature(pid, name, text):
        return {"id": pid, "name": name, "controller": 0, "zone": "Battlefield", "tapped": False, "abilities": [],
                "card_types": {"supertypes": [], "core_types": ["Creature"], "subtypes": []}}
    board = OBJECTS[:2] + [creature(50, "Warden of Evos Isle", ""), creature(51, "Thalia, Guardian of Thraben", "")]
    oracle = {**ORACLE, "Warden of Evos Isle": "Flying\nCreature spells with flying you cast cost {1} less to cast.",
              "Thalia, Guardian of Thraben": "First strike\nNoncreature spells cost {1} more to cast."}
    request = phase_games.request_at_prompt(board, 0, {"type": "Cost", "generic": 1, "shards": ["Green"]}, oracle,
                                            20, [], 9)
    answer = manaplan.solve(request)
    assert answer["payable"] is True and answer["total_cost"] == "{1}{G}"


def test_the_third_arm_ranks_cards_by_mana_value():
    assert phase_games._mana_value("{2/W}{2/W}{2/W}") == 6  # (CR 202.3f: a twobrid symbol counts 2)
    assert phase_games._mana_value("{X}{1}{G/W}{U/P}") == 3
