"""phase.rs as an engine under test: answer manaplan's conformance suite with phase's auto-payment.

    /work/venv-phase/bin/python benchmarks/phase_engine.py SUITE.jsonl ANSWERS.jsonl [--timeout S]

Runs in a virtual environment of its own holding `phase-python` (the PyO3 bindings of the
phase.rs rules engine, import name `phase`); it imports only the standard library and
`phase`, never manaplan. Each suite line is a case
`{"case": ID, "request": {"query": "pay", "spell": {...}, "player": {...}, "permanents": [...]}}`;
each answer line is `{"case": ID, "payable": true, "plan": {...}}`, `{"case": ID, "payable":
false}` or `{"case": ID, "error": "..."}`; a "no" may carry a `note` saying why (phase's refusal,
or phase's auto-payment giving up). A one-line summary goes to standard error.

How a case is put to phase (all through phase's public Python API)
-------------------------------------------------------------------
- Cards. phase's own card database (`card-data.json`) is an MTGJSON export that this machine
  cannot download, so each case's cards are built from the case's own text by phase's own
  Oracle parser, `phase.build_oracle_face` (name, type line, Oracle text, mana cost, in
  MTGJSON's shape), and loaded with `Engine.from_json`. The spell is a card named
  "Manaplan Spell" with the case's mana cost, the spell's `type_line` (default "Creature —
  Test", a vanilla 1/1) and `oracle_text` when the case gives them. The library is padded
  with a {15} vanilla creature to the 40 cards the format asks for.
- Board. `Engine.new_game` (format FreeForAll, debug actions allowed, seat 0 starts);
  `Game.state()` with `debug_mode` switched on and `Engine.load_game`; both players keep;
  then phase's debug actions (`GameAction` "Debug"): SetPhase (precombat main of seat 0's
  turn), MoveToZone (each permanent from the library or hand to the battlefield, the spell
  to the hand), SetTapped, SetSummoningSickness (off unless the case says so),
  ModifyCounters, SetLife, AddMana (the player's floating `pool`); `player.graveyard` N moves N
  filler cards from the library to the graveyard (for delve).
- Targets. A spell whose Oracle text says "target" gets something to target that takes no part
  in the payment: a vanilla 1/1 on the OPPONENT's battlefield (and the players); for "target
  spell" the opponent also casts a {0} flash creature in seat 0's main phase (seat 0 passes
  priority, the opponent casts it and passes back), so it is on the stack. The first legal
  target phase offers is chosen. "Target attacking or blocking creature" (Devouring Light) is
  NOT set up (no combat is staged): phase refuses those casts, "No legal targets", an error.
- Paying. The spell is cast with `CastSpell` and `payment_mode` "Auto" (phase's automatic
  payment, allowed to sacrifice; phase's own listed action may say "AutoExceptSacrificialMana",
  which stops to ask before sacrificing). If phase does not list a CastSpell action for the
  spell, the driver applies one anyway to read phase's reason: a refusal starting "Cannot pay"
  ("Cannot pay mana cost", "Cannot pay required additional cost": phase's own verdict that
  the whole cost can't be paid, the mana included) and "it has no mana cost (CR 118.6)" are
  answered `"payable": false` with the message as the note; any other refusal is an error.
- Prompts phase leaves to the caster during the cast are answered by the DRIVER, not phase:
  ChooseXValue gets the case's `spell.x` (default 0; an X that phase does not offer is
  answered `"payable": false`); PhyrexianPayment gets, of the combinations phase lists, the
  one paying the most Phyrexian symbols with mana (the first listed on a tie);
  TargetSelection gets the first target listed (phase lists no ChooseTarget action when it is
  about to find the cost unpayable: then the first of the prompt's legal targets is sent, and
  phase's "Cannot pay ..." is a no); PayCost of kind Sacrifice (an additional cost, "sacrifice a
  creature / land / artifact or creature") gets the first option phase offers, reported as
  `sacrificed_for_cost` (and, as in manaplan's plans, in `sacrificed` too).
- ManaPayment prompts. phase's Auto payment stops at one for every convoke / improvise / delve
  spell and when its auto-payer finds no way to pay. If the prompt offers PassPriority, that is
  phase's own "pay the rest automatically" and is taken. If it offers only manual payment
  (activating sources one by one, TapForConvoke for convoke / improvise / delve, CancelCast),
  phase's auto-payment has given up: the answer is `{"payable": false, "note": "phase's
  auto-payment gave up ..."}`: an AI relying on phase's auto-payment could not cast the spell.
  In this suite phase's PassPriority never convoked, improvised or delved: it offers
  PassPriority only when mana alone can pay, and then pays with mana alone. Convoke /
  improvise steps (`{"permanent", "ability": "convoke" | "improvise", "adds"}`, from the
  spell's `convoked_creatures`) and delve steps (`{"permanent": "graveyard", "ability":
  "delve", "adds": "{C}"}`, one per card phase moved from the graveyard to exile) are written
  if phase ever reports them. Any other prompt is an error naming it.

What in an answer is phase's and what is reconstructed
-------------------------------------------------------
phase's (read from the events `Game.apply` returns, in their order):
- `payable`; the steps and their order (one per `AbilityActivated` of kind Mana); each
  step's permanent and `adds` (the mana of its `ManaAdded` / `ManaAbilityProduced` events);
  a step's `triggered` (mana another permanent added after the activation finished, up to its
  `EffectResolved`: one triggered ability's resolution, whatever it added; the trigger's index
  is the permanent's first triggered mana ability as phase parsed it);
  which sources' mana went to the spell (the spell's `mana_spent_source_snapshots`, plus
  floating mana counted by `mana_spent_to_cast_amount`) and the colors spent on it
  (`colors_spent_to_cast`).
RECONSTRUCTED by this driver (phase does not say which mana paid which symbol):
- the top `payment` lines: the units of mana phase spent on the spell (above) are matched
  to the symbols of the case's printed cost by a maximum bipartite matching that prefers
  legal pairs; a unit that no legal pairing takes is still listed against a symbol left
  over, so a wrong mana made by phase shows as an illegal line rather than being fixed.
  Generic mana is listed under its printed symbol ("{3}" three times, as manaplan's own
  plans do). A Phyrexian symbol phase paid with life is `{"symbol": "{B/P}", "life": 2}`.
- which of a source's units went to the spell (phase gives the sources and their counts, and
  the colors spent, not the units): among the ways to take that many units of each source,
  one agreeing with `colors_spent_to_cast`, leaving the abilities' costs payable in time,
  paying the spell legally.
- a step's `payment` (the mana spent on the ability's own cost, a filter land's {R/G} or a
  Signet's {1}): the mana phase made (or found floating in the pool, `"from": "pool"`) and
  spent neither on the spell nor left floating is matched to the mana symbols of the cost of
  the ability that produced what the step added (the ability is picked from the card's
  abilities as phase parsed them, by what it produced: mana multiplied by Mana Reflection /
  Nyxbloom Ancient counts as the ability's, a step that added nothing is the ability adding
  a varying amount, Cabal Coffers); a matching over time (min-cost): a unit pays a step's
  cost only if an earlier step (or its trigger) made it, legal colors preferred; a slot no
  unit can pay in time still gets a unit phase spent elsewhere (an illegal line, not hidden).
- a step's `ability` index, only where a replacement multiplied the mana and the card has
  several mana abilities (the referee's default, the first ability that can add that mana,
  does not count the replacement): the ability's place among the card's mana abilities as
  phase parsed them, or, for a land whose mana comes from basic land types, the type's place
  in the type line.
- nothing else: the plan's summary (tapped, sacrificed, life paid, what floats) is not
  written; the referee reads it off the steps (the driver's tally of phase's events would be
  a reconstruction, and a pain land's damage is a trigger phase puts on the stack).

Not expressible (answered as an error): queries other than "pay", a `hand`, `keep_*`,
`prefer`, `opponents`, kept boards, explicit `abilities` / `triggers`, chosen colors or
types, exiled colors, attachments, two-faced cards, a `card` object without `type_line` /
`oracle_text` to take, the spell's additional costs, kicker, increases, reductions,
minimum, convoke / improvise / delve flags, alternative costs, commander flags, and the
player's energy, spell count or commander identity. `time_limit_ms` and
permanents' `timestamp` are ignored (phase keeps its own timestamps). Snow mana ({S}) is
matched as any mana. Each case runs in a worker process, killed after `--timeout` seconds
(the worker's start-up is not counted).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import re
import sys
import time

COLOR_LETTER = {"White": "W", "Blue": "U", "Black": "B", "Red": "R", "Green": "G", "Colorless": "C"}
LETTER_COLOR = {v: k for k, v in COLOR_LETTER.items()}
SPELL_NAME = "Manaplan Spell"
FILLER_NAME = "Manaplan Filler"
FLASH_NAME = "Manaplan Flash"  # the opponent's {0} flash creature: a spell on the stack to target
DECK_SIZE = 40
SUPERTYPES = {"Basic", "Legendary", "Snow", "World", "Ongoing", "Host"}
FORMAT_CONFIG = {
    "allow_debug_actions": True, "command_zone": False, "commander_damage_threshold": None,
    "deck_size": {"data": DECK_SIZE, "type": "Minimum"}, "default_deck_copy_limit": {"type": "Unlimited"},
    "format": "FreeForAll", "max_players": 6, "min_players": 2, "range_of_influence": None,
    "sideboard_policy": {"type": "Unlimited"}, "singleton": False, "starting_life": 20,
    "supplies_fixed_deck": False, "team_based": False, "uses_commander": False,
}

# Request fields the driver can set up in phase (anything else is an error answer).
REQUEST_FIELDS = {"id", "game", "query", "spell", "player", "permanents", "time_limit_ms"}
SPELL_FIELDS = {"name", "mana_cost", "type_line", "oracle_text", "x", "colors", "value", "id"}
PLAYER_FIELDS = {"life", "pool", "graveyard"}
PERMANENT_FIELDS = {"id", "name", "type_line", "oracle_text", "tapped", "summoning_sick", "power",
                    "counters", "mana_cost", "colors", "snow", "timestamp", "card", "face"}
EMPTY_OK = {"graveyard": 0, "energy": 0, "additional": [], "increase": [], "reduce": [],
            "minimum": 0, "convoke": False, "improvise": False, "delve": False, "commander": False,
            "kicked": False, "kicks": 0, "fuse": False, "abilities": None, "triggers": None}


_BEFORE_CAST = None


class Unsupported(Exception):
    """The case uses something the driver cannot set up in phase."""


class EngineStop(Exception):
    """phase failed, or stopped where the driver cannot go on."""


# ---------------------------------------------------------------- cost symbols

def symbols(cost: str | None) -> list[str]:
    """The printed symbols of a mana string, e.g. "{1}{G/W}" -> ["{1}", "{G/W}"]."""
    if not cost:
        return []
    toks = re.findall(r"\{[^}]*\}", cost)
    if "".join(toks) != cost.replace(" ", ""):
        raise Unsupported(f"mana cost {cost!r} is not a string of {{...}} symbols")
    return [t.upper() for t in toks]


def shard_symbol(name: str) -> str:
    """phase's shard name (PhyrexianGreenBlue, TwoWhite, RedGreen, X) -> "{G/U/P}" etc."""
    words = re.findall(r"[A-Z][a-z]*", name)
    phyrexian = "Phyrexian" in words
    parts = []
    for w in words:
        if w == "Phyrexian":
            continue
        parts.append({"Two": "2", "X": "X", "Snow": "S"}.get(w, COLOR_LETTER.get(w, w)))
    if phyrexian:
        parts.append("P")
    return "{" + "/".join(parts) + "}"


def cost_slots(sym: str, x: int) -> list[list[set | None]]:
    """Ways to pay one symbol with mana: each a list of slots, a slot the set of letters it
    takes (None: any mana)."""
    body = sym[1:-1]
    if body.isdigit():
        return [[None] * int(body)]
    if body in ("X", "Y", "Z"):
        return [[None] * x]
    if body == "S":
        return [[None]]
    parts = body.split("/")
    if parts[-1] == "P":
        return [[set(parts[:-1])]]
    if parts[0] == "2":
        return [[{parts[1]}], [None, None]]
    return [[set(parts)]]


def mana_string(letters: list[str]) -> str:
    return "".join("{" + c + "}" for c in letters)


# ---------------------------------------------------------------- matching (reconstruction)

def _best_slots(syms: list[str], units: list[dict], x: int):
    """The ways to pay the hybrid / twobrid symbols tried, the best maximum matching of units to
    slots over legal pairs: (score, slots, slot of each unit)."""
    choice_syms = [i for i, s in enumerate(syms) if len(cost_slots(s, x)) > 1]
    best = None
    for mask in range(1 << len(choice_syms)):
        slots = []  # (symbol index, allowed)
        for i, s in enumerate(syms):
            ways = cost_slots(s, x)
            way = ways[0]
            if i in choice_syms and mask >> choice_syms.index(i) & 1:
                way = ways[1]
            slots += [(i, allowed) for allowed in way]
        if len(slots) != len(units) and best is not None:
            continue
        slot_of_unit = _kuhn(slots, units)
        score = (len(slots) == len(units), sum(v is not None for v in slot_of_unit))
        if best is None or score > best[0]:
            best = (score, slots, slot_of_unit)
    return best


def _spell_legal(syms: list[str], units: list[dict], x: int):
    """How well `units` pay the spell's symbols (for choosing which units phase spent on it)."""
    return _best_slots(syms, units, x)[0]


def printed_for_match(printed: list[str], phyrexian_life: list) -> list[str]:
    """The printed symbols paid with mana (those phase paid with life taken out)."""
    mana_syms = list(printed)
    for sym in phyrexian_life:
        if sym in mana_syms:
            mana_syms.remove(sym)
    return mana_syms


def match_units(syms: list[str], units: list[dict], x: int) -> list[dict]:
    """Lines `{"symbol", "mana", "from"}` pairing mana units with the symbols they paid:
    a maximum matching over legal pairs; units left over go to the slots left over."""
    _, slots, slot_of_unit = _best_slots(syms, units, x)
    free = [k for k in range(len(slots)) if k not in set(slot_of_unit)]
    lines = []
    for u, k in enumerate(slot_of_unit):
        if k is None:
            k = free.pop(0) if free else None
        lines.append((slots[k][0] if k is not None else len(syms), u,
                      syms[slots[k][0]] if k is not None else None))
    lines.sort()
    return [{"symbol": sym, "mana": units[u]["mana"], "from": units[u]["from"]} for _, u, sym in lines]


def _product(lists):
    if not lists:
        yield ()
        return
    for head in lists[0]:
        for tail in _product(lists[1:]):
            yield (head,) + tail


def _min_cost_matching(left_nodes, right_count, cost):
    """A matching of `left_nodes` to slots 0..right_count-1 (right_count may be a list: its
    length is used) of the most pairs, then the least cost; `cost(l, r)` is None where l
    can't take r. Returns {left node: (slot, cost)}. Successive shortest paths (small sizes)."""
    n_right = right_count if isinstance(right_count, int) else len(right_count)
    if not left_nodes or not n_right:
        return {}
    edges = {l: [(r, c) for r in range(n_right) for c in [cost(l, r)] if c is not None] for l in left_nodes}
    owner = {}  # slot -> left node
    slot_of = {}  # left node -> slot
    BIG = 10 ** 6
    while True:
        # Bellman-Ford over the residual graph: from every free left node, to a free slot.
        dist = {("L", l): 0 for l in left_nodes if l not in slot_of}
        prev = {}
        if not dist:
            break
        changed = True
        while changed:
            changed = False
            for l in left_nodes:
                d = dist.get(("L", l))
                if d is None:
                    continue
                for r, c in edges[l]:
                    if slot_of.get(l) == r:
                        continue
                    nd = d + c
                    if nd < dist.get(("R", r), BIG):
                        dist[("R", r)] = nd
                        prev[("R", r)] = ("L", l)
                        changed = True
            for r, l in owner.items():
                d = dist.get(("R", r))
                if d is None:
                    continue
                c = next(c for rr, c in edges[l] if rr == r)
                nd = d - c
                if nd < dist.get(("L", l), BIG):
                    dist[("L", l)] = nd
                    prev[("L", l)] = ("R", r)
                    changed = True
        ends = [r for r in range(n_right) if r not in owner and ("R", r) in dist]
        if not ends:
            break
        r = min(ends, key=lambda r: dist[("R", r)])
        node = ("R", r)
        while node in prev:
            l = prev[node][1]
            old = slot_of.get(l)
            slot_of[l] = node[1]
            owner[node[1]] = l
            if old is None:
                break
            node = ("R", old)
    return {l: (r, next(c for rr, c in edges[l] if rr == r)) for l, r in slot_of.items()}


def _kuhn(slots, units):
    owner = [None] * len(slots)

    def legal(u, k):
        allowed = slots[k][1]
        return allowed is None or units[u]["mana"] in allowed

    def augment(u, seen):
        for k in range(len(slots)):
            if k not in seen and legal(u, k):
                seen.add(k)
                if owner[k] is None or augment(owner[k], seen):
                    owner[k] = u
                    return True
        return False

    for u in range(len(units)):
        augment(u, set())
    slot_of_unit = [None] * len(units)
    for k, u in enumerate(owner):
        if u is not None:
            slot_of_unit[u] = k
    return slot_of_unit


# ---------------------------------------------------------------- reading the case

def check_request(req: dict) -> None:
    def extra(obj, allowed, where):
        for k, v in obj.items():
            if k in allowed:
                continue
            if k in EMPTY_OK and v == EMPTY_OK[k]:
                continue
            raise Unsupported(f"{where}{k} is not expressible in this driver")

    if req.get("query", "pay") != "pay":
        raise Unsupported(f"query {req.get('query')!r}: only 'pay' is driven")
    if req.get("game", "mtg") != "mtg":
        raise Unsupported("only Magic requests are driven")
    extra(req, REQUEST_FIELDS, "")
    if not isinstance(req.get("spell"), dict):
        raise Unsupported("no spell")
    extra(req["spell"], SPELL_FIELDS, "spell.")
    extra(req.get("player") or {}, PLAYER_FIELDS, "player.")
    for p in req.get("permanents") or []:
        extra(p, PERMANENT_FIELDS, f"permanent {p.get('id')}: ")
        if p.get("face") not in (None, 0):
            raise Unsupported(f"permanent {p.get('id')}: face {p['face']}")


def card_text(p: dict) -> tuple[str, str, str]:
    card = p.get("card") or {}
    if card.get("card_faces") and not p.get("oracle_text"):
        raise Unsupported(f"permanent {p.get('id')}: two-faced card")
    name = p.get("name") or card.get("name") or f"Permanent {p['id']}"
    type_line = p.get("type_line") or card.get("type_line") or ""
    text = p.get("oracle_text") if p.get("oracle_text") is not None else card.get("oracle_text", "")
    if not type_line:
        raise Unsupported(f"permanent {p.get('id')}: no type_line")
    return name, type_line, text or ""


def mtgjson(name, type_line, text, mana_cost=None, power=None):
    sup, _, sub = type_line.partition("—")
    words = sup.split()
    supers = [w for w in words if w in SUPERTYPES]
    types = [w for w in words if w not in SUPERTYPES]
    card = {"name": name, "manaCost": mana_cost or None, "type": type_line, "types": types,
            "subtypes": sub.split(), "supertypes": supers, "text": text, "layout": "normal",
            "colors": [], "colorIdentity": [], "manaValue": 0, "identifiers": {},
            "legalities": {}, "printings": []}
    if "Creature" in types:
        card["power"] = str(power if power is not None else 1)
        card["toughness"] = "1"
    return card


# ---------------------------------------------------------------- one case in phase

def put_spell_on_stack(game, flash_oid, debug) -> None:
    """The opponent casts its {0} flash creature in seat 0's main phase (seat 0 passes
    priority, the opponent casts and passes), so seat 0 has priority with a spell to target."""
    from phase import GameAction

    debug("MoveToZone", object_id=flash_oid, to_zone="Hand")
    game.apply(0, GameAction.from_dict({"type": "PassPriority"}))
    cast = [a for a in game.actions() if a.kind == "CastSpell" and a.data.get("object_id") == flash_oid]
    if game.priority_player() != 1 or not cast:
        raise EngineStop("could not put the opponent's spell on the stack (a target for the spell)")
    game.apply(1, cast[0])
    for _ in range(4):
        if game.waiting_for()["type"] == "Priority" and game.priority_player() == 0:
            break
        acts = game.actions()
        game.apply(game.priority_player(), next(a for a in acts if a.kind == "PassPriority") if any(
            a.kind == "PassPriority" for a in acts) else acts[0])
    if not game.stack() or game.priority_player() != 0:
        raise EngineStop("could not put the opponent's spell on the stack (a target for the spell)")


def solve(req: dict) -> dict:
    from phase import Engine, GameAction, build_oracle_face

    check_request(req)
    spell = req["spell"]
    perms = req.get("permanents") or []
    player = req.get("player") or {}
    x = int(spell.get("x", 0))
    printed = symbols(spell.get("mana_cost"))

    # Cards, each built by phase's Oracle parser from the case's own text.
    faces, names, sig_of = {}, {}, {}
    for p in perms:
        name, type_line, text = card_text(p)
        sig = (type_line, text, p.get("power"), p.get("mana_cost"))
        if name.lower() in (SPELL_NAME.lower(), FILLER_NAME.lower()) or sig_of.get(name, sig) != sig:
            name = f"{name} [{p['id']}]"
        sig_of[name] = sig
        names[p["id"]] = name
        if name.lower() not in faces:
            faces[name.lower()] = build_oracle_face(
                mtgjson(name, type_line, text, p.get("mana_cost"), p.get("power")), None)
    faces[SPELL_NAME.lower()] = build_oracle_face(
        mtgjson(SPELL_NAME, spell.get("type_line") or "Creature — Test", spell.get("oracle_text") or "",
                spell.get("mana_cost")), None)
    faces[FILLER_NAME.lower()] = build_oracle_face(mtgjson(FILLER_NAME, "Creature — Test", "", "{15}"), None)
    faces[FLASH_NAME.lower()] = build_oracle_face(
        {**mtgjson(FLASH_NAME, "Creature — Test", "Flash", "{0}"), "keywords": ["Flash"]}, None)
    text = (spell.get("oracle_text") or "").lower()
    targets = "target" in text
    graveyard = int(player.get("graveyard") or 0)
    engine = Engine.from_json(json.dumps(faces))

    deck = [names[p["id"]] for p in perms] + [SPELL_NAME]
    deck += [FILLER_NAME] * max(graveyard + 8, DECK_SIZE - len(deck))
    opponent = [FLASH_NAME] + [FILLER_NAME] * (DECK_SIZE - 1)
    game = engine.new_game(player=deck, opponent=opponent, first_player=0,
                           format_config=FORMAT_CONFIG, seed=1)
    saved = game.state()
    saved["state"]["debug_mode"] = True
    game = engine.load_game(saved)

    def apply(action: dict):
        return game.apply(0, GameAction.from_dict(action))

    def debug(kind: str, **data):
        try:
            return apply({"type": "Debug", "data": {"type": kind, "data": data}})
        except ValueError as e:
            raise EngineStop(f"setting up ({kind}): {e}") from None

    for _ in range(8):
        wf = game.waiting_for()
        if wf["type"] != "MulliganDecision":
            break
        seat = wf["data"]["pending"][0]["player"]
        game.apply(seat, GameAction.from_dict({"type": "MulliganDecision", "data": {"choice": {"type": "Keep"}}}))
    debug("SetPhase", phase="PreCombatMain", active_player=0)

    state = game.state()["state"]
    me = state["players"][0]
    by_name: dict[str, list[int]] = {}
    for oid in me["library"] + me["hand"]:
        by_name.setdefault(state["objects"][str(oid)]["name"], []).append(oid)
    case_id = {}
    for p in perms:
        oid = by_name[names[p["id"]]].pop()
        case_id[oid] = p["id"]
        debug("MoveToZone", object_id=oid, to_zone="Battlefield")
        if p.get("tapped"):
            debug("SetTapped", object_id=oid, tapped=True)
        debug("SetSummoningSickness", object_id=oid, sick=bool(p.get("summoning_sick")))
        for kind, n in (p.get("counters") or {}).items():
            if n:
                debug("ModifyCounters", object_id=oid, counter_type=kind, delta=int(n))
    spell_oid = by_name[SPELL_NAME].pop()
    for oid in [o for o in me["library"] if state["objects"][str(o)]["name"] == FILLER_NAME][:graveyard]:
        debug("MoveToZone", object_id=oid, to_zone="Graveyard")  # cards for delve
    if targets:  # something legal to target that takes no part in the payment: the opponent's
        # vanilla creature, and (for "target spell") the opponent's {0} flash creature on the stack
        opp = state["players"][1]
        lib = {state["objects"][str(o)]["name"]: o for o in opp["library"] + opp["hand"]}
        debug("MoveToZone", object_id=lib[FILLER_NAME], to_zone="Battlefield")
        debug("SetSummoningSickness", object_id=lib[FILLER_NAME], sick=False)
        if "target spell" in text:
            put_spell_on_stack(game, lib[FLASH_NAME], debug)
    if spell_oid not in me["hand"]:
        debug("MoveToZone", object_id=spell_oid, to_zone="Hand")
    if "life" in player:
        debug("SetLife", player_id=0, life=int(player["life"]))
    pool_letters = [s[1:-1] for s in symbols(player.get("pool"))]
    for c in pool_letters:
        if c not in LETTER_COLOR:
            raise Unsupported(f"player.pool symbol {{{c}}}")
        debug("AddMana", player_id=0, mana=[LETTER_COLOR[c]])

    if _BEFORE_CAST is not None:  # a debugging hook (scratch scripts), unset in runs
        _BEFORE_CAST(locals())
    # Cast with phase's automatic payment.
    listed = [a for a in game.actions() if a.kind == "CastSpell" and a.data.get("object_id") == spell_oid]
    cast = {"type": "CastSpell", "data": {"object_id": spell_oid, "card_id": spell_oid, "targets": [],
                                          "payment_mode": {"type": "Auto"}}}
    events = []

    def refused(e: ValueError, what: str) -> dict:
        """phase's refusal: "can't pay" is a no, anything else stops the case."""
        msg = str(e).removeprefix("Action not allowed: ")
        if msg.startswith("Cannot pay") or "has no mana cost" in msg:
            return {"payable": False, "note": f"phase: {msg}"}
        raise EngineStop(f"{what} refused{'' if listed or what != 'CastSpell' else ' (not listed)'}: {msg}") from None

    try:
        events += apply(cast).events
    except ValueError as e:
        return refused(e, "CastSpell")

    phyrexian_life: list[str] = []  # printed symbols phase was told to pay with life
    cost_sacrificed: list[int] = []  # what the driver chose for "sacrifice a ..." (PayCost)
    for _ in range(24):
        if any(ev["type"] == "SpellCast" and ev["data"].get("object_id") == spell_oid for ev in events):
            break
        wf = game.waiting_for()
        kind = wf["type"]
        actions = game.actions()
        try:
            if kind == "ChooseXValue":
                pick = [a for a in actions if a.kind == "ChooseX" and a.data.get("value") == x]
                if not pick:
                    return {"payable": False, "note": f"phase does not offer X={x}"}
                events += game.apply(0, pick[0]).events
            elif kind == "TargetSelection":
                # the first legal target phase offers (listed, or in the prompt when phase
                # lists no action because it is about to find the cost unpayable)
                pick = next((a for a in actions if a.kind == "ChooseTarget"), None)
                if pick is None:
                    legal = ((wf["data"].get("selection") or {}).get("current_legal_targets")) or []
                    if not legal:
                        raise EngineStop("TargetSelection prompt without legal targets")
                    pick = GameAction.from_dict({"type": "ChooseTarget", "data": {"target": legal[0]}})
                events += game.apply(0, pick).events
            elif kind == "PayCost" and (wf["data"].get("kind") or {}).get("type") == "Sacrifice":
                # an additional cost ("sacrifice a creature"): the first option phase offers
                pick = next((a for a in actions if a.kind == "SelectCards"), None)
                if pick is not None and len(pick.data.get("cards") or []) != wf["data"].get("count", 1):
                    pick = None
                if pick is None:
                    choices = wf["data"].get("choices") or []
                    n = wf["data"].get("count", 1)
                    if len(choices) < n:
                        return {"payable": False, "note": "phase: nothing to sacrifice for the additional cost"}
                    pick = GameAction.from_dict({"type": "SelectCards", "data": {"cards": choices[:n]}})
                cost_sacrificed += list(pick.data["cards"])
                events += game.apply(0, pick).events
            elif kind == "PhyrexianPayment":
                options = [a for a in actions if a.kind == "SubmitPhyrexianChoices"]
                if not options:
                    raise EngineStop("PhyrexianPayment prompt without choices")
                best = max(options, key=lambda a: sum(c["type"] == "PayMana" for c in a.data["choices"]))
                pool_p = [s for s in printed if s.endswith("/P}")]
                for shard, choice in zip(wf["data"]["shards"], best.data["choices"]):
                    if choice["type"] == "PayLife":
                        letter = COLOR_LETTER.get(shard.get("color"), "")
                        sym = next((s for s in pool_p if letter in s[1:-1].split("/")), pool_p[0] if pool_p else None)
                        if sym is not None:
                            pool_p.remove(sym)
                        phyrexian_life.append(sym)
                events += game.apply(0, best).events
            elif kind == "ManaPayment":
                # PassPriority here is phase's own "pay the rest automatically"; a prompt
                # without it offers only manual payment (activating sources, convoke /
                # improvise / delve taps by hand): phase's auto-payment gave up.
                go_on = next((a for a in actions if a.kind == "PassPriority"), None)
                if go_on is None:
                    return {"payable": False, "note": "phase's auto-payment gave up (ManaPayment prompt "
                            f"offering only manual payment: {sorted({a.kind for a in actions})})"}
                before = len(events)
                events += game.apply(0, go_on).events
                if len(events) == before and game.waiting_for()["type"] == "ManaPayment":
                    return {"payable": False, "note": "phase's auto-payment gave up (PassPriority paid nothing)"}
            else:
                raise EngineStop(f"phase's auto-payment stopped at a {kind} prompt "
                                 f"(actions: {[a.kind for a in actions]})")
        except ValueError as e:
            return refused(e, f"{kind} answer")
    else:
        raise EngineStop("the cast did not finish")

    return plan_from_events(events, game, spell_oid, case_id, names, faces, printed, x,
                            phyrexian_life, pool_letters, cost_sacrificed)


def plan_from_events(events, game, spell_oid, case_id, names, faces, printed, x, phyrexian_life,
                     pool_letters, cost_sacrificed=(), seat: int = 0):
    """The plan phase carried out for the cast of ``spell_oid`` by ``seat``, rebuilt from
    its ``events``: steps and the spell's payment, as the ``check`` query reads them.
    ``pool_letters``: the mana floating before the first event, each a letter, or
    (letter, the object that made it) where phase says (mana made before the cast, in a
    game): a unit of the pool keeps its maker, so that phase's record of the sources
    spent and what is left floating find it, but it is paid "from" the pool."""
    pid = lambda oid: case_id.get(oid, "pool" if oid == 0 else f"object {oid}")
    units = [{"mana": c, "from": "pool", "step": -1, "oid": 0} if isinstance(c, str)
             else {"mana": c[0], "from": "pool", "step": -1, "oid": c[1] or 0} for c in pool_letters]
    steps, tapped, sacrificed = [], [], []
    life_paid, pending_life = 0, 0
    open_step = None
    delved = 0  # cards phase exiled from the graveyard while casting
    trigger_open = False  # a triggered mana ability's mana being added (until EffectResolved)
    snapshot_sources, spent_colors, spent_amount = None, None, None
    for i, ev in enumerate(events):
        t, d = ev["type"], ev.get("data") or {}
        if t == "PermanentTapped":
            tapped.append(pid(d["object_id"]))
        elif t == "PermanentSacrificed":
            sacrificed.append(pid(d["object_id"]))
        elif t == "LifeChanged" and d.get("player_id") == seat and d["amount"] < 0:
            nxt = events[i + 1] if i + 1 < len(events) else {}
            life_paid -= d["amount"]  # manaplan's life_paid counts a pain land's damage too
            if nxt.get("type") == "DamageDealt":  # damage from a source (pain land, Talisman)
                src = (nxt.get("data") or {}).get("source_id")
                st = next((st for st in reversed(steps) if st["oid"] == src), None)
                if st is not None:
                    st["damage"] = st.get("damage", 0) - d["amount"]
            else:
                pending_life -= d["amount"]
        elif t == "AbilityActivated" and d.get("kind") == "Mana":
            open_step = {"oid": d["source_id"], "adds": [], "life": pending_life}
            pending_life = 0
            steps.append(open_step)
        elif t == "ManaAdded" and d.get("player_id") == seat:
            letter = COLOR_LETTER.get(d["mana_type"], d["mana_type"])
            if open_step is None and steps and d["source_id"] != steps[-1]["oid"]:
                # mana added after an activation finished, by another permanent: a triggered
                # mana ability the activation set off (Heartbeat of Spring, Zendikar Resurgent)
                trig = steps[-1].setdefault("triggered", [])
                if trigger_open and trig and trig[-1][0] == d["source_id"]:
                    trig[-1][1].append(letter)  # one resolution adding several mana ({U}{B})
                else:
                    trig.append((d["source_id"], [letter]))
                trigger_open = True
                units.append({"mana": letter, "from": pid(d["source_id"]), "step": len(steps) - 1,
                              "oid": d["source_id"]})
                continue
            if open_step is None:
                open_step = {"oid": d["source_id"], "adds": [], "life": 0}
                steps.append(open_step)
            open_step["adds"].append(letter)
            units.append({"mana": letter, "from": pid(d["source_id"]), "step": len(steps) - 1,
                          "oid": d["source_id"]})
        elif t == "ManaAbilityProduced":
            open_step = None
        elif t == "EffectResolved":
            trigger_open = False
        elif t == "ZoneChanged" and d.get("from") == "Graveyard" and d.get("to") == "Exile":
            delved += 1
            steps.append({"oid": None, "delve": True, "adds": ["C"], "life": 0})
            units.append({"mana": "C", "from": "graveyard", "step": len(steps) - 1, "oid": "graveyard"})
        elif t == "ZoneChanged" and d.get("object_id") == spell_oid and d.get("to") == "Stack":
            ctx = (d.get("record") or {}).get("trigger_source_context") or {}
            if ctx.get("mana_spent_source_snapshots") is not None:
                snapshot_sources = [s["source_id"] for s in ctx["mana_spent_source_snapshots"]]
                spent_colors = dict(ctx.get("colors_spent_to_cast") or {})
                spent_amount = ctx.get("mana_spent_to_cast_amount")

    # Creatures / artifacts phase tapped for convoke / improvise (phase's record on the spell).
    spell_obj = game.object(spell_oid) or {}
    keywords = {str(k).lower() for k in (spell_obj.get("keywords") or [])}
    for c in spell_obj.get("convoked_creatures") or []:
        oid = c.get("object_id", c.get("id")) if isinstance(c, dict) else c
        color = c.get("mana_type", c.get("color", "Colorless")) if isinstance(c, dict) else "Colorless"
        letter = COLOR_LETTER.get(color, "C")
        steps.append({"oid": oid, "keyword": "improvise" if "improvise" in keywords else "convoke",
                      "adds": [letter], "life": 0})
        units.append({"mana": letter, "from": pid(oid), "step": len(steps) - 1, "oid": ("convoke", oid)})
    if snapshot_sources is not None:  # convoked / delved mana is spent on the spell, not a source's
        snapshot_sources += [u["oid"] for u in units if u["oid"] == "graveyard" or isinstance(u["oid"], tuple)]

    # Which units went to the spell, which were left floating, which paid abilities' costs.
    floating_pool = (game.player(seat).get("mana_pool") or {}).get("mana") or []
    left = set()
    for m in floating_pool:
        letter = COLOR_LETTER.get(m["color"], m["color"])
        cand = [k for k, u in enumerate(units) if k not in left and u["mana"] == letter
                and u["oid"] == (m.get("source_id") or 0)]
        if cand:
            left.add(cand[-1])
    # The mana symbols of each step's own ability cost (a filter's {R/G}, a Signet's {1}),
    # as slots (step, symbol, allowed letters or None).
    step_costs = {}
    for n, st in enumerate(steps):
        if st.get("delve") or st.get("keyword"):
            continue
        cost = ability_cost(faces, names, case_id.get(st["oid"]), st["adds"])
        if cost:
            step_costs[n] = cost
    ability_slots = [(n, sym, allowed) for n, cost in step_costs.items()
                     for sym in cost for allowed in cost_slots(sym, 0)[0]]
    free_units = [k for k in range(len(units)) if k not in left]

    def assign_abilities(avail):
        """A matching over time of the units `avail` to the ability slots: a unit pays a
        step's cost only if an earlier step (or its trigger) made it; legal colors first."""
        return _min_cost_matching(avail, ability_slots, lambda k, s: (
            None if units[k]["step"] >= ability_slots[s][0]
            else 0 if ability_slots[s][2] is None or units[k]["mana"] in ability_slots[s][2] else 1))

    to_spell = set()
    if snapshot_sources is not None:
        # Which of each source's units went to the spell: phase gives the sources (and how
        # many from each) and the colors spent; the driver picks, among the ways to take
        # that many units of each source, one agreeing with the colors phase reports, that
        # leaves the abilities' costs payable in time, and that pays the spell legally.
        need = {k.lower(): v for k, v in (spent_colors or {}).items() if v}
        sources = list(snapshot_sources) + [0] * max(0, (spent_amount or 0) - len(snapshot_sources))
        count = {}
        for src in sources:
            count[src] = count.get(src, 0) + 1
        per_source = []  # for each source: the ways to take its units (lists of unit indices)
        for src, n_src in count.items():
            groups = {}
            for k in free_units:
                if units[k]["oid"] == src:
                    groups.setdefault(units[k]["mana"], []).append(k)
            for g in groups.values():  # the latest made first: the early ones may pay abilities
                g.sort(key=lambda k: -units[k]["step"])
            letters = sorted(groups)
            ways = []

            def split(i, left_n, taken):
                if len(ways) > 200:
                    return
                if i == len(letters):
                    if left_n == 0:
                        ways.append(taken)
                    return
                g = groups[letters[i]]
                for m in range(min(left_n, len(g)), -1, -1):
                    split(i + 1, left_n - m, taken + g[:m])

            split(0, min(n_src, sum(len(g) for g in groups.values())), [])
            per_source.append(ways or [[]])
        best = None
        combos = 1
        for w in per_source:
            combos *= len(w)
        if combos > 3000:  # too many: the first way of each source
            per_source = [w[:1] for w in per_source]
        for pick in _product(per_source):
            chosen = [k for way in pick for k in way]
            got = {}
            for k in chosen:
                name = LETTER_COLOR.get(units[k]["mana"], "").lower()
                if name != "colorless":
                    got[name] = got.get(name, 0) + 1
            rest = [k for k in free_units if k not in set(chosen)]
            matched = assign_abilities(rest)
            in_time = sum(c is not None for c in matched.values())
            legal_ab = sum(c == 0 for c in matched.values())
            score = (got == need, in_time, legal_ab, _spell_legal(printed_for_match(printed, phyrexian_life),
                                                                  [units[k] for k in chosen], x))
            if best is None or score > best[0]:
                best = (score, set(chosen))
        to_spell = best[1] if best else set()
    ability_units = [k for k in free_units if k not in to_spell]
    matched = assign_abilities(ability_units)
    slot_unit = {s: k for k, (s, c) in matched.items()}  # slot -> unit
    spare = [k for k in ability_units if k not in matched]
    if snapshot_sources is not None:
        # a slot no unit could pay in time still gets a unit phase spent on no spell (so a
        # wrong payment by phase shows as an illegal line rather than being dropped)
        for s in range(len(ability_slots)):
            if s not in slot_unit and spare:
                slot_unit[s] = spare.pop(0)

    out_steps = []
    for n, st in enumerate(steps):
        if st.get("delve"):
            out_steps.append({"permanent": "graveyard", "ability": "delve", "adds": "{C}"})
            continue
        if st.get("keyword"):
            out_steps.append({"permanent": pid(st["oid"]), "ability": st["keyword"], "adds": mana_string(st["adds"])})
            continue
        step = {"permanent": pid(st["oid"]), "adds": mana_string(st["adds"])}
        idx = multiplied_ability_index(faces, names, case_id.get(st["oid"]), st["adds"])
        if idx is not None:
            step = {"permanent": step["permanent"], "ability": idx, "adds": step["adds"]}
        if st.get("triggered"):
            step["triggered"] = [{"permanent": pid(src), "trigger": mana_trigger(faces, names, case_id.get(src)),
                                  "adds": mana_string(c)} for src, c in st["triggered"]]
        lines = [{"symbol": ability_slots[s][1], "mana": units[slot_unit[s]]["mana"],
                  "from": units[slot_unit[s]]["from"]}
                 for s in range(len(ability_slots)) if ability_slots[s][0] == n and s in slot_unit]
        if lines:
            step["payment"] = lines
        out_steps.append(step)
    if snapshot_sources is None:  # no snapshot: what no ability took paid the spell
        to_spell |= set(k for k in ability_units if k not in set(slot_unit.values()))

    mana_syms = printed_for_match(printed, phyrexian_life)
    payment = match_units(mana_syms, [units[k] for k in sorted(to_spell)], x)
    payment += [{"symbol": sym, "life": 2} for sym in phyrexian_life]
    floating = mana_string([COLOR_LETTER.get(m["color"], m["color"]) for m in floating_pool])
    # Only what phase did is written: the steps and the payment. The summary (tapped,
    # sacrificed, life paid, what floats) is left to the referee, which reads it off the
    # steps: the driver's own tally of it would be a reconstruction (a pain land's or City of
    # Brass's damage is a trigger phase puts on the stack, not part of the cast's events).
    del tapped, sacrificed, life_paid, floating
    plan = {"steps": out_steps, "payment": payment}
    if cost_sacrificed:
        plan["sacrificed_for_cost"] = [pid(o) for o in cost_sacrificed]
    return {"payable": True, "plan": plan}


def mana_trigger(faces, names, perm_id) -> int:
    """The index of the permanent's first triggered mana ability (as phase parsed it)."""
    if perm_id is None:
        return 0
    face = faces.get(names[perm_id].lower()) or {}
    for i, trig in enumerate(face.get("triggers") or []):
        if ((trig.get("execute") or {}).get("effect") or {}).get("type") == "Mana":
            return i
    return 0


def ability_cost(faces, names, perm_id, adds):
    """The mana symbols of the cost of the mana ability (as phase parsed the card) that made
    `adds`: reconstructed, since phase's events do not name the ability. Mana multiplied by a
    replacement (Mana Reflection, Nyxbloom Ancient) counts as that ability's; a step that added
    nothing (Cabal Coffers with no Swamp) is the ability that can add a varying amount (or the
    permanent's only mana ability)."""
    if perm_id is None:
        return []
    face = faces.get(names[perm_id].lower()) or {}
    abilities = [a for a in face.get("abilities") or [] if a.get("is_mana_ability")]
    scored = sorted(abilities, key=lambda a: -_produces(a, adds))
    if not scored or _produces(scored[0], adds) == 0:
        return []
    return _mana_cost_symbols(scored[0].get("cost"))


BASIC_COLOR = {"Plains": "White", "Island": "Blue", "Swamp": "Black", "Mountain": "Red", "Forest": "Green"}


def multiplied_ability_index(faces, names, perm_id, adds):
    """For a step whose mana a replacement multiplied (Mana Reflection: {U}{U} from a {G} or {U}
    land), the index of the ability that made it, written in the step: the referee's default
    (the first ability that can add that mana) does not count the replacement. The index is
    the ability's place among the card's mana abilities as phase parsed them, or for a land whose mana comes
    from its basic land types, the type's place in the type line."""
    if perm_id is None or not adds:
        return None
    face = faces.get(names[perm_id].lower()) or {}
    abilities = face.get("abilities") or []
    mana = [a for a in abilities if a.get("is_mana_ability")]
    if len(mana) < 2:  # one mana ability: the referee's default is it
        return None
    best = max(mana, key=lambda a: _produces(a, adds))
    if _produces(best, adds) != 3 or sum(_produces(a, adds) >= 3 for a in mana) != 1:
        return None
    subtypes = [t for t in (face.get("card_type") or {}).get("subtypes") or [] if t in BASIC_COLOR]
    prod = (best.get("effect") or {}).get("produced") or {}
    if subtypes and len(mana) == len(subtypes) and prod.get("type") == "Fixed" and len(prod.get("colors") or []) == 1:
        order = [BASIC_COLOR[t] for t in subtypes]
        if prod["colors"][0] in order:
            return order.index(prod["colors"][0])
    return mana.index(best)  # among the mana abilities (phase lists keywords, Flying, too)


def _multiple(names, unit) -> bool:
    """`names` is k copies (k >= 1) of the multiset `unit`."""
    if not unit or not names or len(names) % len(unit):
        return False
    k = len(names) // len(unit)
    return sorted(names) == sorted(list(unit) * k)


def _produces(ability, adds) -> int:
    """4: this ability makes exactly `adds`; 3: a multiple of what it makes (a replacement
    doubled it); 2 / 1: it may (it adds a varying amount, or a kind the driver does not read);
    0: no."""
    prod = (ability.get("effect") or {}).get("produced") or {}
    names = [LETTER_COLOR.get(c, c) for c in adds]
    kind = prod.get("type")
    count = ((prod.get("count") or {}).get("value"))
    fixed = (prod.get("count") or {}).get("type") in (None, "Fixed")
    if not names:  # it added nothing: only an ability adding a varying amount can
        return 2 if not fixed else 1
    if kind == "Fixed":
        colors = prod.get("colors") or []
        return 4 if sorted(colors) == sorted(names) else 3 if _multiple(names, colors) else 0
    if kind == "Colorless":
        if not set(names) <= {"Colorless"}:
            return 0
        return 4 if count in (None, len(names)) else 3 if count and len(names) % count == 0 else 2 if not fixed else 0
    if kind == "AnyOneColor":
        opts = prod.get("color_options")
        if len(set(names)) != 1 or (opts and names[0] not in opts):
            return 0
        return 4 if count in (None, len(names)) else 3 if count and len(names) % count == 0 else 2 if not fixed else 0
    if kind == "ChoiceAmongCombinations":
        options = prod.get("options") or []
        if sorted(names) in [sorted(o) for o in options]:
            return 4
        return 3 if any(_multiple(names, o) for o in options) else 0
    return 1


def _mana_cost_symbols(cost) -> list[str]:
    if not cost:
        return []
    if cost.get("type") == "Composite":
        return [s for c in cost.get("costs") or [] for s in _mana_cost_symbols(c)]
    if cost.get("type") == "Mana":
        inner = cost.get("cost") or {}
        out = [f"{{{inner['generic']}}}"] if inner.get("generic") else []
        return out + [shard_symbol(s) for s in inner.get("shards") or []]
    return []


# ---------------------------------------------------------------- worker and driver

def answer(case: dict) -> dict:
    try:
        result = solve(case["request"])
    except Unsupported as e:
        return {"case": case.get("case"), "error": f"not expressible: {e}"}
    except EngineStop as e:
        return {"case": case.get("case"), "error": f"phase: {e}"}
    except BaseException as e:  # a Rust panic arrives as PanicException (a BaseException)
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise
        return {"case": case.get("case"), "error": f"phase raised {type(e).__name__}: {e}"}
    return {"case": case.get("case"), **result}


def worker(conn) -> None:
    import phase  # noqa: F401  (loaded before the first case's clock starts)

    conn.send("ready")
    while True:
        try:
            case = conn.recv()
        except EOFError:
            return
        if case is None:
            return
        conn.send(answer(case))


class Worker:
    def __init__(self, ctx):
        self.ctx = ctx
        self.start()

    def start(self):
        self.conn, child = self.ctx.Pipe()
        self.proc = self.ctx.Process(target=worker, args=(child,), daemon=True)
        self.proc.start()
        child.close()
        if not (self.conn.poll(120) and self.conn.recv() == "ready"):
            raise RuntimeError("phase's worker process did not start")

    def stop(self):
        self.proc.kill()
        self.proc.join()
        self.conn.close()

    def ask(self, case: dict, timeout: float) -> dict:
        self.conn.send(case)
        if self.conn.poll(timeout):
            try:
                return self.conn.recv()
            except EOFError:
                pass
            msg = f"phase's process died (exit code {self.proc.exitcode})"
        else:
            msg = f"timed out after {timeout:g} s"
        self.stop()
        self.start()
        return {"case": case.get("case"), "error": msg}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("suite", help="suite cases, one JSON object per line")
    ap.add_argument("answers", help="answers written here, one JSON object per line")
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds per case (default 20)")
    args = ap.parse_args(argv)

    t0 = time.monotonic()
    n = answered = errors = 0
    w = Worker(mp.get_context("spawn"))
    try:
        with open(args.suite, encoding="utf-8") as src, open(args.answers, "w", encoding="utf-8") as out:
            for lineno, line in enumerate(src, 1):
                if not line.strip():
                    continue
                n += 1
                try:
                    case = json.loads(line)
                    if not isinstance(case, dict) or not isinstance(case.get("request"), dict):
                        raise ValueError("not a case object with a request")
                except ValueError as e:
                    ans = {"case": None, "error": f"line {lineno}: {e}"}
                else:
                    ans = w.ask(case, args.timeout)
                if "error" in ans:
                    errors += 1
                else:
                    answered += 1
                out.write(json.dumps(ans, ensure_ascii=False) + "\n")
                out.flush()
    finally:
        try:
            w.conn.send(None)
            w.proc.join(2)
        except OSError:
            pass
        if w.proc.is_alive():
            w.stop()
    print(f"phase_engine: {n} cases, {answered} answered, {errors} errors, "
          f"{time.monotonic() - t0:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
