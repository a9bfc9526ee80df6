"""Cards as Scryfall gives them: a card object (https://scryfall.com/docs/api/cards), given
as ``{"id": ..., "card": OBJECT, ...state}`` or pasted whole (it has ``"object": "card"``),
turned into the protocol's own permanent or spell fields before anything else reads it.

Only the fields that bear on paying are read: ``name``, ``mana_cost``, ``type_line``,
``oracle_text``, ``colors``, ``keywords``, ``layout`` and ``card_faces``; every other field
of a card object (prices, image_uris, legalities, artist, ...) is Scryfall's and ignored,
whatever it is. The protocol's own fields beside it (``tapped``, ``counters``, ``x``, ...)
are read as usual and stay strict.

Faces (CR 709, 711, 712, 715): a permanent is its front face unless ``face`` says
otherwise (modal double-faced and transforming permanents, flip cards; an adventurer on
the battlefield is its creature, CR 715.4); a split card or an adventure cast as a spell
is the half ``face`` names, which must be given (CR 709.3, 715.3), or both halves with
``"fuse": true`` on a split card with Fuse (CR 702.102: the total cost is both halves'
mana costs, and the spell has both halves' characteristics). Card objects cut down to
their top level, and the protocol's own objects, may write two faces with ``//`` in
``name``, ``mana_cost``, ``type_line`` (and ``"\\n//\\n"`` in ``oracle_text``).

>>> forest = {"object": "card", "id": "b34bb2dc", "name": "Forest", "type_line": "Basic Land — Forest",
...           "oracle_text": "({T}: Add {G}.)", "mana_cost": "", "prices": {"usd": "0.10"}, "instance": "f1"}
>>> permanent_fields(forest, "permanents[0]")["id"], permanent_fields(forest, "")["type_line"]
('f1', 'Basic Land — Forest')
"""

from __future__ import annotations

import re

from .protocol.common import expect, join

#: what marks a pasted card object
CARD_OBJECT = "card"
#: the card fields read; every other field of a card object is ignored
CARD_FIELDS = ("name", "mana_cost", "type_line", "oracle_text", "colors")
#: the protocol's fields of a permanent or spell given beside (or inside, pasted) a card:
#: its state and the choices made for it
PERMANENT_STATE = ("tapped", "summoning_sick", "counters", "chosen_color", "snow", "attached_to", "abilities",
                   "triggers", "face", "chosen_type", "exiled_colors")
SPELL_CHOICES = ("x", "additional", "increase", "reduce", "minimum", "value", "kicker", "kicked", "multikicker",
                 "kicks", "alternative_cost", "face", "fuse", "convoke", "improvise", "delve", "commander",
                 "targets")
#: the fields of Scryfall's card objects (https://scryfall.com/docs/api/cards): in a pasted
#: object, a field that is neither one of these nor the protocol's, but is close to one of
#: the protocol's ("taped"), is a misspelling, not a new field of Scryfall's
SCRYFALL_FIELDS = frozenset("""
object id oracle_id multiverse_ids mtgo_id mtgo_foil_id arena_id tcgplayer_id tcgplayer_etched_id cardmarket_id
name lang released_at uri scryfall_uri layout highres_image image_status image_uris mana_cost cmc type_line
oracle_text colors color_identity color_indicator keywords produced_mana legalities games reserved game_changer
foil nonfoil finishes oversized promo reprint variation variation_of set_id set set_name set_type set_uri
set_search_uri scryfall_set_uri rulings_uri prints_search_uri collector_number digital rarity card_back_id artist
artist_ids illustration_id border_color frame frame_effects security_stamp full_art textless booster
story_spotlight edhrec_rank penny_rank prices related_uris purchase_uris card_faces all_parts power toughness
loyalty defense hand_modifier life_modifier flavor_text flavor_name watermark printed_name printed_text
printed_type_line promo_types preview content_warning attraction_lights
""".split())

#: layouts whose faces are halves cast one at a time (CR 709.3, 715.3)
HALVES = ("split", "adventure")
#: layouts whose back face is not cast (CR 711.2b, 712.8: it transforms or flips into it)
UNCAST_BACKS = ("transform", "flip", "meld", "double_faced_token")
#: the spell keywords the protocol has flags for (CR 702.51, 702.126, 702.66)
KEYWORD_FLAGS = {"Convoke": "convoke", "Improvise": "improvise", "Delve": "delve"}


def is_card(obj) -> bool:
    """Whether a permanent or spell is given as a card object (``card``, or pasted)."""
    return isinstance(obj, dict) and ("card" in obj or obj.get("object") == CARD_OBJECT)


def has_faces(obj) -> bool:
    """Whether a protocol object writes two faces with ``//`` (or chooses one)."""
    if not isinstance(obj, dict):
        return False
    if "face" in obj or "fuse" in obj:
        return True
    for k in ("name", "mana_cost", "type_line"):
        value = obj.get(k)
        if isinstance(value, str) and " // " in value:
            return True
    return False


def is_modal(entry) -> bool:
    """Whether a spell given as a card is a modal double-faced card with no ``face``
    chosen (either face may be cast or played, CR 712: Scryfall's layout
    ``modal_dfc``)."""
    if not is_card(entry) or "face" in entry:
        return False
    card = entry.get("card", entry)
    return isinstance(card, dict) and card.get("layout") == "modal_dfc" and len(card.get("card_faces") or []) == 2


def permanent_fields(entry: dict, at: str) -> dict:
    """The protocol's permanent fields for a permanent given as a card (or with faces)."""
    card, state, card_at = _split(entry, at, PERMANENT_STATE + ("id",))
    layout = card.get("layout", "")
    faces = _faces(card, card_at)
    face = _face_index(state, faces, at)
    if face is None:
        expect(layout != "split", "a split card on the battlefield: give 'face' (0 or 1)", join(at, "face"))
        face = 0
    fields = _face_fields(card, faces, face, layout, card_at)
    power = (faces[face] if faces else card).get("power", card.get("power"))
    if isinstance(power, str) and power.isdigit() and "power" not in state:  # ("*": not known, not given)
        fields["power"] = int(power)
    return _merged(state, fields, ("face",))


def spell_fields(entry: dict, at: str) -> dict:
    """The protocol's spell fields for a spell given as a card (or with faces)."""
    card, state, card_at = _split(entry, at, SPELL_CHOICES + ("id", "oracle_text", "name", "type_line", "mana_cost"))
    layout = card.get("layout", "")
    faces = _faces(card, card_at)
    fuse = state.get("fuse", False)
    expect(isinstance(fuse, bool), "'fuse' must be true or false", join(at, "fuse"))
    face = _face_index(state, faces, at)
    if fuse:
        expect(face is None, "'fuse' casts both halves: give 'fuse' or 'face', not both", join(at, "fuse"))
        expect(len(faces) == 2 and layout in ("split", ""), "only a split card is fused (CR 702.102)",
               join(at, "fuse"))
        expect("Fuse" in _keywords(card) or "Fuse" in (card.get("oracle_text") or "") or
               any("Fuse" in (f.get("oracle_text") or "") for f in faces),
               "this card has no Fuse (CR 702.102)", join(at, "fuse"))
        fields = _fused(card, faces, card_at)
    else:
        if face is None:
            expect(not faces or layout not in HALVES and layout != "",
                   f"a {layout or 'two-faced'} card cast as a spell: give 'face' (the half cast: 0 or 1)",
                   join(at, "face"))
            face = 0
        expect(face == 0 or layout not in UNCAST_BACKS,
               f"the back face of a {layout} card is not cast (it {'flips' if layout == 'flip' else 'transforms'} "
               "into it)", join(at, "face"))
        fields = _face_fields(card, faces, face, layout, card_at)
    out = _merged(state, fields, ("face", "fuse"))
    for word, flag in KEYWORD_FLAGS.items():
        if word in _keywords(card):
            out.setdefault(flag, True)
    kicker = _kicker(out.get("oracle_text", ""))
    if kicker is not None:
        out.setdefault(kicker[0], kicker[1])
    return out  # its colors as Scryfall gives them (devoid, a color indicator: CR 702.114a, 202.2e)


def _merged(state: dict, fields: dict, choices: tuple) -> dict:
    """The protocol's fields given beside the card (but the face ``choices``, now made),
    then the card's own for what they don't give."""
    out = {k: v for k, v in state.items() if k not in choices}
    for key, value in fields.items():
        out.setdefault(key, value)
    return out


def _split(entry: dict, at: str, protocol: tuple) -> tuple:
    """(the card object, the protocol's fields beside it, where the card is): ``card``
    holds the object, or the entry is the object pasted (its ``instance`` the id)."""
    if "card" in entry:
        card = entry["card"]
        card_at = join(at, "card")
        expect(isinstance(card, dict), "'card' must be a Scryfall card object", card_at)
        expect(card.get("object", CARD_OBJECT) == CARD_OBJECT, "'card' must be a Scryfall card object "
               f"(\"object\": \"card\"), not {str(card.get('object'))[:40]!r}", join(card_at, "object"))
        state = {k: v for k, v in entry.items() if k != "card"}
        return card, state, card_at
    _no_misspelt_fields(entry, protocol + ("instance",), at)
    state = {k: entry[k] for k in protocol if k in entry and k != "id"}
    for key in ("name", "type_line", "oracle_text", "mana_cost"):  # pasted: these are the card's
        state.pop(key, None)
    if "instance" in entry:
        expect(isinstance(entry["instance"], str) and entry["instance"] != "",
               "'instance' must be non-empty text: the id of this copy", join(at, "instance"))
        state["id"] = entry["instance"]
    elif "id" in entry:
        state["id"] = entry["id"]  # the printing's id: copies of one printing need an 'instance'
    return entry, state, at


def _no_misspelt_fields(entry: dict, protocol: tuple, at: str) -> None:
    """In a pasted card object, unknown fields are Scryfall's and ignored; but one that
    is close to a field of the protocol's ("taped" for "tapped") is a misspelling."""
    import difflib
    for key in entry:
        if key in protocol or key in SCRYFALL_FIELDS or not isinstance(key, str):
            continue
        close = difflib.get_close_matches(key, protocol, n=1, cutoff=0.8)
        expect(not close, f"unknown field {key!r} (did you mean {close[0]!r}?) in a pasted card object" if close
               else "", join(at, key))


def _keywords(card: dict) -> list:
    words = card.get("keywords", [])
    return [w for w in words if isinstance(w, str)] if isinstance(words, list) else []


def _faces(card: dict, at: str) -> list:
    """The card's faces: ``card_faces``, or two faces written with ``//``; [] for one."""
    if "card_faces" in card:
        faces = card["card_faces"]
        expect(isinstance(faces, list) and faces and all(isinstance(f, dict) for f in faces),
               "'card_faces' must be a list of face objects", join(at, "card_faces"))
        return faces
    if not any(isinstance(card.get(k), str) and " // " in card[k] for k in ("name", "mana_cost", "type_line")):
        return []
    halves = {}
    for key in ("name", "mana_cost", "type_line"):
        value = card.get(key)
        if isinstance(value, str) and " // " in value:
            halves[key] = value.split(" // ")
    text = card.get("oracle_text")
    if isinstance(text, str) and re.search(r"\n//\n", text):
        halves["oracle_text"] = text.split("\n//\n")
    n = {len(v) for v in halves.values()}
    expect(n == {2}, "a card written with '//' has two faces: name, mana_cost and type_line each split in two",
           at)
    for key in ("name", "mana_cost", "type_line", "oracle_text"):  # one face's field for two faces: which?
        value = card.get(key)
        how = "with a line '//'" if key == "oracle_text" else "with ' // '"
        expect(key in halves or not (isinstance(value, str) and value.strip()),
               f"'{key}' of a card written with '//' must be split in two too ({how})", join(at, key))
    return [{key: value[i] for key, value in halves.items()} for i in range(2)]


def _face_index(state: dict, faces: list, at: str):
    if "face" not in state:
        return None
    face = state["face"]
    expect(isinstance(face, int) and not isinstance(face, bool), "'face' must be 0 (front) or 1 (back)",
           join(at, "face"))
    expect(faces, "'face' is for a card with two faces (card_faces, or '//')", join(at, "face"))
    expect(0 <= face < len(faces), f"'face' must be from 0 to {len(faces) - 1}", join(at, "face"))
    return face


def _face_fields(card: dict, faces: list, face: int, layout: str, at: str) -> dict:
    """The protocol's card fields of one face (or of the card, if it has one face)."""
    if not faces:
        return card_fields(card, at)
    chosen = card_fields(faces[face], join(join(at, "card_faces"), face))
    top = card_fields(card, at)
    if "colors" not in chosen and layout in ("flip", "adventure") and "colors" in top:
        chosen["colors"] = top["colors"]  # one card, one set of colors (its faces have none of their own)
    return chosen


def _fused(card: dict, faces: list, at: str) -> dict:
    """Both halves of a fused split spell (CR 702.102c-d): both mana costs, both type
    lines, both texts."""
    left, right = (card_fields(f, join(join(at, "card_faces"), i)) for i, f in enumerate(faces))
    return {"name": f"{left.get('name', '')} // {right.get('name', '')}",
            "mana_cost": (left.get("mana_cost") or "") + (right.get("mana_cost") or ""),
            "type_line": f"{left.get('type_line', '')} // {right.get('type_line', '')}",
            "oracle_text": "\n".join(t for t in (left.get("oracle_text"), right.get("oracle_text")) if t)}


def card_fields(obj: dict, at: str) -> dict:
    """The fields of a card object (or of one face) that bear on paying (:data:`CARD_FIELDS`),
    each checked to be what Scryfall writes there; the rest is ignored."""
    out = {}
    for key in CARD_FIELDS:
        if key not in obj:
            continue
        value = obj[key]
        if key == "colors":
            expect(isinstance(value, list) and all(isinstance(c, str) for c in value),
                   "'colors' must be a list of W, U, B, R, G", join(at, key))
        else:
            expect(isinstance(value, str), f"'{key}' must be text", join(at, key))
        out[key] = value
    return out


_KICKER = re.compile(r"^(Multikicker|Kicker) ((?:\{[^}]+\})+)(?: \(|$)", re.M)


def _kicker(oracle_text: str):
    """("kicker" or "multikicker", its mana cost) from "Kicker {2}{R}" (CR 702.33), or
    None; a kicker that is not mana alone (Kicker—Sacrifice a land) is not read."""
    m = _KICKER.search(oracle_text or "")
    if not m:
        return None
    return m.group(1).lower(), m.group(2)


def front_mana_cost(card: dict) -> str:
    """The mana cost of a Scryfall card object's front face (its own ``mana_cost``, else
    its first face's; a split card's halves as Scryfall writes them, ``{1}{R} // {1}{W}``);
    "" for none: the one place a deck's cost of a card is worked out."""
    return card.get("mana_cost") or (card.get("card_faces") or [{}])[0].get("mana_cost") or ""
