"""``manaplan deck lands``: the best mana base for a deck's spells, proposed from
Karsten's source counts and chosen by exact simulation.

1. **Needs** (:func:`needs`): for each color, the most sources any of the deck's nonland
   cards wants under Karsten's 2022 preset (``sources.fewest_sources``: its mana value and
   its symbols of that color, for this deck size and land count), and how many copies
   want it.
2. **Proposals** (:func:`proposals`): CP-SAT over how many of each land of the pool: the
   land count, four copies of a nonbasic land at most (CR 100.2a), each color's sources;
   maximise each color's worth (for its number of sources, the copies of the cards
   wanting it times Karsten's chance of each on curve: a concave table, so no color is
   left far short for another's last few points; a one-drop counted on the lands that
   cast it on turn one alone: no tapland, slow land or filter land) less a price for lands
   that enter tapped (always: 2, on a condition: 1) times a factor tried at several values,
   each a proposal. Beside them, :func:`karsten_base`: Karsten's counts met with the pool's
   lands, duals included. The pool, the colors and the deck are read in name order: any
   order of them gives the same proposals and the same games.
3. **Choice** (:func:`choose`): the deck's own base, a base built by hand from Karsten's
   counts (basic lands split by the colors' needs) and the proposals, each played on the
   same games (the same seed: common random numbers; lands listed first, so the spells
   sit at the same places of every library), scored per game by ``curve_score``: the
   copies-weighted share of nonland cards castable on curve as players mean it. The
   best mean wins; its gain over the deck's base and the hand-built one is the mean of
   the paired per-game differences with a 95% interval.
"""

from __future__ import annotations

import math
import time

from .analyze import Z95, report
from .decklist import COMMANDER, MAIN, SIDEBOARD, Decklist, Entry
from .engine import CHUNK, LOCAL, run
from ..model.errors import RequestError
from .formats import BASIC, COMMANDER as COMMANDER_FORMAT, CONSTRUCTED, LIMITED, policy_rules
from .simulate import DeckModel, Policy
from .sources import color_symbols, curve_turn, fewest_sources

#: the factors of the price of a tapped land tried, each a proposal
TAPPED_PRICES = (0, 1, 3, 10, 30)
#: the most copies of a card that isn't a basic land (CR 100.2a)
MOST_COPIES = 4


def land_counts(text: str | None) -> tuple | None:
    """``"24"`` -> (24,), ``"23-25"`` -> (23, 24, 25); None -> None (the deck's own)."""
    if not text:
        return None
    low_text, _, high_text = str(text).partition("-")
    try:
        low, high = int(low_text), int(high_text or low_text)
    except ValueError:
        raise RequestError(f"--lands is a count or a range like 23-25, not {text!r}", "lands") from None
    if not 1 <= low <= high <= 100:
        raise RequestError("--lands must be 1 to 100, the low end first", "lands")
    return tuple(range(low, high + 1))


#: how far a proposal's deck may be from the deck's own size, in cards (``--lands``)
SIZE_SLACK = 5


def _check_land_counts(counts: tuple, size: int, own_lands: int, format: str) -> None:
    """A RequestError unless every land count leaves a deck near the deck's own size: a
    proposal is the deck's nonland cards and that many lands (``--lands 60`` on a 60-card
    deck would play 98-card decks), within :data:`SIZE_SLACK` cards of it, at least 40 in
    limited; a commander deck's size is fixed (CR 903.5a): its land count too."""
    spells = size - own_lands
    low, high = max(1, size - SIZE_SLACK - spells), size + SIZE_SLACK - spells
    if format == LIMITED:
        low = max(low, 40 - spells)
    if format == COMMANDER_FORMAT:
        low = high = own_lands
    if not all(low <= n <= high for n in counts):
        allowed = f"{low}" if low == high else f"{low} to {high}"
        raise RequestError(f"--lands must be {allowed} for this deck: a proposal is its {spells} nonland cards and "
                           f"the lands, a deck of {size} cards give or take {SIZE_SLACK}" +
                           (" (a commander deck holds 100 cards, CR 903.5a)" if format == COMMANDER_FORMAT else ""),
                           "lands")


def needs(model: DeckModel, lands: int) -> dict:
    """{color: (sources wanted, copies of the cards wanting the color, [(mana value,
    symbols of the color, copies)] of those cards)} for the deck's nonland cards (plain
    symbols of one color; hybrid and Phyrexian symbols left out)."""
    size = sum(model.copies)
    out: dict = {}
    for c in model.measured:
        value = curve_turn(model, c)
        for color, n in color_symbols(model, c)[1].items():
            wanted = fewest_sources(size, lands, value, n)
            wanted = lands if wanted is None else wanted
            have, copies, cards = out.get(color, (0, 0, []))
            out[color] = (max(have, wanted), copies + model.copies[c], cards + [(value, n, model.copies[c])])
    return out


def _value_table(size: int, lands: int, cards: list) -> list:
    """For 0..lands sources of a color: the copies of the cards wanting it times the
    chance each is cast on curve (``sources.probability``), in thousandths: the worth of
    each further source falls as the chance nears one."""
    from .sources import probability

    return [round(1000 * sum(copies * (probability(size, lands, s, value, n) if s >= n else 0.0)
                             for value, n, copies in cards)) for s in range(lands + 1)]


def _tapped_price(rule, fetch=None) -> int:
    """2 for a land that always enters tapped (a bounce land too, a fetch land whose land
    enters tapped), 1 for one that may (Fabled Passage's), else 0."""
    if fetch is not None and fetch.tapped:
        return 1 if fetch.untap_with_lands else 2
    if rule.kind == "tapped" or rule.returns_land:
        return 2
    return 0 if rule.kind in ("untapped", "pay_life") else 1


#: how a land may enter that leaves it untapped on turn one whatever else is there: a
#: source for the deck's one-drops on curve (a tapland, a slow or check land, a snarl is not)
_UNTAPPED_ON_TURN_ONE = ("untapped", "pay_life", "unless_few")


def early_source(pool: DeckModel, i: int, color: str) -> bool:
    """Whether land ``i`` of the pool casts a one-drop of ``color`` on turn one alone:
    untapped then (:data:`_UNTAPPED_ON_TURN_ONE`) and making the color with no other
    mana (a filter land needs another land's mana first)."""
    if i in pool.fetches:  # (what it finds, untapped)
        rule, finds = pool.fetches[i]
        return not rule.tapped and any(early_source(pool, j, color) for j in finds)
    return color in pool.makes_alone[i] and pool.enters[i].kind in _UNTAPPED_ON_TURN_ONE


def _sources(m, pool: DeckModel, count: dict, lands: int) -> tuple:
    """Each color's sources in the base, as model variables: (all of them, those that
    cast a one-drop on turn one: :func:`early_source`). A fetch land is a source of a
    color only where the base holds a land it finds that makes it (:func:`_fetched_counts`)."""
    colors = sorted({c for i in count for c in pool.makes[i]})
    every = {c: m.new_int_var(0, lands, f"sources_{c}") for c in colors}
    early = {c: m.new_int_var(0, lands, f"early_{c}") for c in colors}
    fetched = _fetched_counts(m, pool, count, lands, colors)
    for c in colors:
        m.add(every[c] == sum(count[i] for i in sorted(count) if i not in pool.fetches and c in pool.makes[i])
              + sum(fetched[i, c, False] for i in sorted(count) if (i, c, False) in fetched))
        m.add(early[c] == sum(count[i] for i in sorted(count) if i not in pool.fetches and early_source(pool, i, c))
              + sum(fetched[i, c, True] for i in sorted(count) if (i, c, True) in fetched))
    return every, early


def _fetched_counts(m, pool: DeckModel, count: dict, lands: int, colors: list) -> dict:
    """{(fetch land, color, for a one-drop): its count where the base holds a land it
    finds making that color (untapped then, for a one-drop), else 0}; and no more fetch
    lands in all than lands they find."""
    fetches = [i for i in sorted(count) if i in pool.fetches]
    if not fetches:
        return {}
    present = {}
    for j in sorted(count):
        present[j] = m.new_bool_var(f"has_{pool.names[j]}")
        m.add(count[j] >= 1).only_enforce_if(present[j])
        m.add(count[j] == 0).only_enforce_if(present[j].Not())
    found = sorted({j for i in fetches for j in pool.fetches[i][1] if j in count})
    m.add(sum(count[i] for i in fetches) <= sum(count[j] for j in found))
    out = {}
    for i in fetches:
        rule, finds = pool.fetches[i]
        for c in colors:
            for one_drop in (False, True):
                makers = [j for j in finds if j in count and (early_source(pool, j, c) and not rule.tapped
                                                              if one_drop else c in pool.makes[j])]
                if not makers:
                    continue
                has = m.new_bool_var(f"finds_{c}_{i}_{one_drop}")
                m.add_max_equality(has, [present[j] for j in makers])
                y = m.new_int_var(0, lands, f"fetch_{c}_{i}_{one_drop}")
                m.add(y == count[i]).only_enforce_if(has)
                m.add(y == 0).only_enforce_if(has.Not())
                out[i, c, one_drop] = y
    return out


def _counts(m, pool: DeckModel, candidates: list, lands: int, most_copies: int) -> dict:
    """How many of each land of the pool, by name's order (the model is the same for any
    order of the pool or the deck: the same proposals), the land count in all."""
    order = sorted(candidates, key=lambda i: pool.names[i])
    count = {i: m.new_int_var(0, lands if pool.names[i] in BASIC else min(most_copies, lands), pool.names[i])
             for i in order}
    m.add(sum(count.values()) == lands)
    return count


def _solved(m, pool: DeckModel, count: dict) -> dict | None:
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = 10
    if solver.Solve(m) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    return {pool.names[i]: solver.Value(v) for i, v in count.items() if solver.Value(v)}


def proposals(pool: DeckModel, candidates: list, lands: int, wanted: dict, size: int, prices=TAPPED_PRICES,
              most_copies: int = MOST_COPIES) -> list:
    """Bases ({land name: count}) maximising, by CP-SAT, the colors' worth less each price
    of tapped lands; distinct, in the order found. A color's worth is ``_value_table``
    of its sources (Karsten's chance of each card on curve, by copies), its one-drops'
    counted on the sources that cast them on turn one (:func:`early_source`: no
    tapland, slow land or filter land), its other cards' on all its sources."""
    from ortools.sat.python import cp_model

    found = []
    for price in prices:
        m = cp_model.CpModel()
        count = _counts(m, pool, candidates, lands, most_copies)
        every, early = _sources(m, pool, count, lands)
        worth: list = []
        for color in sorted(wanted):
            _, _, cards = wanted[color]
            for sources, group in ((early, [c for c in cards if c[0] <= 1]), (every, [c for c in cards if c[0] > 1])):
                if not group or color not in sources:
                    continue
                table = _value_table(size, lands, group)
                value = m.new_int_var(0, max(table), f"worth_{color}_{len(worth)}")
                m.add_element(sources[color], table, value)
                worth.append(value)
        tapped = sum(_tapped_price(pool.enters[i], pool.fetches.get(i, (None,))[0]) * v for i, v in count.items())
        m.maximize(sum(worth) - price * tapped)
        base = _solved(m, pool, count)
        if base is not None and base not in found:
            found.append(base)
    return found


def karsten_base(pool: DeckModel, candidates: list, lands: int, wanted: dict,
                 most_copies: int = MOST_COPIES) -> dict | None:
    """The base a player builds from Karsten's counts with the pool's lands, duals
    included: each color's sources up to the count it wants (its one-drops' counted on
    the sources that cast them on turn one), then as few lands that enter tapped as
    may be, then more sources; None where no base is found."""
    from ortools.sat.python import cp_model

    m = cp_model.CpModel()
    count = _counts(m, pool, candidates, lands, most_copies)
    every, early = _sources(m, pool, count, lands)
    met = []
    for color in sorted(wanted):
        need, _, cards = wanted[color]
        sources = early if any(value <= 1 for value, _, _ in cards) else every
        if color not in sources:
            continue
        reached = m.new_int_var(0, lands, f"met_{color}")
        m.add_min_equality(reached, [sources[color], min(need, lands)])
        met.append(reached)
    tapped = sum(_tapped_price(pool.enters[i], pool.fetches.get(i, (None,))[0]) * v for i, v in count.items())
    m.maximize(1000 * sum(met) - 10 * tapped + sum(every[c] for c in sorted(every) if c in wanted))
    return _solved(m, pool, count)


def hand_built(wanted: dict, lands: int, available=None) -> dict:
    """The base a player builds from Karsten's counts with basic lands: the land count
    split among the colors in proportion to the sources each wants (largest remainders)."""
    basic = {"W": "Plains", "U": "Island", "B": "Swamp", "R": "Mountain", "G": "Forest"}
    total = sum(need for need, _, _ in wanted.values()) or 1
    shares = {color: lands * need / total for color, (need, _, _) in wanted.items()}
    base = {color: int(share) for color, share in shares.items()}
    by_remainder = sorted(shares, key=lambda c: (base[c] - shares[c], "WUBRG".index(c)))  # (ties in WUBRG order)
    for color in by_remainder[:lands - sum(base.values())]:
        base[color] += 1
    built = {basic[color]: n for color, n in base.items() if n}
    missing = [name for name in built if available is not None and name not in available]
    if missing:
        raise RequestError(f"the card data has no {', '.join(missing)}: the base built by hand from Karsten's counts "
                           f"is of basic lands (give a card file with them)", "cards")
    return built


def decklist_with(deck: Decklist, base: dict, is_land) -> Decklist:
    """The deck with its lands replaced by ``base``: the lands first, then the deck's other
    cards, each by name (so the games' libraries line up, whatever the order of the deck)."""
    spells = tuple(sorted((e for e in deck.main if not is_land(e.name)), key=lambda e: (e.name, e.count)))
    lands = tuple(Entry(n, name, MAIN) for name, n in sorted(base.items()))
    return Decklist(lands + spells + tuple(e for e in deck.entries if e.section == COMMANDER))


def choose(deck: Decklist, cards: dict, pool_cards: dict | None = None, lands: tuple | None = None, games: int = 4000,
           seed=0, on: str = "play", turns: int | None = None, engine: str = LOCAL, workers: int | None = None,
           address: str | None = None, progress=None, chunk: int = CHUNK, format: str = CONSTRUCTED,
           weights: dict | None = None, total=None) -> dict:
    """The report of ``deck lands``: every base tried with its score and 95% interval,
    the best one as a decklist, and its paired gain over the deck's base and the
    hand-built one. ``pool_cards``: the cards whose lands may be chosen (default: the
    lands of ``cards``); ``weights``: {card name: weight} in the score, in place of its
    copies; ``total(n)`` is told how many games the run plays, once the bases are known."""
    if not 1 <= games <= 10_000_000:
        raise RequestError("'games' must be 1 to 10,000,000", "games")
    started = time.perf_counter()
    model = DeckModel.build(deck, cards)
    own = {model.names[i]: model.copies[i] for i, land in enumerate(model.is_land) if land}
    counts = lands or (sum(own.values()),)
    _check_land_counts(counts, deck.main_count, sum(own.values()), format)
    colors = set(needs(model, counts[0]))
    if not colors:
        raise RequestError("the deck's spells have no colored symbol: any lands cast them alike, nothing to choose",
                           "decklist")
    pool_cards = {**cards, **(pool_cards or {})}
    pool, skipped = _pool(pool_cards, colors)
    is_land = set(own) | set(pool.names)
    turns = turns or min(8, max([max(1, model.mana_value[c]) for c in model.measured] or [1]))
    unknown = sorted(set(weights or ()) - {model.names[c] for c in model.measured})
    if unknown:
        raise RequestError(f"a weight for a card that isn't among the deck's nonland cards: {', '.join(unknown)}",
                           "weights")
    if any(not isinstance(w, (int, float)) or w < 0 for w in (weights or {}).values()):
        raise RequestError("weights are numbers, 0 or more", "weights")
    policy = Policy(turns=turns, on=on, scored=True, weights=tuple(sorted((weights or {}).items())),
                    **policy_rules(format))
    most = 1 if format == COMMANDER_FORMAT else MOST_COPIES
    bases = [("the deck's own", own)]
    for count in counts:
        wanted = needs(model, count)
        candidates = [i for i, _ in enumerate(pool.names)]
        suffix = f" ({count} lands)" if len(counts) > 1 else ""
        bases.append((f"hand-built from Karsten's counts{suffix}", hand_built(wanted, count, set(pool.names))))
        duals = karsten_base(pool, candidates, count, wanted, most_copies=most)
        if duals is not None:
            bases.append((f"Karsten's counts with the pool's lands{suffix}", duals))
        size = sum(model.copies) - sum(own.values()) + count
        bases += [(f"proposal {k + 1}{suffix}", base)
                  for k, base in enumerate(proposals(pool, candidates, count, wanted, size, most_copies=most))]
    wanted = needs(model, sum(own.values()))

    def play(base, on_seed):
        decklist = decklist_with(deck, base, is_land.__contains__)
        tally = run(decklist, pool_cards, policy, games, on_seed, engine, workers, address, progress=progress,
                    chunk=chunk)
        return decklist, tally, [s for _, s in sorted(tally.scores)]

    distinct = len({tuple(sorted(base.items())) for _, base in bases})
    if total is not None:  # (the bases played, then the best and up to two others on fresh games)
        total(games * (distinct + min(3, distinct)))
    tried, played = [], {}
    for label, base in bases:
        key = tuple(sorted(base.items()))
        if key not in played:  # (a base met twice is played once: the same games, the same scores)
            played[key] = play(base, seed)
        decklist, tally, scores = played[key]
        score, interval = _mean_interval(scores)
        tried.append({"label": label, "base": base, "scores": scores, "score": score, "ci95": interval,
                      "report": report(DeckModel.build(decklist, pool_cards), policy, tally, seed, engine, workers,
                                       0.0)})
    best = max(tried, key=lambda e: e["score"])
    # the gains measured again on games none of the choice saw (the best of several, scored on the games it was
    # chosen by, would look better than it is)
    fresh = f"{seed}:confirm"
    confirm = {label: play(base, fresh)[2] for label, base in
               [(best["label"], best["base"])] + [(t["label"], t["base"]) for t in tried[:2] if t is not best]}
    out = {"games": games, "seed": seed, "on": on, "format": format, "turns": turns, "lands": list(counts),
           "weights": dict(policy.weights),
           "needs": {color: {"sources": need, "copies": copies} for color, (need, copies, _) in wanted.items()},
           "tried": [], "best": best["label"],
           # (its sideboard kept: the decklist as the player pastes it back, only its lands changed)
           "decklist": str(Decklist(decklist_with(deck, best["base"], is_land.__contains__).entries + tuple(
               e for e in deck.entries if e.section == SIDEBOARD))),
           "gain": {}, "confirmed_on": fresh, "skipped_lands": skipped, "seconds": None}
    for entry in tried:
        out["tried"].append({"label": entry["label"], "base": entry["base"], "score": round(entry["score"], 6),
                             "ci95": entry["ci95"],
                             "on_curve": {c["name"]: c["on_curve"] for c in entry["report"]["cards"]}})
    for other in tried[:2]:
        out["gain"][other["label"]] = ({"mean": 0.0, "ci95": [0.0, 0.0]} if other["base"] == best["base"] else
                                       _paired(confirm[best["label"]], confirm[other["label"]]))
    out["seconds"] = round(time.perf_counter() - started, 1)
    return out


def _pool(pool_cards: dict, colors: set) -> tuple:
    """(the pool's lands that make one of ``colors``, as a DeckModel; the names of the
    lands left out because their text about entering isn't understood, with why)."""
    readable, skipped = {}, {}
    for name, card in pool_cards.items():
        if "Land" not in (card.get("type_line") or "").split(" // ")[0]:
            continue
        try:
            one = DeckModel.build(Decklist((Entry(1, name, MAIN),)), {name: card})
        except RequestError as e:
            skipped[name] = e.message
            continue
        if one.makes[0] & colors or one_fetch_colors(card) & colors:
            readable[name] = card
    if not readable:
        raise RequestError(f"no land of the pool makes {', '.join(sorted(colors))}", "pool")
    names = sorted(readable)  # (the pool in name order: the same proposals for any order it was given in)
    return DeckModel.build(Decklist(tuple(Entry(1, name, MAIN) for name in names)), readable), skipped


_BASIC_COLOR = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}


def one_fetch_colors(card: dict) -> set:
    """The colors a fetch land may find a land of, read from its text alone (a "basic
    land card" search: every color); empty for a land that is no fetch."""
    from ..model.fetch import fetch_rule

    try:
        rule = fetch_rule(str(card.get("oracle_text") or ""), card.get("name", ""))
    except RequestError:
        return set()
    if rule is None:
        return set()
    return {_BASIC_COLOR[t] for t in rule.types} if rule.types else set(_BASIC_COLOR.values())


def _mean_interval(values: list, low: float = 0.0, high: float = 1.0) -> tuple:
    """The mean and its 95% interval (normal, clipped to what the values can be)."""
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n)
    return mean, [round(max(low, mean - half), 6), round(min(high, mean + half), 6)]


def _paired(mine: list, theirs: list) -> dict:
    """The mean of the per-game differences (the same games) with its 95% interval."""
    mean, interval = _mean_interval([a - b for a, b in zip(mine, theirs)], -1.0, 1.0)
    return {"mean": round(mean, 6), "ci95": interval}


def table(result: dict) -> str:
    """The report in words: each base tried, the best as a decklist, its gains."""
    lines = [f"Mana bases tried on the same {result['games']:,} games ({'-'.join(map(str, result['lands'][::max(1, len(result['lands']) - 1)]))} lands, on the {result['on']}, "
             f"seed {result['seed']}); score: the share of nonland cards (by copies) castable on curve",
             "Sources wanted (Karsten 2022): " + ", ".join(f"{v['sources']} {c}" for c, v in result["needs"].items())]
    for t in result["tried"]:
        base = ", ".join(f"{n} {name}" for name, n in sorted(t["base"].items(), key=lambda kv: -kv[1]))
        lines.append(f"  {100 * t['score']:5.2f}% [{100 * t['ci95'][0]:5.2f}, {100 * t['ci95'][1]:5.2f}]  "
                     f"{t['label']}: {base}")
    lines.append(f"Best: {result['best']}; its gains measured again on {result['games']:,} other games "
                 f"(seed {result['confirmed_on']!r}):")
    for label, gain in result["gain"].items():
        lines.append(f"  gain over {label}: {100 * gain['mean']:+.2f} points "
                     f"(95% interval {100 * gain['ci95'][0]:+.2f} to {100 * gain['ci95'][1]:+.2f})")
    lines.append(result["decklist"].rstrip())
    for name, why in result["skipped_lands"].items():
        lines.append(f"left out of the pool: {name} ({why})")
    lines.append(f"({result['seconds']} s)")
    return "\n".join(lines)
