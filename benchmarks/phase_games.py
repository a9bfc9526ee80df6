"""manaplan paying inside phase.rs games (a first part): phase's AI plays both seats, and
at each cast of one seat manaplan chooses the taps.

    /work/venv-phase/bin/python benchmarks/phase_games.py --pairs 10 [--seed 1] [--name phase_games_pilot]

Runs in a virtual environment of its own holding `phase-python` (phase.rs's bindings,
import name `phase`), never a dependency of manaplan or its tests; manaplan answers as an
engine in another language would use it: one `manaplan serve` process (the Python given by
--manaplan-python, default `python3`) spoken to over standard input and output.

How a payment is taken over (phase's own API only): the AI's `CastSpell` for the
manaplan seat is applied with `payment_mode: Manual`, which stops at a `ManaPayment`
prompt once targets, X and modes are chosen; the locked-in cost is
`state()["state"]["pending_cast"]["cost"]` (increases and reductions applied: never
counted again). :func:`request_at_prompt` writes the `pay` request (the seat's
battlefield by phase's object ids, each permanent's Oracle text from the deck's card
objects, tapped and summoning sick as phase says, the mana pool, life, `mid_cast: true`);
:func:`plan_actions` turns manaplan's plan into phase's actions (an `ActivateAbility`
per step, its mana abilities counted in phase's order; `ChooseManaColor` answered with the
step's mana; then `PassPriority`, which spends the pool on the cast). The tapped set is
checked against the plan; on any refusal the snapshot taken before is restored and phase
pays (counted). Not yet here (issue 43's other parts): the paired runner's statistics,
the third arm, the judge replaying each payment through `check`, Dask.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
COLOR_LETTER = {"White": "W", "Blue": "U", "Black": "B", "Red": "R", "Green": "G", "Colorless": "C"}
LETTER_COLOR = {v: k for k, v in COLOR_LETTER.items()}


def cost_text(cost: dict) -> str:
    """phase's locked-in ``{"generic": N, "shards": [...]}`` as a mana cost ("{2}{G}{U}");
    a shard this does not know is an error (never a guess)."""
    if cost.get("type") == "NoCost":
        return ""
    out = "{%d}" % cost["generic"] if cost.get("generic") else ""
    for shard in cost.get("shards") or []:
        if shard not in COLOR_LETTER:
            raise ValueError(f"a cost shard this driver does not read: {shard!r}")
        out += "{%s}" % COLOR_LETTER[shard]
    return out or "{0}"


def type_line(obj: dict) -> str:
    types = obj.get("card_types") or {}
    words = list(types.get("supertypes") or []) + list(types.get("core_types") or [])
    subtypes = list(types.get("subtypes") or [])
    return " ".join(words) + (" — " + " ".join(subtypes) if subtypes else "")


def request_at_prompt(objects: list, seat: int, cost: dict, oracle: dict, life: int, pool: list, turn: int) -> dict:
    """The ``pay`` request for the cast waiting at phase's ManaPayment prompt: the seat's
    permanents (phase's object ids; name, type line from phase, Oracle text from the deck's
    card objects ``oracle`` by name; tapped; a creature summoning sick where phase says it
    entered on this ``turn``: CR 302.6), the pool's mana, the life, ``mid_cast``."""
    permanents = []
    for obj in objects:
        if obj.get("controller") != seat or obj.get("zone", "Battlefield") != "Battlefield":
            continue
        entry = {"id": str(obj["id"]), "name": obj["name"], "type_line": type_line(obj),
                 "oracle_text": oracle.get(obj["name"], ""), "tapped": bool(obj.get("tapped"))}
        if "Creature" in entry["type_line"] and obj.get("entered_battlefield_turn") == turn:
            entry["summoning_sick"] = True
        permanents.append(entry)
    request = {"query": "pay", "spell": {"mana_cost": cost_text(cost)}, "permanents": permanents,
               "player": {"life": life}, "mid_cast": True}
    floating = "".join("{%s}" % COLOR_LETTER[m["color"]] for m in pool)
    if floating:
        request["player"]["pool"] = floating
    return request


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
                        "colors": colors})
    actions.append({"type": "PassPriority"})
    return actions


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


def engine_for(card_objects: list):
    """A phase Engine whose card faces phase's own Oracle parser built from the card
    objects' text (phase's MTGJSON card database is not on this machine)."""
    from phase import Engine, build_oracle_face

    sys.path.insert(0, HERE)
    import phase_engine as pe  # (the card shape phase's parser takes)

    faces = {c["name"].lower(): build_oracle_face(pe.mtgjson(c["name"], c["type_line"], c.get("oracle_text", ""),
                                                             c.get("mana_cost") or None, c.get("power")), None)
             for c in card_objects}
    return Engine.from_json(json.dumps(faces))


def pay_with_manaplan(engine, game, seat: int, cast, oracle: dict, mp: "Manaplan", counts: dict):
    """Apply the AI's ``cast`` for ``seat`` with manaplan choosing the taps; returns the
    game (a new one where a snapshot was restored and phase paid)."""
    from phase import GameAction

    snapshot = game.state()
    data = cast.to_dict()
    data["data"]["payment_mode"] = {"type": "Manual"}
    game.apply(seat, GameAction.from_dict(data))
    if game.waiting_for().get("type") != "ManaPayment":
        counts["no_prompt"] = counts.get("no_prompt", 0) + 1
        return game
    counts["prompts"] = counts.get("prompts", 0) + 1
    state = game.state()["state"]
    objects = game.battlefield()
    player = game.player(seat)
    try:
        request = request_at_prompt(objects, seat, state["pending_cast"]["cost"], oracle, player["life"],
                                    player["mana_pool"]["mana"], game.turn)
    except ValueError:
        return _phase_pays(engine, snapshot, seat, cast, counts, "not_expressed")
    started = time.perf_counter()
    answer = mp.ask(request)
    counts.setdefault("ms", []).append(1000 * (time.perf_counter() - started))
    if not answer.get("payable") or "plan" not in answer:
        return _phase_pays(engine, snapshot, seat, cast, counts, "manaplan_no" if answer.get("payable") is False
                           else "manaplan_undecided")
    try:
        actions = plan_actions(answer["plan"], objects)
        for action in actions:
            colors = action.pop("colors", [])
            game.apply(seat, GameAction.from_dict(action))
            while game.waiting_for().get("type") == "ChooseManaColor":
                options = [a for a in game.actions() if a.kind == "ChooseManaColor"]
                wanted = LETTER_COLOR.get(colors.pop(0), "") if colors else ""
                pick = next((a for a in options if (a.to_dict()["data"]["choice"].get("data") == wanted)), None)
                if pick is None:
                    raise ValueError("a color phase does not offer")
                game.apply(seat, pick)
    except Exception:  # noqa: BLE001  (phase refused an action: restore, let phase pay, count it)
        return _phase_pays(engine, snapshot, seat, cast, counts, "refused")
    tapped = {str(o["id"]) for o in game.battlefield() if o.get("controller") == seat and o.get("tapped")}
    before = {p["id"] for p in request["permanents"] if p["tapped"]}
    if game.waiting_for().get("type") == "ManaPayment" or tapped - before != set(answer["plan"]["tapped"]):
        return _phase_pays(engine, snapshot, seat, cast, counts, "not_as_planned")
    counts["carried_out"] = counts.get("carried_out", 0) + 1
    _compare_with_phase(engine, snapshot, seat, cast, answer["plan"], before, player["life"], counts)
    return game


def _compare_with_phase(engine, snapshot, seat: int, cast, plan: dict, before: set, life: int, counts: dict) -> None:
    """What phase's own payment (Auto) does at the same prompt, on a copy of the game:
    refused (its auto-payer gave up), or its permanents tapped, life paid and permanents
    sacrificed beside the plan's; each decision counted as phase refuses, worse, equal
    or better (fewer life paid first, then fewer sacrificed, then fewer tapped)."""
    copy = engine.load_game(snapshot)
    ids = {str(o["id"]) for o in copy.battlefield() if o.get("controller") == seat}
    started = time.perf_counter()
    try:
        copy.apply(seat, cast)
    except Exception:  # noqa: BLE001  (phase refused its own cast)
        counts["phase_refused"] = counts.get("phase_refused", 0) + 1
        return
    counts.setdefault("phase_pay_ms", []).append(1000 * (time.perf_counter() - started))
    if copy.waiting_for().get("type") == "ManaPayment":
        counts["phase_refused"] = counts.get("phase_refused", 0) + 1
        return
    now = {str(o["id"]): o for o in copy.battlefield() if o.get("controller") == seat}
    theirs = (life - copy.player(seat)["life"], len(ids - set(now)),
              len({i for i, o in now.items() if o.get("tapped")} - before))
    mine = (plan.get("life_paid", 0), len(plan.get("sacrificed", [])), len(plan.get("tapped", [])))
    verdict = "phase_worse" if theirs > mine else "phase_better" if theirs < mine else "phase_equal"
    counts[verdict] = counts.get(verdict, 0) + 1


def _phase_pays(engine, snapshot, seat, cast, counts, why):
    counts[why] = counts.get(why, 0) + 1
    game = engine.load_game(snapshot)
    game.apply(seat, cast)
    return game


def play(engine, decks: tuple, seed: int, manaplan_seat, oracle: dict, mp, counts: dict, most_steps: int = 4000):
    """One AI-vs-AI game; manaplan pays for ``manaplan_seat`` (None: phase pays for
    both). (winner seat or None, turns, the two life totals)."""
    game = engine.new_game(player=decks[0], opponent=decks[1], seed=seed, format="Standard")
    for _ in range(most_steps):
        waiting = game.waiting_for()
        if waiting.get("type") == "GameOver":
            break
        actor = game.priority_player() if waiting.get("type") == "Priority" else (waiting.get("data") or {}).get(
            "player", game.priority_player())
        action = game.choose_action(actor)
        if action is None:
            break
        if manaplan_seat == actor and action.kind == "CastSpell":
            game = pay_with_manaplan(engine, game, actor, action, oracle, mp, counts)
        else:
            game.apply(actor, action)
    waiting = game.waiting_for()
    winner = (waiting.get("data") or {}).get("winner") if waiting.get("type") == "GameOver" else None
    return winner, game.turn, (game.player(0)["life"], game.player(1)["life"])


_WORKER: dict = {}  # (per process: the engine, the decks, the Oracle texts, one manaplan serve)


def play_pair(job: tuple) -> dict:
    """One seed played twice, phase paying and manaplan paying for ``seat``; what the
    pair and manaplan's decisions came to. Each process keeps its engine and its
    ``manaplan serve`` for every pair it plays."""
    seed, seat, decks_paths, cards_path, python = job
    if not _WORKER:
        cards = json.load(open(cards_path, encoding="utf-8"))
        decks = (_deck(decks_paths[0]), _deck(decks_paths[1]))
        used = set(decks[0]) | set(decks[1])
        card_objects = [c for c in cards if c["name"] in used]
        _WORKER.update(engine=engine_for(card_objects), decks=decks, mp=Manaplan(python),
                       oracle={c["name"]: c.get("oracle_text", "") for c in card_objects})
    w = _WORKER
    counts: dict = {}
    started = time.process_time()
    phase_game = play(w["engine"], w["decks"], seed, None, w["oracle"], w["mp"], {})
    mine = play(w["engine"], w["decks"], seed, seat, w["oracle"], w["mp"], counts)
    return {"seed": seed, "seat": seat, "phase": phase_game, "manaplan": mine, "counts": counts,
            "cpu": time.process_time() - started}


def pair_statistics(pairs: list) -> dict:
    """The pairs' figures for manaplan's seat: games won by one arm only (a sign test,
    McNemar's exact: under no difference each such pair goes either way at 1/2), and the
    life the seat ends with in pairs of the same winner (mean of the differences)."""
    from math import comb

    only_mine = sum(1 for p in pairs if p["manaplan"][0] == p["seat"] != p["phase"][0])
    only_phase = sum(1 for p in pairs if p["phase"][0] == p["seat"] != p["manaplan"][0])
    n = only_mine + only_phase
    tail = sum(comb(n, k) for k in range(0, min(only_mine, only_phase) + 1)) / 2 ** n if n else 1.0
    same = [p["manaplan"][2][p["seat"]] - p["phase"][2][p["seat"]] for p in pairs if p["manaplan"][0] == p["phase"][0]]
    alike = sum(1 for p in pairs if p["manaplan"] == p["phase"])
    return {"pairs": len(pairs), "played_out_alike": alike, "won_by_manaplan_arm_only": only_mine,
            "won_by_phase_arm_only": only_phase, "sign_test_p": round(min(1.0, 2 * tail), 4),
            "same_winner_pairs": len(same),
            "life_difference_same_winner_mean": round(sum(same) / len(same), 3) if same else None}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--decks", nargs=2, default=[os.path.join(HERE, "decks", "simic_basics.txt"),
                                                     os.path.join(HERE, "decks", "azorius_lions.txt")])
    parser.add_argument("--cards", default=os.path.join(HERE, "..", "manaplan", "deck", "demo_cards.json"))
    parser.add_argument("--manaplan-python", default="python3")
    parser.add_argument("--workers", type=int, default=1, help="processes; past 1, a local Dask cluster")
    parser.add_argument("--address", help="a Dask scheduler's address (default: a local cluster)")
    parser.add_argument("--name", default=None, help="write benchmarks/results/NAME.md")
    args = parser.parse_args(argv)
    jobs = [(args.seed + k, k % 2, tuple(args.decks), args.cards, args.manaplan_python) for k in range(args.pairs)]
    started = time.perf_counter()
    pairs = []
    if args.workers > 1 or args.address:
        from dask.distributed import Client, LocalCluster, as_completed

        cluster = None if args.address else LocalCluster(n_workers=args.workers, threads_per_worker=1,
                                                         processes=True, dashboard_address=None)
        client = Client(args.address or cluster)
        for future in as_completed(client.map(play_pair, jobs, pure=False)):
            pairs.append(future.result())
            print(f"pair {len(pairs)}/{len(jobs)}: {pairs[-1]['phase']} / {pairs[-1]['manaplan']}", flush=True)
        client.close()
        if cluster is not None:
            cluster.close()
    else:
        for job in jobs:
            pairs.append(play_pair(job))
            print(f"pair {len(pairs)}/{len(jobs)}: {pairs[-1]['phase']} / {pairs[-1]['manaplan']}", flush=True)
        if _WORKER:
            _WORKER["mp"].close()
    pairs.sort(key=lambda p: p["seed"])
    counts: dict = {}
    for p in pairs:
        for key, value in p["counts"].items():
            counts[key] = counts.get(key, []) + value if isinstance(value, list) else counts.get(key, 0) + value
    ms = sorted(counts.pop("ms", [0]))
    phase_ms = sorted(counts.pop("phase_pay_ms", [0]))
    summary = {**pair_statistics(pairs), "seconds": round(time.perf_counter() - started, 1),
               "cpu_seconds": round(sum(p["cpu"] for p in pairs), 1), "workers": args.workers, **counts,
               "manaplan_ms_p50": round(ms[len(ms) // 2], 2), "manaplan_ms_p95": round(ms[int(0.95 * (len(ms) - 1))], 2),
               "phase_cast_ms_p50": round(phase_ms[len(phase_ms) // 2], 2)}
    print(json.dumps(summary))
    if args.name:
        with open(os.path.join(HERE, "results", f"{args.name}.md"), "w", encoding="utf-8") as f:
            f.write(f"# manaplan paying inside phase.rs games\n\n`{' '.join(sys.argv[1:])}` "
                    f"(decks: {', '.join(os.path.basename(d) for d in args.decks)})\n\n"
                    f"```\n{json.dumps(summary, indent=1)}\n```\n\n| seed | manaplan seat | phase pays: winner, "
                    f"turns, life | manaplan pays: winner, turns, life |\n|---|---|---|---|\n" +
                    "".join(f"| {p['seed']} | {p['seat']} | {p['phase']} | {p['manaplan']} |\n" for p in pairs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
