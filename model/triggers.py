"""Triggered mana abilities: mana added because another mana ability was activated.

Caged Sun, Vernal Bloom, Mana Flare, Overgrowth, Crypt Ghast. A triggered ability is a
mana ability if it has no target, triggers from a mana ability or from mana being added,
and could add mana (CR 605.1b); it does not use the stack but resolves at once, right
after the mana ability that set it off (605.4a), so it works in the middle of paying a
cost (601.2g). "Tapped for mana" means a mana ability with ``{T}`` in its cost was
activated and produced mana, of the named type where one is named (106.12, 106.12a).

So for a payment, an activation that sets triggers off simply makes more mana: its own,
plus each trigger's, whose source is the trigger's permanent (its snow flag, no spending
restriction). :func:`activation_outputs` lists every outcome of one activation; the
solver, the reference search and the validator read the same rules from here.

>>> t = ManaTrigger.parse({"when": "tapped", "of": "Forest", "add": "{G}"})
>>> t.format()
{'when': 'tapped', 'of': 'Forest', 'add': '{G}'}
>>> t.choices(("G",))
(('G',),)
>>> ManaTrigger.parse({"when": "tapped", "of": "land", "add": "same"}).choices(("W", "U", "U"))
(('W',), ('U',))
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from manaplan.model.board import TRIGGERS
from manaplan.model.errors import ManaplanError, RequestError
from manaplan.model.mana import parse_mana
from manaplan.model.symbols import COLORS, MANA_TYPES

#: "whenever ... is tapped for mana": a mana ability with {T} in its cost (CR 106.12a)
TAPPED = "tapped"
#: "whenever ...'s ability causes you to add mana" (Caged Sun): any mana ability
ADDS = "adds"
WHENS = (TAPPED, ADDS)
#: what ``add`` may say besides a mana string
SAME = "same"    # one mana of any type that permanent produced (Mana Flare)
ANY = "any"      # one mana of any color (Fertile Ground)
#: what ``of`` may say besides a subtype ("Forest") or a card type
KINDS = ("land", "basic land", "nonland permanent", "creature", "artifact", "permanent", "enchanted")
_CARD_TYPES = ("Land", "Creature", "Artifact", "Enchantment", "Permanent", "Planeswalker", "Basic")
#: the most outcomes one activation may have once its triggers' choices are counted
MAX_OUTCOMES = 2000


@dataclass(frozen=True)
class ManaTrigger:
    """One triggered mana ability of a permanent.

    ``of`` lists what sets it off (any of them): one of KINDS (``enchanted``: the
    permanent this one is attached to) or a subtype such as ``Forest``. ``produces`` is a
    mana type the activation must have produced ("" for any mana). ``adds`` are the
    alternatives it adds (tuples of types); ``same`` means one mana of any type the
    activation produced instead. With ``multiply`` it is a "tapped for mana" replacement
    effect rather than a trigger: the permanent produces that many times as much.
    """

    when: str
    of: tuple
    adds: tuple = ()
    same: bool = False
    produces: str = ""
    text: str = ""
    multiply: int = 0  # a replacement effect instead: the permanent produces this many times as much (106.12b)

    @classmethod
    def parse(cls, spec, chosen_color: str | None = None) -> "ManaTrigger":
        """Read the protocol's ``{"when": ..., "of": ..., "add": ..., "produces": ...}``.
        ``"chosen"`` in ``add`` or ``produces`` is the permanent's chosen color."""
        if not isinstance(spec, dict):
            raise RequestError('a trigger must be an object such as {"when": "tapped", "of": "Forest", "add": "{G}"}')
        unknown = spec.keys() - {"when", "of", "add", "produces", "text", "multiply"}
        if unknown:
            key = sorted(unknown)[0]
            raise RequestError(f"unknown field {key!r} in a trigger", key)
        when = spec.get("when")
        if when not in WHENS:
            raise RequestError(f"'when' must be {' or '.join(map(repr, WHENS))}, not {when!r}", "when")
        of = spec.get("of")
        of = (of,) if isinstance(of, str) else of
        if not isinstance(of, (list, tuple)) or not of or not all(
                isinstance(o, str) and (o in KINDS or re.fullmatch(r"[A-Z][a-z]+(?:'[a-z]+)?", o)
                                        and o not in _CARD_TYPES) for o in of):
            raise RequestError(f"'of' must name what sets it off: {', '.join(KINDS)}, or a subtype such as "
                               f"Forest (or a list of them), not {spec.get('of')!r}", "of")
        produces = spec.get("produces", "")
        if produces == "chosen":
            produces = _chosen(chosen_color, "produces")
        if produces not in ("",) + MANA_TYPES:
            raise RequestError(f"'produces' must be a mana type (W U B R G C) or \"chosen\", not {produces!r}",
                               "produces")
        text = spec.get("text", "")
        if not isinstance(text, str):
            raise RequestError("'text' must be text", "text")
        if "multiply" in spec:
            k = spec["multiply"]
            if when != TAPPED or "add" in spec or produces or not isinstance(k, int) or isinstance(k, bool) \
                    or not 2 <= k <= 10:
                raise RequestError("'multiply' (a permanent tapped for mana produces N times as much, N from 2 "
                                   "to 10) goes with \"when\": \"tapped\" and no 'add' or 'produces'", "multiply")
            return cls(when, tuple(o.strip() for o in of), text=text, multiply=k)
        add = spec.get("add")
        same = add == SAME
        if same:
            adds: tuple[tuple[str, ...], ...] = ()
        elif add == ANY:
            adds = tuple((c,) for c in COLORS)
        elif add == "chosen":
            adds = ((_chosen(chosen_color, "add"),),)
        elif isinstance(add, dict) and list(add) == ["combination"] and isinstance(add["combination"], int) \
                and not isinstance(add["combination"], bool) and 1 <= add["combination"] <= 10:
            adds = tuple(itertools.combinations_with_replacement(COLORS, add["combination"]))
        elif isinstance(add, str) and add:
            try:
                adds = (tuple(m.type for m in parse_mana(add)),)
            except ManaplanError as e:
                raise RequestError(e.message, "add") from None
            if not adds[0] or len(adds[0]) > 100:
                raise RequestError("a trigger adds from 1 to 100 mana", "add")
        else:
            raise RequestError(f"'add' must be a mana string, \"any\", \"same\", \"chosen\" or "
                               f"{{\"combination\": N}} (1 to 10), not {add!r}", "add")
        return cls(when, tuple(o.strip() for o in of), adds, same, produces, text)

    def format(self) -> dict:
        """The protocol's form (``chosen`` comes back as the color it stands for)."""
        out = {"when": self.when, "of": self.of[0] if len(self.of) == 1 else list(self.of)}
        if self.multiply:
            return {**out, "multiply": self.multiply}
        if self.produces:
            out["produces"] = self.produces
        if self.same:
            out["add"] = SAME
        elif len(self.adds) == 5 and self.adds == tuple((c,) for c in COLORS):
            out["add"] = ANY
        elif len(self.adds) > 1:
            out["add"] = {"combination": len(self.adds[0])}
        else:
            out["add"] = "".join("{%s}" % t for t in self.adds[0])
        return out

    def sets_off(self, host, ability, made: tuple, source) -> bool:
        """Whether activating ``ability`` of ``host`` and making ``made`` triggers this
        (``source`` is the permanent that has the trigger). Only mana abilities trigger
        it (CR 605.1b); "tapped for mana" needs ``{T}`` in the cost (106.12a)."""
        if not made or not ability.mana_ability:
            return False
        if self.when == TAPPED and not ability.cost.tap:
            return False
        if self.produces and self.produces not in made:
            return False
        return any(_is(host, what, source) for what in self.of)

    def choices(self, made: tuple) -> tuple:
        """What it may add after an activation that made ``made``."""
        if self.same:
            return tuple((t,) for t in sorted(set(made), key=MANA_TYPES.index))
        return self.adds


def _chosen(color, field_name: str) -> str:
    if not color:
        raise RequestError('"chosen" needs the permanent\'s \'chosen_color\'', field_name)
    return color


def _is(host, what: str, source) -> bool:
    """Whether ``host`` is what a trigger of ``source`` names (``enchanted``: the
    permanent ``source`` is attached to; else see :meth:`Permanent.is_a`)."""
    if what == "enchanted":
        return source.attached_to == host.id
    return host.is_a(what)


@dataclass(frozen=True)
class Extra:
    """One mana a trigger added: its type, the permanent whose trigger it was and the
    trigger's index there, and whether that permanent is snow: the source of a triggered
    ability is the object whose ability triggered (CR 113.7), and so is its mana's."""

    type: str
    source: str
    index: int = 0
    snow: bool = False


def board_triggers(board) -> tuple:
    """(permanent, trigger index, trigger) for every triggered mana ability on the board
    (found once per board)."""
    memo = getattr(board, "memo", None)
    if memo is not None and "triggers" in memo:
        return memo["triggers"]
    found: tuple = ()
    traits = getattr(board, "traits", None)  # (a Board knows whether a body has triggers)
    if (TRIGGERS in traits) if traits is not None else any(p.triggers for p in board.permanents):  # (in order)
        found = tuple((p, i, t) for p in board.permanents for i, t in enumerate(p.triggers))
    if memo is not None:
        memo["triggers"] = found
    return found


def multiplier(triggers: Iterable[tuple], host, ability) -> int:
    """How many times as much mana tapping ``host`` for ``ability`` produces under the
    replacement effects among ``triggers`` (Mana Reflection: twice; with Nyxbloom Ancient
    too, six times). They change the ability's own mana only, not what triggers add."""
    times = 1
    for p, i, t in triggers:
        if t.multiply and t.sets_off(host, ability, ("C",), p):
            times *= t.multiply
    return times


def check_board(permanents: Sequence) -> None:
    """Refuse boards whose triggers this model can't follow exactly, naming where:

    - an Aura attached to itself (CR 303.4d), or an "enchanted" trigger with nothing
      attached;
    - a permanent with triggers that can be sacrificed to pay: a trigger only triggers
      while its source is on the battlefield (603.2, 603.10), which the plans don't track;
    - an ability that needs no {T}, sacrifice, counter or life and, with its triggers,
      makes more mana than it costs: unlimited mana.
    """
    triggers = tuple((p, i, t) for p in permanents for i, t in enumerate(p.triggers))
    if not triggers:
        return
    for k, p in enumerate(permanents):
        at = f"permanents[{k}]"
        if p.attached_to == p.id:
            raise RequestError("a permanent can't be attached to itself (CR 303.4d)", f"{at}.attached_to")
        if p.triggers and any("enchanted" in t.of for t in p.triggers) and not p.attached_to:
            raise RequestError("an 'enchanted' trigger needs 'attached_to': the id of the permanent it enchants",
                               f"{at}.attached_to")
        if p.triggers and any(a.cost.sacrifice and a.usable_mid_cast for a in p.abilities):
            raise RequestError("a permanent with triggered mana abilities that can be sacrificed while paying is "
                               "not supported (its triggers stop when it leaves, CR 603.10)", f"{at}.abilities")
        for j, ab in enumerate(p.abilities):
            c = ab.cost
            if c.tap or c.untap or c.sacrifice or c.sacrifice_other or c.counters or c.life or not ab.usable_mid_cast:
                continue
            outcomes = activation_outputs(triggers, p, ab)
            if outcomes and max(len(own) + len(extra) for own, extra in outcomes) > c.mana.mana_value:
                raise RequestError("with the triggers on the board this ability makes more mana than it costs and "
                                   "needs no {T}: infinite mana, which is not modelled", f"{at}.abilities[{j}]")


def activation_outputs(triggers: tuple, host, ability) -> tuple | None:
    """Every outcome of activating ``ability`` of ``host`` with these triggers on the
    board: (its own mana, the triggers' mana as a tuple of :class:`Extra`), without
    repeats; None if no trigger on the board can ever care about ``host``. An ability that adds mana in any combination of colors is
    spelled out into its combinations when a trigger could care which (at most
    MAX_OUTCOMES outcomes; more is an error, never a guess)."""
    out = ability.output
    relevant = [(p, i, t) for p, i, t in triggers if any(_is(host, w, p) for w in t.of)]
    if not relevant:
        return None
    if out.combination:
        own = list(itertools.combinations_with_replacement(out.combination_types, out.combination))
    else:
        own = list(out.alternatives)
    times = multiplier(relevant, host, ability)
    outcomes = []
    seen = set()
    for alt in own:
        alt = tuple(t for t in alt for _ in range(times))
        fired = [(p, i, t) for p, i, t in relevant if not t.multiply and t.sets_off(host, ability, alt, p)]
        for picks in itertools.product(*(t.choices(alt) for p, i, t in fired)):
            extra = tuple(Extra(ty, p.id, i, p.snow) for (p, i, t), pick in zip(fired, picks) for ty in pick)
            # outcomes that make the same kinds of mana are the same for paying
            key = (tuple(sorted(alt)), tuple(sorted((e.type, e.snow) for e in extra)))
            if key in seen:
                continue
            seen.add(key)
            outcomes.append((tuple(alt), extra))
            if len(outcomes) > MAX_OUTCOMES:
                raise RequestError(f"the triggers on {host.id!r} give one activation more than {MAX_OUTCOMES} "
                                   "possible outcomes; that is not supported")
    return tuple(outcomes)
