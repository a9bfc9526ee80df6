"""Reading a Magic payment request (the JSON protocol's shape) into value objects.

Every check names what is wrong and where (``at``, a JSON path), so that an engine
author sees ``permanents[3].abilities[0].cost`` rather than a traceback. Validation is
written out here instead of through pydantic or jsonschema: the protocol's mana strings
and ability costs need their own grammar anyway, and this keeps ``manaplan solve``'s
start-up to the standard library plus this package (see README, "Why no schema library").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .cost import SpellCost
from .errors import ManaplanError, RequestError
from .mana import ManaCost, parse_mana
from .oracle import abilities_from_text, chosen_color_code, triggers_from_text
from .restrictions import restriction_allows
from .sources import Board, Permanent, Player, explicit_ability
from .symbols import COLORS, MAX_AMOUNT
from .triggers import ManaTrigger, check_board

QUERIES = ("pay", "max_x", "can_pay")


@dataclass(frozen=True)
class Spell:
    """The spell being cast: its cost, and what restrictions on mana look at."""

    cost: SpellCost
    name: str = ""
    type_line: str = ""
    convoke: bool = False
    improvise: bool = False
    delve: bool = False

    @property
    def colors(self) -> frozenset:
        return self.cost.mana_cost.colors if self.cost.mana_cost else frozenset()

    def allows(self, restrict: str) -> bool:
        """Whether mana restricted by ``restrict`` may be spent on this spell (CR 106.6)."""
        return restriction_allows(restrict, self.type_line, self.colors)


@dataclass(frozen=True)
class PaymentProblem:
    """One Magic payment question: can ``spell`` be paid from ``board`` and ``player``?"""

    spell: Spell
    board: Board
    player: Player
    query: str = "pay"
    id: object = None

    def __post_init__(self):
        # amounts counted on the board (Gaea's Cradle, devotion) are counted once, here,
        # however the problem was built (see Board.resolve_amounts)
        object.__setattr__(self, "board", self.board.resolve_amounts())


def _expect(cond: bool, message: str, at: str) -> None:
    if not cond:
        raise RequestError(message, at)


def _int(obj: dict, key: str, at: str, default: int, minimum: int = 0, maximum: int = MAX_AMOUNT) -> int:
    value = obj.get(key, default)
    _expect(isinstance(value, int) and not isinstance(value, bool),
            f"'{key}' must be a whole number, not {value!r}", at)
    _expect(value >= minimum, f"'{key}' must be {minimum} or more, not {value}", at)
    _expect(value <= maximum, f"'{key}' must be at most {maximum}, not {value}", at)
    return value


def _bool(obj: dict, key: str, at: str) -> bool:
    value = obj.get(key, False)
    _expect(isinstance(value, bool), f"'{key}' must be true or false, not {value!r}", at)
    return value


def _mana_string(value, at: str) -> ManaCost:
    _expect(isinstance(value, str), f"expected a mana string such as '{{1}}{{W}}', not {value!r}", at)
    try:
        return ManaCost.parse(value)
    except ManaplanError as e:
        raise RequestError(e.message, at) from None


def _mana_list(spell: dict, key: str) -> tuple:
    value = spell.get(key, [])
    if isinstance(value, str):
        value = [value]
    _expect(isinstance(value, list), f"'{key}' must be a list of mana strings", f"spell.{key}")
    return tuple(_mana_string(v, f"spell.{key}[{i}]") for i, v in enumerate(value))


def parse_spell(spell) -> Spell:
    _expect(isinstance(spell, dict), "'spell' must be an object with at least 'mana_cost'", "spell")
    known = {"name", "mana_cost", "type_line", "x", "additional", "increase", "reduce", "minimum",
             "convoke", "improvise", "delve", "oracle_text"}
    for key in spell:
        _expect(key in known, f"unknown field {key!r} in the spell", f"spell.{key}")
    raw = spell.get("mana_cost")
    _expect(raw is None or raw == "" or (isinstance(raw, str) and raw.strip()),
            "'mana_cost' is blank: use null (or \"\") for no mana cost, or {0}", "spell.mana_cost")
    mana_cost = None if raw is None or raw == "" else _mana_string(raw, "spell.mana_cost")
    # Scryfall writes an absent mana cost as "" (CR 202.1b)
    x = _int(spell, "x", "spell.x", 0)
    cost = SpellCost(mana_cost, x, _mana_list(spell, "additional"), _mana_list(spell, "increase"),
                     _mana_list(spell, "reduce"), _int(spell, "minimum", "spell.minimum", 0))
    try:
        cost.check()
    except RequestError as e:
        raise e
    for key in ("name", "type_line", "oracle_text"):
        _expect(isinstance(spell.get(key, ""), str), f"'{key}' must be text", f"spell.{key}")
    return Spell(cost, spell.get("name", ""), spell.get("type_line", ""),
                 _bool(spell, "convoke", "spell.convoke"), _bool(spell, "improvise", "spell.improvise"),
                 _bool(spell, "delve", "spell.delve"))


def parse_player(player) -> Player:
    if player is None:
        return Player()
    _expect(isinstance(player, dict), "'player' must be an object", "player")
    for key in player:
        _expect(key in ("life", "pool", "graveyard"), f"unknown field {key!r} in the player", f"player.{key}")
    life = _int(player, "life", "player.life", 20)
    pool_text = player.get("pool", "")
    _expect(isinstance(pool_text, str), "'pool' must be a mana string such as '{R}{R}'", "player.pool")
    try:
        pool = parse_mana(pool_text, source="pool")
    except ManaplanError as e:
        raise RequestError(e.message, "player.pool") from None
    return Player(life, pool, _int(player, "graveyard", "player.graveyard", 0))


_PERMANENT_FIELDS = {"id", "name", "type_line", "oracle_text", "abilities", "tapped", "summoning_sick",
                     "counters", "chosen_color", "snow", "colors", "mana_cost", "triggers", "attached_to"}


def parse_permanent(p, at: str) -> Permanent:
    """Read one permanent. Identical permanents (all but the id) are read once: a board
    of 300 lands repeats a handful of texts, and reading text is the slow part."""
    if not isinstance(p, dict):
        raise RequestError("a permanent must be an object with an 'id'", at)
    unknown = p.keys() - _PERMANENT_FIELDS
    if unknown:
        key = sorted(unknown)[0]
        raise RequestError(f"unknown field {key!r} in a permanent", f"{at}.{key}")
    pid = p.get("id")
    if not isinstance(pid, str) or pid in ("", "pool"):
        _expect(isinstance(pid, str) and pid != "", "every permanent needs an 'id' (non-empty text)", f"{at}.id")
        _expect(pid != "pool", "'pool' is reserved for floating mana; choose another id", f"{at}.id")
    body = {k: v for k, v in p.items() if k != "id"}
    key = repr(body)  # equal permanents written alike share a key; others just miss the cache
    template = _BODIES.get(key)
    if template is None:
        try:
            template = _permanent_body(body, key)
        except ManaplanError as e:
            raise e.located(at) from None
        if len(_BODIES) >= 4096:
            _BODIES.clear()
        _BODIES[key] = template
    return template.with_id(pid)


_BODIES: dict = {}


def _explicit_or_text(p: dict, field_name: str, read_one, from_text) -> list:
    """The permanent's list ``field_name`` read item by item, or, when it is absent, what
    its card text gives; errors say where."""
    if field_name not in p:
        try:
            return from_text()
        except ManaplanError as e:
            raise RequestError(e.message, "oracle_text") from None
    specs = p[field_name]
    _expect(isinstance(specs, list), f"'{field_name}' must be a list", field_name)
    out = []
    for i, spec in enumerate(specs):
        try:
            out.append(read_one(spec))
        except ManaplanError as e:
            raise e.located(f"{field_name}[{i}]") from None
    return out


def _permanent_body(p: dict, key: str) -> Permanent:
    """Everything of a permanent but its id; error locations are relative to it."""
    name = p.get("name", "")
    type_line = p.get("type_line", "")
    oracle = p.get("oracle_text", "")
    for field_name, value in (("name", name), ("type_line", type_line), ("oracle_text", oracle)):
        _expect(isinstance(value, str), f"'{field_name}' must be text", field_name)
    chosen = None
    if p.get("chosen_color") is not None:
        try:
            chosen = chosen_color_code(p["chosen_color"])
        except RequestError as e:
            raise RequestError(e.message, "chosen_color") from None
    abilities = _explicit_or_text(p, "abilities", lambda spec: explicit_ability(spec, name),
                                  lambda: abilities_from_text(type_line, oracle, name, chosen))
    triggers = _explicit_or_text(p, "triggers", lambda spec: ManaTrigger.parse(spec, chosen),
                                 lambda: triggers_from_text(oracle, name, chosen))
    attached_to = p.get("attached_to", "")
    _expect(isinstance(attached_to, str), "'attached_to' must be the id of a permanent", "attached_to")
    counters = p.get("counters", {})
    _expect(isinstance(counters, dict), "'counters' must be an object such as {\"storage\": 2}", "counters")
    for kind, n in counters.items():
        _expect(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= MAX_AMOUNT,
                f"counter count must be a whole number from 0 to {MAX_AMOUNT}, not {n!r}", f"counters.{kind}")
    counters = {kind.lower(): n for kind, n in counters.items()}  # "Storage" is "storage"
    colors = frozenset()
    mana_cost = None
    if p.get("mana_cost"):
        mana_cost = _mana_string(p["mana_cost"], "mana_cost")
        colors = mana_cost.colors
    if "colors" in p:
        _expect(isinstance(p["colors"], list) and all(isinstance(c, str) and c in COLORS for c in p["colors"]),
                "'colors' must be a list of W, U, B, R, G", "colors")
        colors = frozenset(p["colors"])
    snow = _bool(p, "snow", "snow") or bool(re.search(r"\bSnow\b", type_line))
    types_part = re.split(r"\s+[—-]\s+", type_line, maxsplit=1)[0]
    creature = "Creature" in types_part
    if not type_line and p.get("summoning_sick"):
        creature = True  # the flag is only meaningful for creatures (CR 302.6)
    return Permanent("", name, tuple(abilities), _bool(p, "tapped", "tapped"),
                     _bool(p, "summoning_sick", "summoning_sick"), tuple(sorted(counters.items())), snow,
                     creature, "Artifact" in types_part, colors, type_line, tuple(triggers), attached_to,
                     mana_cost, bool(re.search(r"(?m)^Changeling\b", oracle)), key)


def parse_request(req) -> PaymentProblem:
    """Validate a Magic request and build the problem; raise RequestError on bad input."""
    _expect(isinstance(req, dict), "a request must be a JSON object", "")
    known = {"id", "game", "query", "spell", "player", "permanents"}
    for key in req:
        _expect(key in known, f"unknown field {key!r} in the request", key)
    query = req.get("query", "pay")
    _expect(query in QUERIES, f"unknown query {query!r}; known: {', '.join(QUERIES)}", "query")
    _expect("spell" in req, "the request needs a 'spell'", "spell")
    spell = parse_spell(req["spell"])
    player = parse_player(req.get("player"))
    perms = req.get("permanents", [])
    _expect(isinstance(perms, list), "'permanents' must be a list", "permanents")
    parsed = []
    seen = set()
    for i, p in enumerate(perms):
        perm = parse_permanent(p, f"permanents[{i}]")
        if perm.id in seen:
            raise RequestError(f"duplicate permanent id {perm.id!r}", f"permanents[{i}].id")
        seen.add(perm.id)
        parsed.append(perm)
    for i, perm in enumerate(parsed):
        if perm.attached_to and perm.attached_to not in seen:
            raise RequestError(f"'attached_to' names no permanent on the board: {perm.attached_to!r}",
                               f"permanents[{i}].attached_to")
    problem = PaymentProblem(spell, Board(tuple(parsed)), player, query, req.get("id"))
    check_board(problem.board.permanents)
    return problem

