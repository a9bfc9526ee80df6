"""manaplan paying inside phase.rs games: phase's AI plays both seats, and at each cast
of one seat manaplan chooses the taps; each seed is played in two arms (phase pays;
manaplan pays), and with ``--third-arm`` in a third (manaplan pays, and also casts what
phase's castability check wrongly refuses), each payment judged by manaplan's referee.

    /work/venv-phase/bin/python benchmarks/phase_games.py --pairs 200 --workers 2 \
        --decks A.txt B.txt [--cards CARDS.json] [--third-arm] [--most-turns 40] --name NAME

Runs in a virtual environment of its own holding `phase-python` (phase.rs's bindings,
import name `phase`) and `dask[distributed]`, never a dependency of manaplan or its tests;
manaplan answers as an engine in another language would use it: one `manaplan serve`
process per worker (the Python given by --manaplan-python, default `python3`) spoken to
over standard input and output.

How a payment is taken over (phase's own API only): the AI's `CastSpell` for the
manaplan seat is applied with `payment_mode: Manual`, which stops at a `ManaPayment`
prompt once targets, X and modes are chosen; the locked-in cost is
`state()["state"]["pending_cast"]["cost"]` (increases and reductions applied: never
counted again). :func:`request_at_prompt` writes the `pay` request (the seat's
battlefield by phase's object ids, each permanent's Oracle text from the deck's card
objects, tapped and summoning sick as phase says, the mana pool, life, `mid_cast: true`,
the rest of the hand (its colors kept where a payment as good allows), the seat's
untapped creatures in `prefer.keep_untapped`: kept for attacking and blocking where a
payment of equal cost allows); :func:`plan_actions` turns manaplan's
plan into phase's actions (an `ActivateAbility` per step, its mana abilities counted in
phase's order; each `ChooseManaColor`, of one color or a filter land's combination,
answered with the step's mana, :func:`pick_color`, and the prompt asking which floating
mana pays an ability's own cost with the step's payment, :func:`pick_ability_payment`;
then `PassPriority`, which spends the pool on the cast). The tapped set is checked against the plan; on any refusal the
snapshot taken before is restored and phase pays (counted).

The judge: each payment carried out (manaplan's, and phase's own made at the same prompt
on a copy of the game) is rebuilt from phase's events (``phase_engine.plan_from_events``,
the mana floating at the prompt kept with its maker) and sent to manaplan's `check`
query with the prompt's request: optimal, suboptimal (with the referee's differences),
illegal, or unknown.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def _on_path(folder: str) -> None:
    """Put ``folder`` first on a process's import path."""
    if folder not in sys.path:
        sys.path.insert(0, folder)


_on_path(HERE)  # (phase_engine beside this file, and this module by name in Dask's workers)

import phase_engine as pe  # noqa: E402  (the standard library only: the rebuild, phase's names for mana)
from phase_engine import COLOR_LETTER, LETTER_COLOR  # noqa: E402


def cost_text(cost: dict) -> str:
    """phase's locked-in ``{"generic": N, "shards": [...]}`` as a mana cost ("{2}{G}{U}",
    a hybrid shard "{G/W}", a twobrid one "{2/G}"); a shard this does not read (Phyrexian:
    phase asks its choice at a prompt of its own, which this driver leaves to phase) is an
    error (never a guess)."""
    if cost.get("type") == "NoCost":
        return ""
    out = "{%d}" % cost["generic"] if cost.get("generic") else ""
    for shard in cost.get("shards") or []:
        out += shard_text(shard)
    return out or "{0}"


def shard_text(shard: str) -> str:
    """One of phase's cost shards ("Green", "GreenWhite", "TwoGreen") as a symbol
    (``phase_engine.shard_symbol``), where it is one this driver sends: a mana symbol, a
    hybrid or a twobrid one."""
    symbol = pe.shard_symbol(shard)
    parts = symbol[1:-1].split("/")
    colors, mana = set("WUBRG"), set("WUBRGC")
    if (len(parts) == 1 and parts[0] in mana or len(parts) == 2 and parts[0] == "2" and parts[1] in mana
            or len(parts) == 2 and parts[0] in colors and parts[1] in colors):
        return symbol
    raise ValueError(f"a cost shard this driver does not read: {shard!r}")


def type_line(obj: dict) -> str:
    types = obj.get("card_types") or {}
    words = list(types.get("supertypes") or []) + list(types.get("core_types") or [])
    subtypes = list(types.get("subtypes") or [])
    return " ".join(words) + (" — " + " ".join(subtypes) if subtypes else "")


def request_at_prompt(objects: list, seat: int, cost: dict, oracle: dict, life: int, pool: list, turn: int,
                      hand: list = ()) -> dict:
    """The ``pay`` request for the cast waiting at phase's ManaPayment prompt: the seat's
    permanents (phase's object ids; name, type line from phase, Oracle text from the deck's
    card objects ``oracle`` by name; tapped; a creature summoning sick where phase says it
    entered on this ``turn``: CR 302.6), the locked-in cost as final, the pool's mana,
    the life, ``mid_cast``, the
    seat's untapped creatures kept untapped where a payment as good allows (they may
    attack or block: ``prefer.keep_untapped``), and the rest of the ``hand`` (its spells'
    colors are kept where a payment as good allows: :func:`hand_cards`)."""
    permanents, creatures = [], []
    for obj in objects:
        if obj.get("controller") != seat or obj.get("zone", "Battlefield") != "Battlefield":
            continue
        entry = {"id": str(obj["id"]), "name": obj["name"], "type_line": type_line(obj),
                 "oracle_text": oracle.get(obj["name"], ""), "tapped": bool(obj.get("tapped"))}
        if "Creature" in entry["type_line"]:
            if obj.get("entered_battlefield_turn") == turn:
                entry["summoning_sick"] = True
            if not entry["tapped"]:
                creatures.append(entry["id"])
        permanents.append(entry)
    # the locked-in total has phase's increases and reductions applied: given as final
    # (``increase`` and ``reduce`` empty), never counted again from the board's text
    request = {"query": "pay", "spell": {"mana_cost": cost_text(cost), "increase": [], "reduce": []},
               "permanents": permanents, "player": {"life": life}, "mid_cast": True}
    if creatures:
        request["prefer"] = {"keep_untapped": creatures}
    if hand:
        request["hand"] = list(hand)
    floating = "".join("{%s}" % COLOR_LETTER[m["color"]] for m in pool)
    if floating:
        request["player"]["pool"] = floating
    return request


def hand_cards(objects: list, cards: dict, leave_out=None) -> list:
    """The hand's spells as the request's ``hand`` (id, mana cost, type line from the
    deck's card objects ``cards`` by name): lands and cards without a mana cost left out,
    and the card being cast (``leave_out``, phase's object id)."""
    out = []
    for obj in objects:
        card = cards.get(obj["name"]) or {}
        if obj["id"] == leave_out or not card.get("mana_cost") or "Land" in card.get("type_line", "Land"):
            continue
        out.append({"id": str(obj["id"]), "mana_cost": card["mana_cost"], "type_line": card["type_line"]})
    return out


def plan_actions(plan: dict, objects: list) -> list:
    """phase's actions for a manaplan plan: per step, ``ActivateAbility`` of the step's
    permanent with the index of its mana ability in phase's list (a step's ability is
    the n-th of the permanent's abilities as manaplan read them, matched to phase's n-th
    mana ability), and the colors a choice prompt will ask (the step's ``adds``); then
    ``PassPriority``. ValueError for a step this driver can't express."""
    by_id = {str(o["id"]): o for o in objects}
    actions = []
    for step in plan["steps"]:
        obj = by_id.get(step["permanent"])
        if obj is None or not isinstance(step.get("ability", 0), int):
            raise ValueError(f"a step this driver can't carry out: {step}")
        mana = [i for i, a in enumerate(obj.get("abilities") or []) if a.get("is_mana_ability")]
        k = step.get("ability", 0)
        if k >= len(mana):
            raise ValueError(f"{obj['name']} has no mana ability {k} in phase")
        colors = [c for c in step.get("adds", "").replace("{", " ").replace("}", " ").split()]
        actions.append({"type": "ActivateAbility", "data": {"source_id": obj["id"], "ability_index": mana[k]},
                        "colors": colors, "pays_with": [line["mana"] for line in step.get("payment") or []]})
    actions.append({"type": "PassPriority"})
    return actions


def pick_color(options: list, colors: list) -> tuple:
    """(the ``ChooseManaColor`` action, as phase offers it in ``options`` (dicts), that
    adds the step's ``colors``; the colors still to choose): a prompt of one color takes
    the next of them, a filter land's combination ("Add {G}{G}, {G}{U}, or {U}{U}") all
    of them at once. ValueError where phase offers none of them."""
    for option in options:
        choice = option["data"]["choice"]
        if choice.get("type") == "Combination":
            if sorted(choice.get("data") or []) == sorted(LETTER_COLOR.get(c, c) for c in colors):
                return option, []
        elif colors and choice.get("data") == LETTER_COLOR.get(colors[0]):
            return option, colors[1:]
    raise ValueError(f"phase offers no choice adding {colors}: {[o['data']['choice'] for o in options]}")


def pick_ability_payment(options: list, letters: list) -> dict:
    """The ``PayManaAbilityMana`` action (phase asks which floating mana pays a mana
    ability's own cost, a filter land's {G/W}) paying with the mana the plan's step says
    (its ``payment`` lines' ``letters``). ValueError where phase offers no such payment."""
    wanted = sorted(LETTER_COLOR.get(c, c) for c in letters)
    for option in options:
        if sorted(option["data"].get("payment") or []) == wanted:
            return option
    raise ValueError(f"phase offers no payment of the ability's cost with {letters}: "
                     f"{[o['data'].get('payment') for o in options]}")


class Manaplan:
    """One ``manaplan serve`` process, asked one request a line."""

    def __init__(self, python: str):
        self.proc = subprocess.Popen([python, "-m", "manaplan", "serve"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, cwd="/tmp")

    def ask(self, request: dict) -> dict:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


def _deck(path: str) -> list:
    out = []
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if line and line[0].isdigit():
            n, name = line.split(" ", 1)
            out += [name] * int(n)
    return out


def faces_for(card_objects: list) -> dict:
    """phase's card faces, by lower-case name, built by phase's own Oracle parser from the
    card objects' text (phase's MTGJSON card database is not on this machine)."""
    from phase import build_oracle_face

    faces = {}
    for c in card_objects:
        card = pe.mtgjson(c["name"], c["type_line"], c.get("oracle_text", ""), c.get("mana_cost") or None,
                          c.get("power"))
        if "toughness" in card and c.get("toughness") is not None:
            card["toughness"] = str(c["toughness"])  # (without one, 1: the demo cards give none)
        faces[c["name"].lower()] = build_oracle_face(card, None)
    return faces


def _count(counts: dict, key: str, n: int = 1) -> None:
    counts[key] = counts.get(key, 0) + n


def _add_counts(into: dict, counts: dict, prefix=lambda key: key) -> None:
    """``counts`` added to ``into``, each key as ``prefix`` names it: numbers summed, lists
    (times, examples) joined."""
    for key, value in counts.items():
        key = prefix(key)
        into[key] = into.get(key, []) + value if isinstance(value, list) else into.get(key, 0) + value


def _timed(counts: dict, key: str, started: float) -> None:
    counts.setdefault(key, []).append(1000 * (time.perf_counter() - started))


class Table:
    """What one worker keeps: the phase engine and card faces, the decks, the Oracle texts
    and the card objects by name, one ``manaplan serve``."""

    def __init__(self, decks: tuple, card_objects: list, python: str):
        self.faces = faces_for(card_objects)
        from phase import Engine

        self.engine = Engine.from_json(json.dumps(self.faces))
        self.decks = decks
        self.oracle = {c["name"]: c.get("oracle_text", "") for c in card_objects}
        self.cards = {c["name"]: c for c in card_objects}
        self.mp = Manaplan(python)


def pay_with_manaplan(table: Table, game, seat: int, cast, counts: dict, extra: bool = False):
    """Apply the AI's ``cast`` for ``seat`` with manaplan choosing the taps; returns the
    game (a new one where a snapshot was restored and phase paid). Each payment carried out
    is judged (:func:`judge`), and phase's own at the same prompt made and judged on a copy
    (:func:`_phase_at_the_same_prompt`). ``extra``: a cast phase did not offer (the third
    arm): where phase refuses it or manaplan's plan, the game goes on as if it was never
    tried."""
    from phase import GameAction

    snapshot = game.state()
    data = cast.to_dict()
    data["data"]["payment_mode"] = {"type": "Manual"}
    spell_oid = data["data"].get("object_id")
    try:
        events = list(game.apply(seat, GameAction.from_dict(data)).events)
        events += _cast_choices(game, seat)
    except Exception:  # noqa: BLE001  (phase refused the cast itself)
        if not extra:
            raise
        _count(counts, "extra_refused_by_phase")
        return table.engine.load_game(snapshot)
    if game.waiting_for().get("type") != "ManaPayment":
        _count(counts, "extra_no_prompt" if extra else "no_prompt")
        return game
    _count(counts, "extra_prompts" if extra else "prompts")
    started = time.perf_counter()
    state = game.state()["state"]
    _timed(counts, "phase_state_ms", started)
    objects = game.battlefield()
    player = game.player(seat)
    pool = player["mana_pool"]["mana"]
    try:
        request = request_at_prompt(objects, seat, state["pending_cast"]["cost"], table.oracle, player["life"],
                                    pool, game.turn, hand_cards(game.hand(seat), table.cards, spell_oid))
    except ValueError:
        return _given_back(table, snapshot, seat, cast, counts, "not_expressed", extra)
    started = time.perf_counter()
    answer = table.mp.ask(request)
    _timed(counts, "ms", started)
    if not answer.get("payable") or "plan" not in answer:
        return _given_back(table, snapshot, seat, cast, counts, "manaplan_no" if answer.get("payable") is False
                           else "manaplan_undecided", extra)
    started = time.perf_counter()
    try:
        for action in plan_actions(answer["plan"], objects):
            colors, pays_with = action.pop("colors", []), action.pop("pays_with", [])
            events += game.apply(seat, GameAction.from_dict(action)).events
            while (prompt := game.waiting_for().get("type")) in ("ChooseManaColor", "PayManaAbilityMana"):
                options = [a.to_dict() for a in game.actions() if a.kind == prompt]
                if prompt == "PayManaAbilityMana":
                    pick = pick_ability_payment(options, pays_with)
                else:
                    pick, colors = pick_color(options, colors)
                events += game.apply(seat, GameAction.from_dict(pick)).events
    except Exception as e:  # noqa: BLE001  (phase refused an action: restore, let phase pay, count it)
        counts.setdefault("given_back_examples", []).append({"cost": request["spell"]["mana_cost"], "why": str(e)[:300],
                                                             "steps": answer["plan"]["steps"]})
        return _given_back(table, snapshot, seat, cast, counts, "refused", extra)
    _timed(counts, "apply_ms", started)
    tapped = {str(o["id"]) for o in game.battlefield() if o.get("controller") == seat and o.get("tapped")}
    before = {p["id"] for p in request["permanents"] if p["tapped"]}
    if game.waiting_for().get("type") == "ManaPayment" or tapped - before != set(answer["plan"]["tapped"]):
        return _given_back(table, snapshot, seat, cast, counts, "not_as_planned", extra)
    _count(counts, "extra_casts" if extra else "carried_out")
    floating = [(COLOR_LETTER.get(m["color"], m["color"]), m.get("source_id")) for m in pool]
    judge(table, "extra" if extra else "manaplan", request, events, game, seat, spell_oid, floating, counts)
    if not extra:
        _phase_at_the_same_prompt(table, snapshot, seat, cast, request, floating, counts)
    return game


#: the prompts of a cast before its payment (CR 601.2b-c: modes, X, targets), answered by phase's AI
CAST_CHOICES = ("TargetSelection", "ChooseXValue", "ChooseModes", "ChooseMode", "ModeChoice")


def _cast_choices(game, seat: int, most: int = 16) -> list:
    """Phase's AI answers the cast's own choices before its payment (its targets, X,
    modes: CR 601.2b-c), as it does in the arm where phase pays; the events."""
    events: list = []
    for _ in range(most):
        waiting = game.waiting_for()
        if waiting.get("type") not in CAST_CHOICES or (waiting.get("data") or {}).get("player", seat) != seat:
            break
        action = game.choose_action(seat)
        if action is None:
            break
        events += game.apply(seat, action).events
    return events


def judge(table: Table, who: str, request: dict, events: list, game, seat: int, spell_oid, floating: list,
          counts: dict) -> str:
    """The referee's verdicts on the payment phase's ``events`` show for the cast of
    ``spell_oid``: the plan rebuilt from them (``phase_engine.plan_from_events``; the mana
    ``floating`` at the prompt, (letter, its maker), paid from the pool) checked by
    manaplan's ``check`` twice: against the prompt's ``request`` as manaplan was asked it
    (counted ``{who}_{verdict}``: with the hand's colors and the creatures kept for
    combat, which phase's auto-payer is not told), and against the same question without
    the hand and ``prefer`` (``{who}_neutral_{verdict}``, and the term that decides a
    suboptimal one, ``{who}_neutral_worse_on_{term}``: life, sacrificed, tapped...). A
    rebuild that fails is "unrebuilt" (counted, never a verdict). Returns the first
    verdict."""
    ids = {int(p["id"]): p["id"] for p in request["permanents"]}
    names = {p["id"]: p["name"] for p in request["permanents"]}
    try:
        rebuilt = pe.plan_from_events(events, game, spell_oid, ids, names, table.faces,
                                      pe.symbols(request["spell"]["mana_cost"]), 0, [], floating, seat=seat)
    except Exception:  # noqa: BLE001  (counted: a payment the rebuild can't read)
        _count(counts, f"{who}_unrebuilt")
        return "unrebuilt"
    neutral = {k: v for k, v in request.items() if k not in ("hand", "prefer")}
    verdicts = []
    for label, question in ((who, request), (f"{who}_neutral", neutral)):
        answer = table.mp.ask({**question, "query": "check", "plan": rebuilt["plan"]})
        verdict = answer.get("verdict") or "error"
        verdicts.append(verdict)
        _count(counts, f"{label}_{verdict}")
        term = deciding_term(answer, tuple((question.get("prefer") or {}).get("order") or ()))
        if verdict == "suboptimal" and term is not None:
            _count(counts, f"{label}_worse_on_{term}")
        if verdict not in ("optimal", "unknown"):
            counts.setdefault("examples", []).append({
                "who": label, "verdict": verdict, "cost": request["spell"]["mana_cost"], "term": term,
                "differences": answer.get("differences"), "violation": answer.get("violation"),
                "error": answer.get("error"), "plan": rebuilt["plan"]})
    return verdicts[0]


def deciding_term(answer: dict, first: tuple = ()) -> str | None:
    """The term of the objective that makes a ``check`` answer's plan worse than the
    optimum: the first on which the two differ, in the order they are compared (the
    request's ``prefer.order``, ``first``, then the default objective's, the order the
    answer writes its terms in); None when none does."""
    mine, best = answer.get("objective") or {}, answer.get("optimum") or {}
    order = list(first) + [t for t in mine if t not in first]
    return next((t for t in order if t in mine and t in best and mine[t] != best[t]), None)


def _phase_at_the_same_prompt(table: Table, snapshot, seat: int, cast, request: dict, floating: list,
                              counts: dict) -> None:
    """Phase's own payment (Auto) of the same cast on a copy of the game: refused (its
    auto-payer gave up at the prompt or refused the cast), or judged as manaplan's is."""
    copy = table.engine.load_game(snapshot)
    started = time.perf_counter()
    try:
        events = list(copy.apply(seat, cast).events)
        events += _cast_choices(copy, seat)
    except Exception:  # noqa: BLE001  (phase refused its own cast)
        _count(counts, "phase_refused")
        return
    _timed(counts, "phase_pay_ms", started)
    if copy.waiting_for().get("type") == "ManaPayment":
        _count(counts, "phase_refused")
        return
    spell_oid = cast.to_dict()["data"].get("object_id")
    judge(table, "phase", request, events, copy, seat, spell_oid, floating, counts)


def _given_back(table: Table, snapshot, seat, cast, counts, why, extra: bool):
    """The game restored from ``snapshot``, and phase paying the cast (an extra cast of the
    third arm: not cast); counted under ``why``."""
    _count(counts, ("extra_" if extra else "") + why)
    game = table.engine.load_game(snapshot)
    if not extra:
        game.apply(seat, cast)
    return game


MAIN_PHASES = ("PreCombatMain", "PostCombatMain")


def extra_cast(table: Table, game, seat: int, counts: dict, tried: set = frozenset()):
    """The third arm: at ``seat``'s priority in its own main phase with an empty stack, a
    card of its hand that phase does not offer to cast (no ``CastSpell`` among its
    actions) though manaplan's ``castable`` pays it now: the largest such (mana value),
    as a ``CastSpell`` to apply, or None. Only cards that target nothing and have a mana
    cost (phase's refusal of any other may be its targets', not its mana's: phase may
    still refuse one for a reason of its own, counted), and none ``tried`` this turn
    ((object id, turn): one that failed is not offered again until the next turn)."""
    from phase import GameAction

    if game.phase not in MAIN_PHASES or game.stack():
        return None
    offered = {a.to_dict()["data"].get("object_id") for a in game.actions() if a.kind == "CastSpell"}
    hand = game.hand(seat)
    names = {str(obj["id"]): obj["name"] for obj in hand}
    spells = [s for s in hand_cards(hand, table.cards) if int(s["id"]) not in offered
              and (int(s["id"]), game.turn) not in tried and "target" not in table.oracle.get(names[s["id"]], "").lower()]
    if not spells:
        return None
    state = game.state()["state"]
    if state["active_player"] != seat:
        return None
    request = request_at_prompt(game.battlefield(), seat, {"type": "NoCost"}, table.oracle, game.player(seat)["life"],
                                game.player(seat)["mana_pool"]["mana"], game.turn)
    del request["spell"], request["mid_cast"]
    answer = table.mp.ask({**request, "query": "castable", "hand": spells})
    payable = {c["id"] for c in answer.get("castable") or [] if c.get("payable")}
    if not payable:
        return None
    _count(counts, "extra_offered")
    best = max((s for s in spells if s["id"] in payable), key=lambda s: (_mana_value(s["mana_cost"]), s["id"]))
    oid = int(best["id"])
    return GameAction.from_dict({"type": "CastSpell", "data": {"object_id": oid, "card_id": oid, "targets": [],
                                                              "payment_mode": {"type": "Auto"}}})


def _mana_value(cost: str) -> int:
    """A mana cost's mana value (CR 202.3): a number its amount, X 0, a twobrid symbol 2
    (CR 202.3f), any other symbol 1."""
    total = 0
    for symbol in re.findall(r"\{([^}]*)\}", cost):
        total += int(symbol) if symbol.isdigit() else 0 if symbol == "X" else 2 if symbol.startswith("2/") else 1
    return total


#: the prompts of a payment made by hand (phase's AI paying what its auto-payer gave up on)
PAYMENT_PROMPTS = ("ManaPayment", "ChooseManaColor", "PayManaAbilityMana", "PhyrexianPayment")


def play(table: Table, seed: int, first: int, manaplan_seat, counts: dict, watch_seat: int, extra=False,
         most_turns: int | None = None, most_steps: int = 6000):
    """One AI-vs-AI game (``first`` plays first); manaplan pays for ``manaplan_seat``
    (None: phase pays for both), and with ``extra`` also casts what phase does not offer
    though it can be paid (:func:`extra_cast`; ``"detect"``: only counts where it would,
    as ``would_offer``). In the arm where phase pays, ``watch_seat``'s casts phase's
    auto-payer gives up on (a ManaPayment prompt left to its AI) are counted, and once
    the cast is no longer pending, whether its AI paid by hand (the spell on the stack)
    or abandoned it (back in hand). (winner seat or None, turns, the two life totals); a
    game not over after ``most_turns`` turns has no winner."""
    game = table.engine.new_game(player=table.decks[0], opponent=table.decks[1], seed=seed, format="Standard",
                                 first_player=first)
    gave_up = None  # (the phase arm: the spell its auto-payer gave up on, while its cast is pending)
    tried: set = set()  # (the third arm: (card, turn) of each extra cast tried)
    for _ in range(most_steps):
        waiting = game.waiting_for()
        kind = waiting.get("type")
        if kind == "GameOver" or most_turns is not None and game.turn > most_turns:
            break
        if manaplan_seat is None:
            gave_up = _watch_autopay(game, kind, waiting, watch_seat, gave_up, counts)
        actor = game.priority_player() if kind == "Priority" else (waiting.get("data") or {}).get(
            "player", game.priority_player())
        action = game.choose_action(actor)
        if action is None:
            break
        if manaplan_seat == actor and action.kind == "CastSpell":
            game = pay_with_manaplan(table, game, actor, action, counts)
        elif extra and manaplan_seat == actor and kind == "Priority" and action.kind == "PassPriority" and (
                (more := extra_cast(table, game, actor, counts, tried)) is not None):
            if extra == "detect":  # (the manaplan arm: a third arm would cast here)
                counts["would_offer"] = counts.get("would_offer", 0) + 1
                game.apply(actor, action)
            else:
                tried.add((more.to_dict()["data"]["object_id"], game.turn))
                game = pay_with_manaplan(table, game, actor, more, counts, extra=True)
        else:
            game.apply(actor, action)
    waiting = game.waiting_for()
    winner = (waiting.get("data") or {}).get("winner") if waiting.get("type") == "GameOver" else None
    return winner, game.turn, (game.player(0)["life"], game.player(1)["life"])


def _watch_autopay(game, kind: str, waiting: dict, seat: int, gave_up, counts: dict):
    """The arm where phase pays: a ManaPayment prompt for ``seat`` is a cast its
    auto-payer gave up on (counted, the spell watched while its cast is pending); once no
    cast is pending, the spell on the stack was paid by its AI by hand, in hand
    abandoned. The spell watched, or None."""
    if gave_up is None:
        if kind == "ManaPayment" and (waiting.get("data") or {}).get("player") == seat:
            _count(counts, "phase_arm_autopay_gave_up")
            return (game.state()["state"].get("pending_cast") or {}).get("object_id")
        return None
    if kind in PAYMENT_PROMPTS or game.state()["state"].get("has_pending_cast"):
        return gave_up
    zone = (game.object(gave_up) or {}).get("zone")
    _count(counts, "phase_arm_abandoned" if zone == "Hand" else "phase_arm_paid_by_hand")
    return None


_WORKER: dict = {}  # (per process: its Table, kept for every pair it plays)


def play_pair(job: tuple) -> dict:
    """One seed played in each arm: phase paying, manaplan paying for ``seat``, and (the
    third arm) manaplan paying and casting what phase does not offer though it can be
    paid; what the games and manaplan's decisions came to (the third arm's own payments
    counted apart, under ``third_``). A failure of the driver is the pair's ``error``,
    never the run's end."""
    seed, seat, first, decks_paths, cards_path, python, third, most_turns = job
    started = time.process_time()
    try:
        return {**_play_pair(seed, seat, first, decks_paths, cards_path, python, third, most_turns),
                "cpu": time.process_time() - started}
    except Exception as e:  # noqa: BLE001  (a pair the driver could not play: counted, reported)
        return {"seed": seed, "seat": seat, "first": first, "error": f"{type(e).__name__}: {e}"[:500], "counts": {},
                "cpu": time.process_time() - started}


def _table(decks_paths: tuple, cards_path: str, python: str) -> Table:
    """This process's :class:`Table` (built with its first pair; its ``serve`` closed at exit)."""
    if "table" not in _WORKER:
        cards = json.load(open(cards_path, encoding="utf-8"))
        decks = (_deck(decks_paths[0]), _deck(decks_paths[1]))
        used = set(decks[0]) | set(decks[1])
        missing = used - {c["name"] for c in cards}
        if missing:
            raise ValueError(f"cards missing from {cards_path}: {sorted(missing)}")
        _WORKER["table"] = Table(decks, [c for c in cards if c["name"] in used], python)
        atexit.register(_WORKER["table"].mp.close)
    return _WORKER["table"]


def _play_pair(seed, seat, first, decks_paths, cards_path, python, third, most_turns) -> dict:
    table = _table(decks_paths, cards_path, python)
    counts: dict = {}
    out = {"seed": seed, "seat": seat, "first": first,
           "phase": play(table, seed, first, None, counts, seat, most_turns=most_turns)}
    out["manaplan"] = play(table, seed, first, seat, counts, seat, extra="detect" if third else False,
                           most_turns=most_turns)
    offered = counts.pop("would_offer", 0)
    counts.pop("extra_offered", None)  # (offers found while watching: not casts)
    if third:
        # until its first cast phase does not offer, the third arm plays as the manaplan
        # arm: where the manaplan arm met none, its game stands for the third arm's too
        # (one game for both: phase's AI searches against the clock, so a replay could
        # differ by its timing alone, not by anything the third arm did)
        if offered:
            own: dict = {}
            out["third"] = play(table, seed, first, seat, own, seat, extra=True, most_turns=most_turns)
            _add_counts(counts, own, lambda key: key if key.startswith("extra_") else "third_" + key)
        else:
            out["third"] = out["manaplan"]
            _count(counts, "third_arm_games_without_an_extra_cast")
    return {**out, "counts": counts}


def pair_statistics(pairs: list, arm: str = "manaplan") -> dict:
    """The pairs' figures for manaplan's seat, ``arm`` beside the arm where phase pays:
    games won by one arm only (a sign test, McNemar's exact: under no difference each
    such pair goes either way at 1/2), and the life the seat ends with in pairs of the
    same winner (mean of the differences, its 95% interval); a pair with a game not
    finished (no winner by ``--most-turns``) is counted apart, in neither. Pairs the
    driver could not play (``error``) are left out."""
    from math import comb

    pairs = [p for p in pairs if arm in p and "error" not in p]
    played = [p for p in pairs if p[arm][0] is not None and p["phase"][0] is not None]  # (both games finished)
    only_mine = sum(1 for p in played if p[arm][0] == p["seat"] != p["phase"][0])
    only_phase = sum(1 for p in played if p["phase"][0] == p["seat"] != p[arm][0])
    n = only_mine + only_phase
    tail = sum(comb(n, k) for k in range(0, min(only_mine, only_phase) + 1)) / 2 ** n if n else 1.0
    same = [p[arm][2][p["seat"]] - p["phase"][2][p["seat"]] for p in played if p[arm][0] == p["phase"][0]]
    alike = sum(1 for p in pairs if p[arm] == p["phase"])
    mean = sum(same) / len(same) if same else None
    spread = (sum((d - mean) ** 2 for d in same) / (len(same) - 1)) ** 0.5 / len(same) ** 0.5 if len(same) > 1 else None
    return {"pairs": len(pairs), "played_out_alike": alike, f"won_by_{arm}_arm_only": only_mine,
            "won_by_phase_arm_only": only_phase, "sign_test_p": round(min(1.0, 2 * tail), 4),
            "same_winner_pairs": len(same),
            "life_difference_same_winner_mean": round(mean, 3) if mean is not None else None,
            "life_difference_same_winner_ci95": [round(mean - 1.96 * spread, 2), round(mean + 1.96 * spread, 2)]
            if spread is not None else None,
            f"{arm}_arm_wins": sum(1 for p in pairs if p[arm][0] == p["seat"]),
            "phase_arm_wins": sum(1 for p in pairs if p["phase"][0] == p["seat"]),
            "pairs_with_an_unfinished_game": len(pairs) - len(played)}


def what_it_can_show(only_mine: int, only_phase: int) -> str:
    """In words, what the pairs won by one arm only can show (McNemar's exact test: only
    those pairs count): with d of them, the most lopsided split has p = 2 / 2^d, so
    fewer than 6 can show nothing at 5%; and how lopsided a split of this many would
    have to be to show a difference."""
    d = only_mine + only_phase
    if d < 6:
        return (f"{d} pair(s) were won by one arm only: even all of them one way could not show a difference at "
                f"5% (the smallest p with {d} is {min(1.0, 2 / 2 ** d):.2g}); the sample shows no difference in "
                f"wins either way, and cannot")
    from math import comb
    need = next(k for k in range(d // 2, d + 1)
                if min(1.0, 2 * sum(comb(d, j) for j in range(k, d + 1)) / 2 ** d) < 0.05)
    return (f"{d} pairs were won by one arm only ({only_mine} by the manaplan arm, {only_phase} by phase's); a "
            f"difference at 5% needs at least {need} of {d} one way: the sample "
            + ("shows one" if max(only_mine, only_phase) >= need else "does not show one"))


def percentile(values: list, q: float) -> float:
    if not values:
        return 0.0
    values = sorted(values)
    return round(values[min(len(values) - 1, int(q * (len(values) - 1) + 0.5))], 2)


def summarize(pairs: list, seconds: float, workers: int) -> dict:
    """Every figure of a run: the pairs' statistics for each arm, the counts summed, the
    times per decision (p50, p95, p99) and what the run cost."""
    counts: dict = {}
    for p in pairs:
        _add_counts(counts, p["counts"])
    times = {key: counts.pop(key, []) for key in ("ms", "phase_state_ms", "apply_ms", "phase_pay_ms")}
    for key in [k for k in counts if k.startswith("third_") and isinstance(counts[k], list)]:
        counts.pop(key)  # (the third arm's own times: its decisions are the manaplan arm's kind)
    examples = counts.pop("examples", []) + counts.pop("third_examples", [])
    given_back = counts.pop("given_back_examples", []) + counts.pop("third_given_back_examples", [])
    out = {"pairs": pair_statistics(pairs), "counts": dict(sorted(counts.items())),
           "examples": examples[:10], "examples_total": len(examples),
           "given_back_examples": given_back[:5], "given_back_total": len(given_back),
           "errors": [{"seed": p["seed"], "error": p["error"]} for p in pairs if "error" in p],
           "times_ms": {key: {"n": len(v), "p50": percentile(v, 0.5), "p95": percentile(v, 0.95),
                              "p99": percentile(v, 0.99)} for key, v in times.items()},
           "seconds": round(seconds, 1), "cpu_seconds": round(sum(p["cpu"] for p in pairs), 1), "workers": workers}
    if any("third" in p for p in pairs):
        out["third_arm"] = pair_statistics(pairs, "third")
    return out


def _verdict_rows(c: dict, who: str, label: str) -> list:
    """Table rows of the verdicts counted under ``who`` (and the deciding terms)."""
    rows = [f"| {label}: {k.removeprefix(who + '_')} | {v} |" for k, v in c.items()
            if k.startswith(who + "_") and k.removeprefix(who + "_") in VERDICTS]
    rows += [f"| ... suboptimal, decided by {k.split('_worse_on_')[1]} | {v} |" for k, v in c.items()
             if k.startswith(who + "_worse_on_")]
    return rows


def report(summary: dict, pairs: list, command: str, decks: list, provenance: dict | None = None) -> str:
    """The run as a markdown page (benchmarks/results/NAME.md)."""
    c, st = summary["counts"], summary["pairs"]
    third = summary.get("third_arm") or {}
    given_back = {k: c.get(k, 0) for k in ("not_expressed", "manaplan_no", "manaplan_undecided", "refused",
                                             "not_as_planned")}
    played = st["pairs"]
    lines = [f"# manaplan paying inside phase.rs games: {' vs '.join(os.path.basename(d) for d in decks)}", "",
             f"`{command}`", "",
             f"Measured {time.strftime('%Y-%m-%d')} on {os.cpu_count()} cores, {summary['workers']} workers: "
             f"{summary['seconds']:.0f} s wall, {summary['cpu_seconds']:.0f} s CPU of the games' processes "
             f"({summary['cpu_seconds'] / max(1, played):.1f} s a pair); {played} pairs played"
             + (f", {len(summary['errors'])} the driver could not play" if summary["errors"] else "") + "."
             + (f" Code: manaplan {provenance.get('commit')}{' (with changes)' if provenance.get('dirty') else ''}, "
                f"phase-python {provenance.get('phase')}." if provenance else ""), "",
             "Phase's AI makes every decision but the payments of manaplan's seat; it searches against the clock "
             "(phase-ai's 1.5 s budget), so two games of one seed may part ways by its timing alone: pairs that "
             "played out alike are those the payments did not change and the clock did not either.", "",
             "## Payments (the manaplan arm)", "",
             "| what | count |", "|---|---:|",
             f"| casts reaching phase's ManaPayment prompt | {c.get('prompts', 0)} |",
             f"| ... paid by manaplan's plan and carried out as planned (the steps applied, the tapped set as the "
             f"plan's; phase spends the pool on the cast) | {c.get('carried_out', 0)} |"]
    lines += [f"| ... given back to phase: {k.replace('_', ' ')} | {v} |" for k, v in given_back.items()]
    lines += [f"| casts phase paid without a prompt | {c.get('no_prompt', 0)} |"]
    lines += _verdict_rows(c, "manaplan", "manaplan's payments judged by `check` as asked (hand, creatures kept)")
    lines += _verdict_rows(c, "manaplan_neutral", "manaplan's payments judged on the cost alone (no hand, no "
                                                  "creatures kept)")
    lines += ["", "## Phase's own payment at the same prompt (on a copy of the game)", "",
              "Made at each prompt where manaplan's plan was carried out.", "",
              "| what | count |", "|---|---:|",
              f"| refused (its auto-payer gave up, or it refused the cast) | {c.get('phase_refused', 0)} |"]
    lines += _verdict_rows(c, "phase", "judged by `check` as manaplan was asked (hand, creatures kept: what "
                                       "phase's auto-payer is not told)")
    lines += _verdict_rows(c, "phase_neutral", "judged on the cost alone")
    lines += ["", "In the arm where phase pays its own games:", "", "| what | count |", "|---|---:|",
              f"| casts of the seat its auto-payer gave up on | {c.get('phase_arm_autopay_gave_up', 0)} |",
              f"| ... then abandoned by its AI | {c.get('phase_arm_abandoned', 0)} |",
              f"| ... then paid by hand by its AI | {c.get('phase_arm_paid_by_hand', 0)} |", "",
              "## The pairs", "", "| figure | manaplan arm |" + (" third arm |" if third else ""),
              "|---|---:|" + ("---:|" if third else "")]
    for key in st:
        other = third.get(key.replace("manaplan", "third"), "") if third else None
        lines.append(f"| {key.replace('manaplan', 'this')} | {st[key]} |" + (f" {other} |" if third else ""))
    lines += ["", "What the pairs can show: " + what_it_can_show(st["won_by_manaplan_arm_only"],
                                                             st["won_by_phase_arm_only"]) + "."]
    if third:
        lines += ["", "## The third arm (manaplan also casts what phase does not offer though it can be paid)", "",
                  "Only cards that target nothing (phase's refusal of a targeting card may be its targets'). Where "
                  "the manaplan arm's game met no such card, that game stands for the third arm's too.", "",
                  "| what | count |", "|---|---:|",
                  f"| games with no such card (the manaplan arm's game stands) | "
                  f"{c.get('third_arm_games_without_an_extra_cast', 0)} |"]
        lines += [f"| {k.removeprefix('extra_').replace('_', ' ')} | {v} |" for k, v in c.items()
                  if k.startswith("extra_")]
        lines += ["", "The third arm: " + what_it_can_show(third["won_by_third_arm_only"],
                                                          third["won_by_phase_arm_only"]) + "."]
    lines += ["", "## Time per decision (ms)", "", "| what | n | p50 | p95 | p99 |", "|---|---:|---:|---:|---:|"]
    names = {"ms": "manaplan's `pay` (round trip)", "phase_state_ms": "phase's `state()` at the prompt",
             "apply_ms": "applying the plan in phase", "phase_pay_ms": "phase's own cast and payment (Auto)"}
    lines += [f"| {names[k]} | {v['n']} | {v['p50']} | {v['p95']} | {v['p99']} |" for k, v in summary["times_ms"].items()]
    if summary["examples"]:
        lines += ["", f"## Judged not optimal ({summary['examples_total']}; the first {len(summary['examples'])})", ""]
        lines += [f"- {e.get('who', '?')}: {e['verdict']} on {e['cost']}"
                  + (f", decided by {e['term']}" if e.get("term") else "")
                  + f": {e.get('differences') or e.get('violation') or e.get('error')}" for e in summary["examples"]]
    if summary.get("given_back_examples"):
        lines += ["", f"## Plans given back to phase ({summary['given_back_total']}; the first "
                      f"{len(summary['given_back_examples'])})", ""]
        lines += [f"- {e['cost']}: {e['why']}" for e in summary["given_back_examples"]]
    if summary["errors"]:
        lines += ["", "## Pairs the driver could not play", ""] + [f"- seed {e['seed']}: {e['error']}"
                                                                   for e in summary["errors"]]
    lines += ["", "## Each pair", "", "| seed | seat | first | phase pays: winner, turns, life | manaplan pays |"
              + (" third arm |" if third else ""), "|---|---|---|---|---|" + ("---|" if third else "")]
    lines += [f"| {p['seed']} | {p['seat']} | {p['first']} | {p.get('phase', p.get('error'))} | {p.get('manaplan')} |"
              + (f" {p.get('third')} |" if third else "") for p in pairs]
    return "\n".join(lines) + "\n"


VERDICTS = ("optimal", "suboptimal", "illegal", "unknown", "unrebuilt", "error")


def provenance() -> dict:
    """The code a run measured: manaplan's commit (and whether the tree had changes), phase's version."""
    def git(*args) -> str:
        try:
            return subprocess.run(["git", *args], cwd=HERE, capture_output=True, text=True, timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""
    try:
        from importlib.metadata import version
        phase_version = version("phase-python")
    except Exception:  # noqa: BLE001
        phase_version = "unknown"
    return {"commit": git("rev-parse", "--short", "HEAD"),
            "dirty": bool(git("status", "--porcelain", "--untracked-files=no", "--", "..")),  # (tracked files changed)
            "phase": phase_version}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--decks", nargs=2, default=[os.path.join(HERE, "decks", "simic_basics.txt"),
                                                     os.path.join(HERE, "decks", "azorius_lions.txt")])
    parser.add_argument("--cards", default=os.path.join(HERE, "..", "manaplan", "deck", "demo_cards.json"))
    parser.add_argument("--manaplan-python", default="python3")
    parser.add_argument("--third-arm", action="store_true", help="also play each seed with manaplan casting what "
                        "phase does not offer though it can be paid")
    parser.add_argument("--most-turns", type=int, default=None, help="a game not over after this many turns has "
                        "no winner (default: played out)")
    parser.add_argument("--workers", type=int, default=1, help="processes; past 1, a local Dask cluster")
    parser.add_argument("--address", help="a Dask scheduler's address (default: a local cluster)")
    parser.add_argument("--name", default=None, help="write benchmarks/results/NAME.md and NAME.json (and "
                        "NAME.jsonl, each pair as it ends)")
    parser.add_argument("--command-run", default="", help="with --report-from: the command of a run whose JSON "
                        "does not say it")
    parser.add_argument("--wall", type=float, default=0.0, help="with --report-from NAME.jsonl: the run's wall "
                        "seconds")
    parser.add_argument("--report-from", metavar="JSON", help="write NAME.md again from a run's NAME.json (its "
                        "pairs and cost), with this version's report")
    args = parser.parse_args(argv)
    if args.report_from:
        if args.report_from.endswith(".jsonl"):  # (a run stopped early: the pairs it wrote as they ended)
            lines = open(args.report_from, encoding="utf-8").read().splitlines()
            pairs = sorted((json.loads(line) for line in lines if line.strip()), key=lambda p: p["seed"])
            saved = {"pairs": pairs, "summary": {"seconds": args.wall, "workers": args.workers},
                     "provenance": provenance()}
        else:
            saved = json.load(open(args.report_from, encoding="utf-8"))
        for pair in saved["pairs"]:  # (a game's result as play returns it: JSON made its tuples lists)
            for arm in ("phase", "manaplan", "third"):
                if isinstance(pair.get(arm), list):
                    winner, turns, lives = pair[arm]
                    pair[arm] = (winner, turns, tuple(lives))
        summary = summarize(saved["pairs"], saved["summary"]["seconds"], saved["summary"]["workers"])
        with open(args.report_from.removesuffix(".jsonl").removesuffix(".json") + ".md", "w", encoding="utf-8") as f:
            f.write(report(summary, saved["pairs"], saved.get("command") or args.command_run,
                           saved.get("decks") or args.decks, saved.get("provenance")))
        return 0
    # seats and first player alternate: each of the four combinations once in four seeds
    jobs = [(args.seed + k, k % 2, (k // 2) % 2, tuple(args.decks), args.cards, args.manaplan_python,
             args.third_arm, args.most_turns) for k in range(args.pairs)]
    started = time.perf_counter()
    source = provenance()
    pairs = []
    partial = open(os.path.join(HERE, "results", f"{args.name}.jsonl"), "w", encoding="utf-8") if args.name else None

    def done(pair: dict) -> None:
        pairs.append(pair)
        if partial is not None:
            partial.write(json.dumps(pair) + "\n")
            partial.flush()
        print(f"pair {len(pairs)}/{len(jobs)} (seed {pair['seed']}, {pair['cpu']:.0f} s): "
              + (pair["error"] if "error" in pair else f"{pair['phase']} / {pair['manaplan']}"
                 + (f" / {pair['third']}" if "third" in pair else "")), flush=True)

    if args.workers > 1 or args.address:
        from dask.distributed import Client, LocalCluster, as_completed

        cluster = None if args.address else LocalCluster(n_workers=args.workers, threads_per_worker=1,
                                                         processes=True, dashboard_address=None)
        client = Client(args.address or cluster)
        # the workers import this module by name (its function sent by reference, not by
        # value: each worker keeps its Table and its `manaplan serve` for every pair)
        client.run(_on_path, HERE)
        import phase_games as module  # (this file, by the name the workers import)

        for future in as_completed(client.map(module.play_pair, jobs, pure=False)):
            done(future.result())
        client.close()
        if cluster is not None:
            cluster.close()
    else:
        for job in jobs:
            done(play_pair(job))
    pairs.sort(key=lambda p: p["seed"])
    summary = summarize(pairs, time.perf_counter() - started, args.workers)
    print(json.dumps({k: v for k, v in summary.items() if k != "examples"}))
    if args.name:
        partial.close()
        command = "benchmarks/phase_games.py " + " ".join(a if "/" not in a else os.path.relpath(a, os.path.dirname(HERE))
                                                          for a in sys.argv[1:])
        with open(os.path.join(HERE, "results", f"{args.name}.md"), "w", encoding="utf-8") as f:
            f.write(report(summary, pairs, command, args.decks, source))
        with open(os.path.join(HERE, "results", f"{args.name}.json"), "w", encoding="utf-8") as f:
            json.dump({"command": command, "decks": args.decks, "provenance": source, "summary": summary,
                       "pairs": pairs}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
