"""Game profiles: one interface that every game's rules implement, looked up by the
request's ``game`` (as python-chess looks up its variants by name).

A profile reads a request into its problem value, answers the problem with an answer
value, and writes the answer in the protocol's shape (or explains it in words), each by
its query's entry in the registry (``manaplan.queries``); :func:`manaplan.api.solve`
only chains the three. Magic (``"mtg"``, :mod:`.mtg`) and Duel Masters
(``"duel-masters"``, :mod:`.duel_masters`) are the two; docs/architecture.md says how to
add a game.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..model.errors import RequestError
from ..model.plan import TIME_LIMIT


class GameProfile(Protocol):
    """What a game brings: its name in requests and the three steps of an answer."""

    name: str
    #: the queries it answers (besides ``version``, which every game answers)
    queries: tuple

    def read(self, request: dict, boards=None, parsed: bool = False) -> Any:
        """The request as the game's problem value; RequestError (located) if invalid.
        ``boards``: the boards ``serve`` keeps (:class:`manaplan.kept_boards.BoardStore`);
        ``parsed``: manaplan parsed the request from JSON text just now (its values are
        JSON's own: lists, not tuples; no NaN)."""

    def answer(self, problem: Any, time_limit: float = TIME_LIMIT, started: float | None = None) -> Any:
        """The answer value: a plan, Unpayable, Undecided (or Payable for yes/no), within
        ``time_limit`` seconds from ``started`` (``time.monotonic()``; default now)."""

    def write(self, problem: Any, result: Any) -> dict:
        """The answer in the protocol's shape, without the request's ``id``."""

    def explain(self, problem: Any, result: Any) -> str:
        """The answer in words, as a player follows it (``manaplan solve --explain``)."""


def _profiles() -> dict:
    """Every game's profile by name, Magic first (imported once, on first use: the
    profiles import nothing slow)."""
    global _PROFILES
    if _PROFILES is None:
        from .duel_masters import DuelMastersProfile
        from .mtg import MagicProfile
        _PROFILES = {p.name: p for p in (MagicProfile(), DuelMastersProfile())}
    return _PROFILES


_PROFILES: dict | None = None


def game_names() -> tuple:
    return tuple(_profiles())


def find_profile(name: Any) -> GameProfile:
    """The profile of the game ``name``; a located error for an unknown game."""
    profiles = _profiles()
    profile = profiles.get(name) if isinstance(name, str) else None
    if profile is None:
        raise RequestError(f"unknown game {name!r}; known: {', '.join(profiles)}", "game")
    return profile
