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
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
COLOR_LETTER = {"White": "W", "Blue": "U", "Black": "B", "Red": "R", "Green": "G", "Colorless": "C"}
LETTER_COLOR = {v: k for k, v in COLOR_LETTER.items()}


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
    """One of phase's cost shards ("Green", "GreenWhite", "TwoGreen") as a symbol."""
    if shard in COLOR_LETTER:
        return "{%s}" % COLOR_LETTER[shard]
    words = re.findall(r"[A-Z][a-z]*", shard)
    if len(words) == 2 and words[0] == "Two" and words[1] in COLOR_LETTER:
        return "{2/%s}" % COLOR_LETTER[words[1]]
    if len(words) == 2 and all(w in COLOR_LETTER and w != "Colorless" for w in words):
        return "{%s/%s}" % (COLOR_LETTER[words[0]], COLOR_LETTER[words[1]])
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
    entered on this ``turn``: CR 302.6), the pool's mana, the life, ``mid_cast``, the
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
    request = {"query": "pay", "spell": {"mana_cost": cost_text(cost)}, "permanents": permanents,
               "player": {"life": life}, "mid_cast": True}
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

    sys.path.insert(0, HERE)
    import phase_engine as pe  # (the card shape phase's parser takes)

    faces = {}
    for c in card_objects:
        card = pe.mtgjson(c["name"], c["type_line"], c.get("oracle_text", ""), c.get("mana_cost") or None,
                          c.get("power"))
        if "toughness" in card and c.get("toughness") is not None:
            card["toughness"] = str(c["toughness"])  # (without one, 1: the demo cards give none)
        faces[c["name"].lower()] = build_oracle_face(card, None)
    return faces


def engine_for(card_objects: list):
    """A phase Engine of the cards (:func:`faces_for`)."""
    from phase import Engine

    return Engine.from_json(json.dumps(faces_for(card_objects)))


def _count(counts: dict, key: str, n: int = 1) -> None:
    counts[key] = counts.get(key, 0) + n


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
    """The referee's verdict (counted under ``who``, with each term of the objective a
    suboptimal payment is worse on) on the payment phase's ``events`` show for the cast of
    ``spell_oid``: the plan rebuilt from them (``phase_engine.plan_from_events``; the mana
    ``floating`` at the prompt, (letter, its maker), paid from the pool) checked by
    manaplan's ``check`` against the prompt's ``request``. A rebuild that fails is
    "unrebuilt" (counted, never a verdict)."""
    sys.path.insert(0, HERE)
    import phase_engine as pe

    ids = {int(p["id"]): p["id"] for p in request["permanents"]}
    names = {p["id"]: p["name"] for p in request["permanents"]}
    try:
        rebuilt = pe.plan_from_events(events, game, spell_oid, ids, names, table.faces,
                                      pe.symbols(request["spell"]["mana_cost"]), 0, [], floating, seat=seat)
    except Exception:  # noqa: BLE001  (counted: a payment the rebuild can't read)
        _count(counts, f"{who}_unrebuilt")
        return "unrebuilt"
    answer = table.mp.ask({**request, "query": "check", "plan": rebuilt["plan"]})
    verdict = answer.get("verdict") or "error"
    _count(counts, f"{who}_{verdict}")
    if verdict == "suboptimal":
        for term in worse_terms(answer):
            _count(counts, f"{who}_worse_on_{term}")
    if verdict not in ("optimal", "unknown"):
        counts.setdefault("examples", []).append({
            "verdict": verdict, "cost": request["spell"]["mana_cost"], "differences": answer.get("differences"),
            "violation": answer.get("violation"), "error": answer.get("error"), "plan": rebuilt["plan"]})
    return verdict


#: the objective's terms a payment may be worse on, the costly first (docs/protocol.md,
#: "The default objective"; "spared": creatures kept for attacking and blocking)
TERMS = ("life", "sacrificed", "tapped", "spared", "exiled", "floating", "flexibility", "before_casting")


def worse_terms(answer: dict) -> list:
    """The terms of the objective on which a ``check`` answer's plan is worse than the optimum."""
    mine, best = answer.get("objective") or {}, answer.get("optimum") or {}
    return [t for t in TERMS if t in mine and t in best and mine[t] > best[t]]


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


def extra_cast(table: Table, game, seat: int, counts: dict):
    """The third arm: at ``seat``'s priority in its own main phase with an empty stack, a
    card of its hand that phase does not offer to cast (no ``CastSpell`` among its
    actions) though manaplan's ``castable`` pays it now: the largest such (mana value),
    as a ``CastSpell`` to apply, or None. Only cards that target nothing and have a mana
    cost (phase's refusal of any other may be its targets', not its mana's)."""
    from phase import GameAction

    if game.phase not in MAIN_PHASES or game.stack():
        return None
    offered = {a.to_dict()["data"].get("object_id") for a in game.actions() if a.kind == "CastSpell"}
    spells = [s for s in hand_cards(game.hand(seat), table.cards) if int(s["id"]) not in offered
              and "target" not in table.oracle.get(game.object(int(s["id"]))["name"], "").lower()]
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
    total = 0
    for symbol in re.findall(r"\{([^}]*)\}", cost):
        total += int(symbol) if symbol.isdigit() else 0 if symbol == "X" else 1
    return total


def play(table: Table, seed: int, first: int, manaplan_seat, counts: dict, watch_seat: int, extra=False,
         most_turns: int | None = None, most_steps: int = 6000):
    """One AI-vs-AI game (``first`` plays first); manaplan pays for ``manaplan_seat``
    (None: phase pays for both), and with ``extra`` also casts what phase wrongly does
    not offer (:func:`extra_cast`; ``"detect"``: only counts where it would, as
    ``would_offer``). In the arm where phase pays, ``watch_seat``'s casts
    phase's auto-payer gives up on are counted, and whether its AI then paid by hand or
    abandoned the cast. (winner seat or None, turns, the two life totals); a game not
    over after ``most_turns`` turns has no winner."""
    game = table.engine.new_game(player=table.decks[0], opponent=table.decks[1], seed=seed, format="Standard",
                                 first_player=first)
    gave_up = None  # (the phase arm: the spell its auto-payer gave up on)
    for _ in range(most_steps):
        waiting = game.waiting_for()
        kind = waiting.get("type")
        if kind == "GameOver" or most_turns is not None and game.turn > most_turns:
            break
        if gave_up is not None and kind != "ManaPayment":
            zone = (game.object(gave_up) or {}).get("zone")
            _count(counts, "phase_arm_abandoned" if zone == "Hand" else "phase_arm_paid_by_hand")
            gave_up = None
        actor = game.priority_player() if kind == "Priority" else (waiting.get("data") or {}).get(
            "player", game.priority_player())
        action = game.choose_action(actor)
        if action is None:
            break
        if manaplan_seat == actor and action.kind == "CastSpell":
            game = pay_with_manaplan(table, game, actor, action, counts)
        elif extra and manaplan_seat == actor and kind == "Priority" and action.kind == "PassPriority" and (
                (more := extra_cast(table, game, actor, counts)) is not None):
            if extra == "detect":  # (the manaplan arm: a third arm would cast here)
                counts["would_offer"] = counts.get("would_offer", 0) + 1
                game.apply(actor, action)
            else:
                game = pay_with_manaplan(table, game, actor, more, counts, extra=True)
        else:
            game.apply(actor, action)
            if manaplan_seat is None and actor == watch_seat and action.kind == "CastSpell" and \
                    game.waiting_for().get("type") == "ManaPayment":
                _count(counts, "phase_arm_autopay_gave_up")
                gave_up = action.to_dict()["data"].get("object_id")
    waiting = game.waiting_for()
    winner = (waiting.get("data") or {}).get("winner") if waiting.get("type") == "GameOver" else None
    return winner, game.turn, (game.player(0)["life"], game.player(1)["life"])


_WORKER: dict = {}  # (per process: its Table)


def play_pair(job: tuple) -> dict:
    """One seed played in each arm: phase paying, manaplan paying for ``seat``, and (the
    third arm) manaplan paying and casting what phase wrongly refuses; what the games and
    manaplan's decisions came to. Each process keeps its :class:`Table` for every pair
    it plays."""
    seed, seat, first, decks_paths, cards_path, python, third, most_turns = job
    if "table" not in _WORKER:
        cards = json.load(open(cards_path, encoding="utf-8"))
        decks = (_deck(decks_paths[0]), _deck(decks_paths[1]))
        used = set(decks[0]) | set(decks[1])
        missing = used - {c["name"] for c in cards}
        if missing:
            raise SystemExit(f"cards missing from {cards_path}: {sorted(missing)}")
        _WORKER["table"] = Table(decks, [c for c in cards if c["name"] in used], python)
    table = _WORKER["table"]
    counts: dict = {}
    started = time.process_time()
    out = {"seed": seed, "seat": seat, "first": first,
           "phase": play(table, seed, first, None, counts, seat, most_turns=most_turns)}
    looking: dict = {}  # (the manaplan arm, watching where the third arm would first differ)
    out["manaplan"] = play(table, seed, first, seat, looking, seat, extra="detect" if third else False,
                           most_turns=most_turns)
    offered = looking.pop("would_offer", 0)
    looking.pop("extra_offered", None)
    for key, value in looking.items():
        counts[key] = counts.get(key, []) + value if isinstance(value, list) else counts.get(key, 0) + value
    if third:
        # phase plays a seed the same way given the same actions: until the first cast it
        # does not offer, the third arm's game is the manaplan arm's; a game with none is it
        if offered:
            out["third"] = play(table, seed, first, seat, counts, seat, extra=True, most_turns=most_turns)
        else:
            out["third"] = out["manaplan"]
            _count(counts, "third_arm_games_without_an_extra_cast")
    return {**out, "counts": counts, "cpu": time.process_time() - started}


def pair_statistics(pairs: list, arm: str = "manaplan") -> dict:
    """The pairs' figures for manaplan's seat, ``arm`` beside the arm where phase pays:
    games won by one arm only (a sign test, McNemar's exact: under no difference each
    such pair goes either way at 1/2), and the life the seat ends with in pairs of the
    same winner (mean of the differences)."""
    from math import comb

    pairs = [p for p in pairs if arm in p]
    only_mine = sum(1 for p in pairs if p[arm][0] == p["seat"] != p["phase"][0])
    only_phase = sum(1 for p in pairs if p["phase"][0] == p["seat"] != p[arm][0])
    n = only_mine + only_phase
    tail = sum(comb(n, k) for k in range(0, min(only_mine, only_phase) + 1)) / 2 ** n if n else 1.0
    same = [p[arm][2][p["seat"]] - p["phase"][2][p["seat"]] for p in pairs if p[arm][0] == p["phase"][0]]
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
            "unfinished_games": sum(1 for p in pairs for a in ("phase", arm) if p[a][0] is None)}


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
        for key, value in p["counts"].items():
            counts[key] = counts.get(key, []) + value if isinstance(value, list) else counts.get(key, 0) + value
    times = {key: counts.pop(key, []) for key in ("ms", "phase_state_ms", "apply_ms", "phase_pay_ms")}
    examples = counts.pop("examples", [])
    out = {"pairs": pair_statistics(pairs), "counts": dict(sorted(counts.items())), "examples": examples[:8],
           "examples_total": len(examples),
           "times_ms": {key: {"n": len(v), "p50": percentile(v, 0.5), "p95": percentile(v, 0.95),
                              "p99": percentile(v, 0.99)} for key, v in times.items()},
           "seconds": round(seconds, 1), "cpu_seconds": round(sum(p["cpu"] for p in pairs), 1), "workers": workers}
    if any("third" in p for p in pairs):
        out["third_arm"] = pair_statistics(pairs, "third")
    return out


def report(summary: dict, pairs: list, command: str, decks: list) -> str:
    """The run as a markdown page (benchmarks/results/NAME.md)."""
    c, st = summary["counts"], summary["pairs"]
    given_back = {k: c.get(k, 0) for k in ("not_expressed", "manaplan_no", "manaplan_undecided", "refused",
                                             "not_as_planned")}
    lines = [f"# manaplan paying inside phase.rs games: {' vs '.join(os.path.basename(d) for d in decks)}", "",
             f"`{command}`", "",
             f"Measured {time.strftime('%Y-%m-%d')} on {os.cpu_count()} cores, {summary['workers']} workers: "
             f"{summary['seconds']:.0f} s wall, {summary['cpu_seconds']:.0f} s CPU of the games' processes "
             f"({summary['cpu_seconds'] / max(1, st['pairs']):.1f} s a pair).", "",
             "## Payments (the manaplan arm)", "",
             "| what | count |", "|---|---:|",
             f"| casts reaching phase's ManaPayment prompt | {c.get('prompts', 0)} |",
             f"| paid by manaplan's plan and carried out exactly | {c.get('carried_out', 0)} |"]
    lines += [f"| given back to phase: {k.replace('_', ' ')} | {v} |" for k, v in given_back.items()]
    lines += [f"| manaplan's payments judged by `check`: {k.removeprefix('manaplan_')} | {v} |"
              for k, v in c.items() if k.startswith("manaplan_") and k[9:] in VERDICTS]
    lines += ["", "## Phase's own payment at the same prompt (on a copy of the game)", "",
              "| what | count |", "|---|---:|", f"| refused (its auto-payer gave up) | {c.get('phase_refused', 0)} |"]
    lines += [f"| judged by `check`: {k.removeprefix('phase_')} | {v} |" for k, v in c.items()
              if k.startswith("phase_") and k[6:] in VERDICTS]
    lines += [f"| ... worse than the optimum on {k.split('_worse_on_')[1]} | {v} |" for k, v in c.items()
              if k.startswith("phase_worse_on_")]
    lines += ["", "In the arm where phase pays its own games:", "", "| what | count |", "|---|---:|",
              f"| casts its auto-payer gave up on | {c.get('phase_arm_autopay_gave_up', 0)} |",
              f"| ... then abandoned by its AI | {c.get('phase_arm_abandoned', 0)} |",
              f"| ... then paid by hand by its AI | {c.get('phase_arm_paid_by_hand', 0)} |", "",
              "## The pairs", "", "| figure | manaplan arm |" + (" third arm |" if "third_arm" in summary else ""),
              "|---|---:|" + ("---:|" if "third_arm" in summary else "")]
    third = summary.get("third_arm") or {}
    for key in st:
        other = third.get(key.replace("manaplan", "third"), "") if third else None
        lines.append(f"| {key.replace('manaplan', 'this')} | {st[key]} |" + (f" {other} |" if third else ""))
    if third:
        lines += ["", "## The third arm (manaplan also casts what phase's castability check refuses)", "",
                  "| what | count |", "|---|---:|"]
        lines += [f"| {k.removeprefix('extra_').replace('_', ' ')} | {v} |" for k, v in c.items()
                  if k.startswith("extra_")]
    lines += ["", "What the pairs can show: " + what_it_can_show(st["won_by_manaplan_arm_only"],
                                                             st["won_by_phase_arm_only"]) + "."]
    if third:
        lines += ["", "The third arm: " + what_it_can_show(third["won_by_third_arm_only"],
                                                          third["won_by_phase_arm_only"]) + "."]
    lines += ["", "## Time per decision (ms)", "", "| what | n | p50 | p95 | p99 |", "|---|---:|---:|---:|---:|"]
    names = {"ms": "manaplan's `pay` (round trip)", "phase_state_ms": "phase's `state()` at the prompt",
             "apply_ms": "applying the plan in phase", "phase_pay_ms": "phase's own cast and payment (Auto)"}
    lines += [f"| {names[k]} | {v['n']} | {v['p50']} | {v['p95']} | {v['p99']} |" for k, v in summary["times_ms"].items()]
    if summary["examples"]:
        lines += ["", f"## Judged not optimal ({summary['examples_total']}; the first {len(summary['examples'])})", ""]
        lines += [f"- {e['verdict']} on {e['cost']}: {e.get('differences') or e.get('violation') or e.get('error')}"
                  for e in summary["examples"]]
    lines += ["", "## Each pair", "", "| seed | seat | first | phase pays: winner, turns, life | manaplan pays |"
              + (" third arm |" if third else ""), "|---|---|---|---|---|" + ("---|" if third else "")]
    lines += [f"| {p['seed']} | {p['seat']} | {p['first']} | {p['phase']} | {p['manaplan']} |"
              + (f" {p.get('third')} |" if third else "") for p in pairs]
    return "\n".join(lines) + "\n"


VERDICTS = ("optimal", "suboptimal", "illegal", "unknown", "unrebuilt", "error")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--decks", nargs=2, default=[os.path.join(HERE, "decks", "simic_basics.txt"),
                                                     os.path.join(HERE, "decks", "azorius_lions.txt")])
    parser.add_argument("--cards", default=os.path.join(HERE, "..", "manaplan", "deck", "demo_cards.json"))
    parser.add_argument("--manaplan-python", default="python3")
    parser.add_argument("--third-arm", action="store_true", help="also play each seed with manaplan casting what "
                        "phase's castability check refuses")
    parser.add_argument("--most-turns", type=int, default=None, help="a game not over after this many turns has "
                        "no winner (default: played out)")
    parser.add_argument("--workers", type=int, default=1, help="processes; past 1, a local Dask cluster")
    parser.add_argument("--address", help="a Dask scheduler's address (default: a local cluster)")
    parser.add_argument("--name", default=None, help="write benchmarks/results/NAME.md and NAME.json")
    parser.add_argument("--command-run", default="", help="with --report-from: the command of a run whose JSON "
                        "does not say it")
    parser.add_argument("--report-from", metavar="JSON", help="write NAME.md again from a run's NAME.json (its "
                        "pairs and cost), with this version's report")
    args = parser.parse_args(argv)
    if args.report_from:
        saved = json.load(open(args.report_from, encoding="utf-8"))
        summary = summarize(saved["pairs"], saved["summary"]["seconds"], saved["summary"]["workers"])
        with open(args.report_from.removesuffix(".json") + ".md", "w", encoding="utf-8") as f:
            f.write(report(summary, saved["pairs"], saved.get("command") or args.command_run,
                           saved.get("decks") or args.decks))
        return 0
    # seats and first player alternate: each of the four combinations once in four seeds
    jobs = [(args.seed + k, k % 2, (k // 2) % 2, tuple(args.decks), args.cards, args.manaplan_python,
             args.third_arm, args.most_turns) for k in range(args.pairs)]
    started = time.perf_counter()
    pairs = []

    def done(pair: dict) -> None:
        pairs.append(pair)
        print(f"pair {len(pairs)}/{len(jobs)} (seed {pair['seed']}, {pair['cpu']:.0f} s): {pair['phase']} / "
              f"{pair['manaplan']}" + (f" / {pair['third']}" if "third" in pair else ""), flush=True)

    if args.workers > 1 or args.address:
        from dask.distributed import Client, LocalCluster, as_completed

        cluster = None if args.address else LocalCluster(n_workers=args.workers, threads_per_worker=1,
                                                         processes=True, dashboard_address=None)
        client = Client(args.address or cluster)
        for future in as_completed(client.map(play_pair, jobs, pure=False)):
            done(future.result())
        client.close()
        if cluster is not None:
            cluster.close()
    else:
        for job in jobs:
            done(play_pair(job))
        if "table" in _WORKER:
            _WORKER["table"].mp.close()
    pairs.sort(key=lambda p: p["seed"])
    summary = summarize(pairs, time.perf_counter() - started, args.workers)
    print(json.dumps({k: v for k, v in summary.items() if k != "examples"}))
    if args.name:
        command = "benchmarks/phase_games.py " + " ".join(a if "/" not in a else os.path.relpath(a, os.path.dirname(HERE))
                                                          for a in sys.argv[1:])
        with open(os.path.join(HERE, "results", f"{args.name}.md"), "w", encoding="utf-8") as f:
            f.write(report(summary, pairs, command, args.decks))
        with open(os.path.join(HERE, "results", f"{args.name}.json"), "w", encoding="utf-8") as f:
            json.dump({"command": command, "decks": args.decks, "summary": summary, "pairs": pairs}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
