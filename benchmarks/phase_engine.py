"""phase.rs as an engine under test: answer manaplan's conformance suite with phase's auto-payment.

    /work/venv-phase/bin/python benchmarks/phase_engine.py SUITE.jsonl ANSWERS.jsonl [--timeout S]

Runs in a virtual environment of its own holding `phase-python` (the PyO3 bindings of the
phase.rs rules engine, import name `phase`); it imports only the standard library and
`phase`, never manaplan. Each suite line is a case
`{"case": ID, "request": {"query": "pay", "spell": {...}, "player": {...}, "permanents": [...]}}`;
each answer line is `{"case": ID, "payable": true, "plan": {...}}`, `{"case": ID, "payable":
false}` or `{"case": ID, "error": "..."}`. A one-line summary goes to standard error.

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
  ModifyCounters, SetLife, AddMana (the player's floating `pool`).
- Paying. The spell is cast with `CastSpell` and `payment_mode` "Auto" (phase's automatic
  payment, allowed to sacrifice; phase's own listed action may say "AutoExceptSacrificialMana",
  which stops to ask before sacrificing). If phase does not list a CastSpell action for the
  spell, the driver applies one anyway to read phase's reason: "Cannot pay mana cost" and
  "it has no mana cost (CR 118.6)" are answered `"payable": false`; any other refusal is an
  error.
- Prompts phase leaves to the caster during the cast are answered by the DRIVER, not phase:
  ChooseXValue gets the case's `spell.x` (default 0; an X that phase does not offer is
  answered `"payable": false`); PhyrexianPayment gets, of the combinations phase lists, the
  one paying the most Phyrexian symbols with mana (the first listed on a tie);
  TargetSelection (a spell whose `oracle_text` targets) gets the first target listed. Any other
  prompt (a ManaPayment prompt means phase's auto-payment gave up and wants manual payment)
  is answered as an error naming the prompt.

What in an answer is phase's and what is reconstructed
-------------------------------------------------------
phase's (read from the events `Game.apply` returns, in their order):
- `payable`; the steps and their order (one per `AbilityActivated` of kind Mana); each
  step's permanent and `adds` (the mana of its `ManaAdded` / `ManaAbilityProduced` events);
  `tapped` (`PermanentTapped`), `sacrificed` (`PermanentSacrificed`), `life_paid` (the
  `LifeChanged` losses that are costs: those not followed by a `DamageDealt`, i.e. "Pay N
  life" of an ability and Phyrexian life); `floating` (the mana pool after the cast);
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
- a step's `payment` (the mana spent on the ability's own cost, a filter land's {R/G} or a
  Signet's {1}): the mana phase made and spent neither on the spell nor left floating is
  assigned, in order, to the mana symbols of the cost of the ability that produced what
  the step added (the ability is picked from the card's abilities as phase parsed them, by
  what it produced), taking mana made before that step, a legal payer first.
- `tapped`, `sacrificed`, `life_paid` and `floating` are extra plan fields (manaplan's plan
  names for the same things) beyond the suite's minimum.

Not expressible (answered as an error): queries other than "pay", a `hand`, `keep_*`,
`prefer`, `opponents`, kept boards, explicit `abilities` / `triggers`, chosen colors or
types, exiled colors, attachments, two-faced cards, a `card` object without `type_line` /
`oracle_text` to take, the spell's additional costs, kicker, increases, reductions,
minimum, convoke / improvise / delve flags, alternative costs, commander flags, and the
player's graveyard, energy, spell count or commander identity. `time_limit_ms` and
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
PLAYER_FIELDS = {"life", "pool"}
PERMANENT_FIELDS = {"id", "name", "type_line", "oracle_text", "tapped", "summoning_sick", "power",
                    "counters", "mana_cost", "colors", "snow", "timestamp", "card", "face"}
EMPTY_OK = {"graveyard": 0, "energy": 0, "additional": [], "increase": [], "reduce": [],
            "minimum": 0, "convoke": False, "improvise": False, "delve": False, "commander": False,
            "kicked": False, "kicks": 0, "fuse": False, "abilities": None, "triggers": None}


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

def match_units(syms: list[str], units: list[dict], x: int) -> list[dict]:
    """Lines `{"symbol", "mana", "from"}` pairing mana units with the symbols they paid:
    a maximum matching over legal pairs; units left over go to the slots left over."""
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
    _, slots, slot_of_unit = best
    free = [k for k in range(len(slots)) if k not in set(slot_of_unit)]
    lines = []
    for u, k in enumerate(slot_of_unit):
        if k is None:
            k = free.pop(0) if free else None
        lines.append((slots[k][0] if k is not None else len(syms), u,
                      syms[slots[k][0]] if k is not None else None))
    lines.sort()
    return [{"symbol": sym, "mana": units[u]["mana"], "from": units[u]["from"]} for _, u, sym in lines]


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
    engine = Engine.from_json(json.dumps(faces))

    deck = [names[p["id"]] for p in perms] + [SPELL_NAME]
    deck += [FILLER_NAME] * max(0, DECK_SIZE - len(deck))
    game = engine.new_game(player=deck, opponent=[FILLER_NAME] * DECK_SIZE, first_player=0,
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
    if spell_oid not in me["hand"]:
        debug("MoveToZone", object_id=spell_oid, to_zone="Hand")
    if "life" in player:
        debug("SetLife", player_id=0, life=int(player["life"]))
    pool_letters = [s[1:-1] for s in symbols(player.get("pool"))]
    for c in pool_letters:
        if c not in LETTER_COLOR:
            raise Unsupported(f"player.pool symbol {{{c}}}")
        debug("AddMana", player_id=0, mana=[LETTER_COLOR[c]])

    # Cast with phase's automatic payment.
    listed = [a for a in game.actions() if a.kind == "CastSpell" and a.data.get("object_id") == spell_oid]
    cast = {"type": "CastSpell", "data": {"object_id": spell_oid, "card_id": spell_oid, "targets": [],
                                          "payment_mode": {"type": "Auto"}}}
    events = []
    try:
        events += apply(cast).events
    except ValueError as e:
        if "Cannot pay mana cost" in str(e) or "has no mana cost" in str(e):
            return {"payable": False}
        raise EngineStop(f"CastSpell refused{'' if listed else ' (not listed)'}: {e}") from None

    phyrexian_life: list[str] = []  # printed symbols phase was told to pay with life
    for _ in range(16):
        if any(ev["type"] == "SpellCast" and ev["data"].get("object_id") == spell_oid for ev in events):
            break
        wf = game.waiting_for()
        kind = wf["type"]
        actions = game.actions()
        if kind == "ChooseXValue":
            pick = [a for a in actions if a.kind == "ChooseX" and a.data.get("value") == x]
            if not pick:
                return {"payable": False}
            events += game.apply(0, pick[0]).events
        elif kind == "TargetSelection" and any(a.kind == "ChooseTarget" for a in actions):
            events += game.apply(0, next(a for a in actions if a.kind == "ChooseTarget")).events
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
        else:
            raise EngineStop(f"phase's auto-payment stopped at a {kind} prompt "
                             f"(actions: {[a.kind for a in actions]})")
    else:
        raise EngineStop("the cast did not finish")

    return plan_from_events(events, game, spell_oid, case_id, names, faces, printed, x,
                            phyrexian_life, pool_letters)


def plan_from_events(events, game, spell_oid, case_id, names, faces, printed, x, phyrexian_life,
                     pool_letters):
    pid = lambda oid: case_id.get(oid, "pool" if oid == 0 else f"object {oid}")
    units = [{"mana": c, "from": "pool", "step": -1, "oid": 0} for c in pool_letters]
    steps, tapped, sacrificed = [], [], []
    life_paid, pending_life = 0, 0
    open_step = None
    snapshot_sources, spent_colors, spent_amount = None, None, None
    for i, ev in enumerate(events):
        t, d = ev["type"], ev.get("data") or {}
        if t == "PermanentTapped":
            tapped.append(pid(d["object_id"]))
        elif t == "PermanentSacrificed":
            sacrificed.append(pid(d["object_id"]))
        elif t == "LifeChanged" and d.get("player_id") == 0 and d["amount"] < 0:
            nxt = events[i + 1]["type"] if i + 1 < len(events) else None
            if nxt != "DamageDealt":
                life_paid -= d["amount"]
                pending_life -= d["amount"]
        elif t == "AbilityActivated" and d.get("kind") == "Mana":
            open_step = {"oid": d["source_id"], "adds": [], "life": pending_life}
            pending_life = 0
            steps.append(open_step)
        elif t == "ManaAdded" and d.get("player_id") == 0:
            if open_step is None:
                open_step = {"oid": d["source_id"], "adds": [], "life": 0}
                steps.append(open_step)
            letter = COLOR_LETTER.get(d["mana_type"], d["mana_type"])
            open_step["adds"].append(letter)
            units.append({"mana": letter, "from": pid(d["source_id"]), "step": len(steps) - 1,
                          "oid": d["source_id"]})
        elif t == "ManaAbilityProduced":
            open_step = None
        elif t == "ZoneChanged" and d.get("object_id") == spell_oid and d.get("to") == "Stack":
            ctx = (d.get("record") or {}).get("trigger_source_context") or {}
            if ctx.get("mana_spent_source_snapshots") is not None:
                snapshot_sources = [s["source_id"] for s in ctx["mana_spent_source_snapshots"]]
                spent_colors = dict(ctx.get("colors_spent_to_cast") or {})
                spent_amount = ctx.get("mana_spent_to_cast_amount")

    # Which units went to the spell, which were left floating, which paid abilities' costs.
    floating_pool = (game.player(0).get("mana_pool") or {}).get("mana") or []
    left = set()
    for m in floating_pool:
        letter = COLOR_LETTER.get(m["color"], m["color"])
        cand = [k for k, u in enumerate(units) if k not in left and u["mana"] == letter
                and u["oid"] == m.get("source_id", 0)]
        if cand:
            left.add(cand[-1])
    to_spell = set()
    if snapshot_sources is not None:
        need = {k.lower(): v for k, v in (spent_colors or {}).items()}
        sources = list(snapshot_sources) + [0] * max(0, (spent_amount or 0) - len(snapshot_sources))
        for src in sources:
            cand = [k for k, u in enumerate(units) if k not in left and k not in to_spell and u["oid"] == src]
            cand.sort(key=lambda k: -need.get(LETTER_COLOR.get(units[k]["mana"], "").lower(), 0))
            if cand:
                k = cand[0]
                to_spell.add(k)
                name = LETTER_COLOR.get(units[k]["mana"], "").lower()
                if need.get(name):
                    need[name] -= 1
    ability_units = [k for k in range(len(units)) if k not in left and k not in to_spell]

    out_steps = []
    for n, st in enumerate(steps):
        step = {"permanent": pid(st["oid"]), "adds": mana_string(st["adds"])}
        cost = ability_cost(faces, names, case_id.get(st["oid"]), st["adds"])
        if cost:
            lines = []
            for sym in cost:
                for allowed in cost_slots(sym, 0)[0]:
                    earlier = [k for k in ability_units if units[k]["step"] < n]
                    legal = [k for k in earlier if allowed is None or units[k]["mana"] in allowed]
                    pick = (legal or earlier or ability_units or [None])[0]
                    if pick is None:
                        break
                    ability_units.remove(pick)
                    lines.append({"symbol": sym, "mana": units[pick]["mana"], "from": units[pick]["from"]})
            if lines:
                step["payment"] = lines
        out_steps.append(step)
    if snapshot_sources is None:  # no snapshot: what no ability took paid the spell
        to_spell |= set(ability_units)

    mana_syms = list(printed)
    for sym in phyrexian_life:
        if sym in mana_syms:
            mana_syms.remove(sym)
    payment = match_units(mana_syms, [units[k] for k in sorted(to_spell)], x)
    payment += [{"symbol": sym, "life": 2} for sym in phyrexian_life]
    floating = mana_string([COLOR_LETTER.get(m["color"], m["color"]) for m in floating_pool])
    return {"payable": True, "plan": {"steps": out_steps, "payment": payment, "tapped": tapped,
                                      "sacrificed": sacrificed, "life_paid": life_paid,
                                      "floating": floating}}


def ability_cost(faces, names, perm_id, adds):
    """The mana symbols of the cost of the mana ability (as phase parsed the card) that made
    `adds`: reconstructed, since phase's events do not name the ability."""
    if perm_id is None:
        return []
    face = faces.get(names[perm_id].lower()) or {}
    abilities = [a for a in face.get("abilities") or [] if a.get("is_mana_ability")]
    scored = sorted(abilities, key=lambda a: -_produces(a, adds))
    if not scored or _produces(scored[0], adds) == 0:
        return []
    return _mana_cost_symbols(scored[0].get("cost"))


def _produces(ability, adds) -> int:
    """2: this ability makes exactly `adds`; 1: it may (a kind the driver does not read); 0: no."""
    prod = (ability.get("effect") or {}).get("produced") or {}
    names = [LETTER_COLOR.get(c, c) for c in adds]
    kind = prod.get("type")
    count = ((prod.get("count") or {}).get("value"))
    if kind == "Fixed":
        return 2 if sorted(prod.get("colors") or []) == sorted(names) else 0
    if kind == "Colorless":
        return 2 if set(names) <= {"Colorless"} and count in (None, len(names)) else 0
    if kind == "AnyOneColor":
        return 2 if len(set(names)) == 1 and count in (None, len(names)) else 0
    if kind == "ChoiceAmongCombinations":
        return 2 if sorted(names) in [sorted(o) for o in prod.get("options") or []] else 0
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
