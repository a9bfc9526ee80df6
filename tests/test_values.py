"""Plans as values: what a plan says of itself, the board and player after it, and the
validator's rejection of plans broken one rule at a time."""

from dataclasses import replace

import pytest

from manaplan.model.cost import SpellCost
from manaplan.model.mana import Mana
from manaplan.model.plan import PaymentLine, Plan, Unpayable
from manaplan.model.problem import PaymentProblem, Spell
from manaplan.model.symbols import Symbol
from manaplan.protocol.mtg import read
from manaplan.solver.checks.validator import validate_plan
from manaplan.queries import answer

FOREST = {"type_line": "Basic Land — Forest"}
TREASURE = {"type_line": "Artifact — Treasure", "abilities": [{"cost": "{T}, Sacrifice this", "add": "any"}]}
CAVES = {"type_line": "Land", "abilities": [{"cost": "{T}", "add": "{C}"},
                                            {"cost": "{T}", "add": ["{W}", "{B}"], "damage": 1}]}
STORAGE = {"type_line": "Land", "counters": {"storage": 3},
           "abilities": [{"cost": "Remove a storage counter from this", "add": "{C}"}]}


def solved(spell, permanents, **request):
    problem = read({"spell": spell if isinstance(spell, dict) else {"mana_cost": spell},
                    "permanents": permanents, **request})
    plan = answer(problem)
    assert isinstance(plan, Plan) and validate_plan(problem, plan) == []
    return problem, plan


def test_the_board_after_a_plan_taps_sacrifices_and_removes_counters():
    problem, plan = solved("{G}{R}{C}{C}", [{"id": "f", **FOREST}, {"id": "t", **TREASURE}, {"id": "s", **STORAGE},
                                            {"id": "f2", **FOREST, "tapped": True}])
    board, player = problem.after(plan)
    by_id = {p.id: p for p in board.permanents}
    assert "t" not in by_id                      # sacrificed
    assert by_id["f"].tapped and by_id["f2"].tapped
    assert by_id["s"].counters == (("storage", 1),)
    assert player.life == 20 and player.pool == ()
    # the board after is a board like any other: the storage land's last counter pays {C}, not more
    assert isinstance(answer(PaymentProblem(Spell(SpellCost.of("{C}")), board, player)), Plan)
    assert isinstance(answer(PaymentProblem(Spell(SpellCost.of("{C}{C}")), board, player)), Unpayable)


def test_the_player_after_a_plan_has_lost_its_life_and_keeps_the_floating_mana():
    problem, plan = solved("{B}", [{"id": "c", **CAVES}], player={"pool": "{R}{C}", "life": 7})
    assert plan.life_paid == 1
    _, player = problem.after(plan)
    assert player.life == 6
    assert sorted(u.type for u in player.pool) == ["C", "R"]


def test_delve_exiles_from_the_graveyard_after_the_plan():
    problem, plan = solved({"mana_cost": "{2}{G}", "delve": True}, [{"id": "f", **FOREST}],
                           player={"graveyard": 5})
    assert plan.exiled == 2
    assert problem.after(plan)[1].graveyard == 3


def test_counted_amounts_are_counted_again_on_the_board_after():
    cradle = {"id": "c", "name": "Gaea's Cradle", "type_line": "Legendary Land",
              "oracle_text": "{T}: Add {G} for each creature you control."}
    cantor = {"id": "w", "type_line": "Creature — Human Druid",
              "abilities": [{"cost": "Sacrifice this", "add": "any"}]}
    elf = {"id": "e", "type_line": "Creature — Elf", "abilities": []}
    problem, plan = solved("{R}", [cradle, cantor, elf])
    assert plan.sacrificed == ("w",)
    board, _ = problem.after(plan)
    cradle_after = next(p for p in replace(problem, board=board).board.permanents if p.id == "c")
    assert cradle_after.abilities[0].output.max_count == 1  # only the Elf is left


def plan_and_problem():
    return solved("{1}{B}", [{"id": "c", **CAVES}, {"id": "f", **FOREST}], player={"pool": "{W}"})


BROKEN = {
    "a permanent tapped twice": lambda plan: replace(plan, steps=plan.steps + plan.steps[:1]),
    "a permanent that is not on the board": lambda plan: replace(
        plan, steps=(replace(plan.steps[0], permanent="nowhere"),) + plan.steps[1:]),
    "an ability it does not have": lambda plan: replace(
        plan, steps=(replace(plan.steps[0], ability=7),) + plan.steps[1:]),
    "mana the ability can't add": lambda plan: replace(
        plan, steps=(replace(plan.steps[0], adds=("U",)),) + plan.steps[1:]),
    "a step that hides its tap": lambda plan: replace(
        plan, steps=(replace(plan.steps[0], taps=False),) + plan.steps[1:]),
    "a step that hides its damage": lambda plan: replace(
        plan, steps=tuple(replace(s, damage=0) for s in plan.steps)),
    "a wrong total cost": lambda plan: replace(plan, total_cost=replace(plan.total_cost, generic=0)),
    "mana from a source that made none": lambda plan: replace(
        plan, payment=(replace(plan.payment[0], source="nowhere"),) + plan.payment[1:]),
    "a symbol left unpaid": lambda plan: replace(plan, payment=plan.payment[1:]),
    "a symbol paid twice": lambda plan: replace(plan, payment=plan.payment + plan.payment[:1]),
    "green mana paying black": lambda plan: replace(plan, payment=tuple(
        replace(line, symbol=Symbol.parse("{B}"), mana="G", source="f") if line.symbol == Symbol.parse("{B}")
        else line for line in plan.payment)),
    "life paying a colored symbol": lambda plan: replace(plan, payment=tuple(
        PaymentLine(line.symbol, life=2) if line.symbol == Symbol.parse("{B}") else line for line in plan.payment)),
    "floating mana that is not there": lambda plan: replace(plan, floating=plan.floating + (Mana("G"),)),
}


@pytest.mark.parametrize("broken", sorted(BROKEN))
def test_the_validator_rejects_a_plan_broken_one_rule_at_a_time(broken):
    problem, plan = plan_and_problem()
    assert validate_plan(problem, BROKEN[broken](plan)), broken


ELF = {"type_line": "Creature — Elf Druid", "abilities": [{"cost": "{T}", "add": "{G}"}]}

#: broken plans on a board of plain {T} sources, which the validator replays briefly
BROKEN_TAPS = {
    "a land tapped twice": lambda plan, problem: replace(plan, steps=plan.steps + plan.steps[:1]),
    "an ability it does not have": lambda plan, problem: replace(
        plan, steps=(replace(plan.steps[0], ability=1),) + plan.steps[1:]),
    "mana the land can't add": lambda plan, problem: replace(
        plan, steps=(replace(plan.steps[0], adds=("U",)),) + plan.steps[1:]),
    "two mana from one tap": lambda plan, problem: replace(
        plan, steps=(replace(plan.steps[0], adds=("G", "G")),) + plan.steps[1:]),
    "a step that hides its tap": lambda plan, problem: replace(
        plan, steps=(replace(plan.steps[0], taps=False),) + plan.steps[1:]),
    "a step that says it sacrifices": lambda plan, problem: replace(
        plan, steps=(replace(plan.steps[0], sacrifices=True),) + plan.steps[1:]),
    "a step that says it pays life": lambda plan, problem: replace(
        plan, steps=(replace(plan.steps[0], life=1),) + plan.steps[1:]),
}


@pytest.mark.parametrize("broken", sorted(BROKEN_TAPS))
def test_the_validator_rejects_broken_taps_of_plain_sources(broken):
    problem, plan = solved("{1}{G}", [{"id": "f1", **FOREST}, {"id": "f2", **FOREST}, {"id": "e", **ELF}])
    assert validate_plan(problem, BROKEN_TAPS[broken](plan, problem)), broken


@pytest.mark.parametrize("state", [{"tapped": True}, {"summoning_sick": True}])
def test_the_validator_rejects_a_tap_the_permanent_cannot_make(state):
    problem, plan = solved("{1}{G}", [{"id": "f1", **FOREST}, {"id": "f2", **FOREST}, {"id": "e", **ELF}])
    first = plan.steps[0].permanent
    board = [{"id": pid, **body, **(state if pid == first else {})}
             for pid, body in (("f1", FOREST), ("f2", FOREST), ("e", {**ELF, "type_line": "Creature — Elf"}))]
    if "summoning_sick" in state:  # only a creature is stopped by it: the elf taps first
        plan = replace(plan, steps=(replace(plan.steps[0], permanent="e", adds=("G",)),) + plan.steps[1:],
                       payment=tuple(replace(line, source="e") if line.source == first else line
                                     for line in plan.payment))
        board = [{"id": pid, **body, **(state if pid == "e" else {})}
                 for pid, body in (("f1", FOREST), ("f2", FOREST), ("e", ELF))]
    errors = validate_plan(read({"spell": {"mana_cost": "{1}{G}"}, "permanents": board}), plan)
    assert any(("already tapped" if "tapped" in state else "summoning sick") in e for e in errors), errors


def test_a_sacrificed_permanent_is_not_used_again_and_life_is_bounded():
    problem, plan = solved("{R}{G}", [{"id": "f", **FOREST}, {"id": "t", **TREASURE}])
    again = replace(plan, steps=plan.steps + tuple(s for s in plan.steps if s.sacrifices))
    assert any("sacrificed" in e or "tapped" in e for e in validate_plan(problem, again))
    problem, plan = solved("{B/P}", [], player={"life": 2})
    assert plan.life_paid == 2
    poorer = replace(problem, player=replace(problem.player, life=1))
    assert validate_plan(poorer, plan)


def test_floating_mana_after_a_plan_is_in_the_pool_for_the_next_spell():
    """Review: the floating mana kept the id of the permanent that made it, and restricted
    mana its "may pay this spell" flag, so the next spell crashed or spent it illegally."""
    sol = {"id": "sol", "type_line": "Artifact", "abilities": [{"cost": "{T}", "add": "{C}{C}"}]}
    problem, plan = solved("{1}", [sol])
    board, player = problem.after(plan)
    assert [(u.type, u.source) for u in player.pool] == [("C", "pool")]
    follow = answer(PaymentProblem(Spell(SpellCost.of("{1}")), board, player))
    assert isinstance(follow, Plan) and follow.tapped == ()
    cavern = {"id": "cav", "type_line": "Land",
              "abilities": [{"cost": "{T}", "add": "{G}{G}", "restrict": "creature spells"}]}
    problem, plan = solved({"mana_cost": "{G}", "type_line": "Creature — Elf"}, [cavern])
    assert [u.type for u in plan.floating] == ["G"]
    board, player = problem.after(plan)
    assert player.pool == ()  # it may only pay creature spells: not carried as plain mana
    instant = PaymentProblem(Spell(SpellCost.of("{G}"), type_line="Instant"), board, player)
    assert isinstance(answer(instant), Unpayable)


def test_a_board_made_with_replace_does_not_share_the_old_grouping():
    forest = {"id": "f1", **FOREST}
    problem, _ = solved("{G}", [forest])
    twin = read({"spell": {"mana_cost": "{G}"}, "permanents": [{"id": "f2", **FOREST}]}).board.permanents[0]
    bigger = replace(problem.board, permanents=problem.board.permanents + (twin,))
    assert isinstance(answer(PaymentProblem(Spell(SpellCost.of("{G}{G}")), bigger, problem.player)), Plan)
    assert isinstance(answer(PaymentProblem(Spell(SpellCost.of("{G}{G}")), problem.board, problem.player)),
                      Unpayable)


def test_a_plan_may_announce_x_only_for_a_max_x_question():
    problem, plan = solved({"mana_cost": "{X}{G}", "x": 1}, [{"id": "f1", **FOREST}, {"id": "f2", **FOREST}])
    cheaper = answer(read({"spell": {"mana_cost": "{X}{G}"}, "permanents": [{"id": "f1", **FOREST}]}))
    assert validate_plan(problem, replace(cheaper, x=0))  # X was fixed at 1 by the question
    asked = read({"spell": {"mana_cost": "{X}{G}"}, "query": "max_x",
                  "permanents": [{"id": "f1", **FOREST}, {"id": "f2", **FOREST}]})
    best = answer(asked)
    assert best.x == 1 and validate_plan(asked, best) == []
