"""A small greedy payer: the worked example of an engine under test (docs/suite.md).

    python benchmarks/greedy_engine.py SUITE.jsonl ANSWERS.jsonl

It is written the way a first auto-tapper is, and uses nothing of manaplan (the standard
library only), as an engine in another language would: it reads each case's cards from
their Oracle text (only "{T}: Add ..." abilities, with "Pay N life" costs and pain lands'
damage; "Add one mana of any color"; basic land types), then pays the spell's symbols one
at a time, colored symbols first, each with the untapped source that makes the fewest
kinds of mana, mana already floating first; a Phyrexian symbol with mana when a source is
left, else 2 life; a twobrid symbol with its color when it can, else two mana. It knows
no filter lands, no convoke, improvise or delve, no additional costs: its mistakes are
the suite's to find. Answers are in the suite's answer format: the plan's steps (the
permanent and the mana it added; no ability index, so the referee takes the first ability
that can add it) and what paid each printed symbol.
"""

from __future__ import annotations

import json
import re
import sys

COLORS = "WUBRG"
BASIC = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
ADD = re.compile(r"^(?P<cost>[^:]*):\s*Add (?P<what>[^.]*)\.(?P<rest>.*)$")


def abilities(card: dict) -> list:
    """(outputs, life) for each "{T}: Add ..." line the greedy payer understands: each
    output a string of mana types ("G", "CC")."""
    out = []
    for line in card.get("oracle_text", "").replace("(", "").replace(")", "").split("\n"):
        m = ADD.match(line.strip())
        if not m:
            continue
        parts = [p.strip() for p in m["cost"].split(",")]
        if "{T}" not in parts:
            continue
        life = 0
        for p in parts:
            if p == "{T}":
                continue
            life_cost = re.fullmatch(r"Pay (\d+) life", p)
            if not life_cost:
                break  # a cost it doesn't pay (mana, sacrifice, counters)
            life += int(life_cost[1])
        else:
            if "deals 1 damage to you" in m["rest"]:
                life += 1
            what = m["what"]
            if "one mana of any color" in what:
                outputs = list(COLORS)
            else:
                outputs = ["".join(re.findall(r"\{([WUBRGC])\}", alt)) for alt in re.split(r",? or |, ", what)]
                outputs = [o for o in outputs if o]
            if outputs:
                out.append((outputs, life))
    if not out:  # a basic land type without its reminder text
        types = [c for name, c in BASIC.items() if name in card.get("type_line", "")]
        if types:
            out.append((types, 0))
    return out


def symbols(cost: str, x: int) -> list:
    out = []
    for s in re.findall(r"\{([^}]+)\}", cost or ""):
        if s == "X":
            out += ["1"] * x
        elif s.isdigit():
            out += ["1"] * int(s)
        else:
            out.append(s)
    rank = lambda s: 0 if s in COLORS or s == "C" else 1 if "/" in s and "P" not in s and not s.startswith("2") \
        else 2 if s.endswith("/P") else 3 if s.startswith("2/") else 4
    return sorted(out, key=rank)


def pay(case: dict) -> dict:
    request = case["request"]
    spell, life = request["spell"], request.get("player", {}).get("life", 20)
    sources = []
    for p in request["permanents"]:
        if p.get("tapped") or (p.get("summoning_sick") and "Creature" in p.get("type_line", "")):
            continue
        abl = abilities(p)
        if abl:
            kinds = len({t for outs, _ in abl for o in outs for t in o})
            sources.append((kinds, sum(l for _, l in abl) > 0, p["id"], abl))
    sources.sort()
    pool = []  # (type, source) floating
    for t in re.findall(r"\{([WUBRGC])\}", request.get("player", {}).get("pool", "")):
        pool.append((t, "pool"))
    steps, payment, used = [], [], set()

    def take(able) -> tuple | None:
        for i, (t, src) in enumerate(pool):
            if able(t):
                return pool.pop(i)
        for _, _, pid, abl in sources:
            if pid in used:
                continue
            for outs, cost in abl:
                for o in outs:
                    if any(able(t) for t in o):
                        used.add(pid)
                        steps.append({"permanent": pid, "adds": "".join("{%s}" % t for t in o)})
                        nonlocal_life[0] += cost
                        made = [(t, pid) for t in o]
                        first = next(m for m in made if able(m[0]))
                        made.remove(first)
                        pool.extend(made)
                        return first
        return None

    nonlocal_life = [0]
    for s in symbols(spell.get("mana_cost"), spell.get("x", 0)):
        printed = "{%s}" % s
        if s == "1":
            got = take(lambda t: True)
            printed = "{%d}" % sum(1 for z in symbols(spell.get("mana_cost"), spell.get("x", 0)) if z == "1")
        elif s in COLORS or s == "C":
            got = take(lambda t, s=s: t == s)
        elif s == "S":
            got = take(lambda t: True)
        elif s.endswith("/P"):
            colors = s[:-2].split("/")
            got = take(lambda t, c=colors: t in c)
            if got is None:
                payment.append({"symbol": printed, "life": 2})
                nonlocal_life[0] += 2
                continue
        elif s.startswith("2/"):
            got = take(lambda t, c=s[2]: t == c)
            if got is None:
                first, second = take(lambda t: True), take(lambda t: True)
                if first is None or second is None:
                    return {"case": case["case"], "payable": False}
                payment += [{"symbol": printed, "mana": m[0], "from": m[1]} for m in (first, second)]
                continue
        else:
            got = take(lambda t, c=s.split("/"): t in c)
        if got is None:
            return {"case": case["case"], "payable": False}
        payment.append({"symbol": printed, "mana": got[0], "from": got[1]})
    if nonlocal_life[0] > life:
        return {"case": case["case"], "payable": False}
    return {"case": case["case"], "payable": True, "plan": {"steps": steps, "payment": payment}}


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    with open(argv[0], encoding="utf-8") as cases, open(argv[1], "w", encoding="utf-8") as out:
        for line in cases:
            if line.strip():
                out.write(json.dumps(pay(json.loads(line))) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
