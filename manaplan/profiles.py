"""Game profiles: one interface that every game's rules implement, looked up by the
request's ``game`` (as python-chess looks up its variants by name).

A profile reads a request into its problem value, answers the problem with an answer
value, and writes the answer in the protocol's shape (or explains it in words);
:func:`manaplan.api.solve` only chains the three. Magic (``"mtg"``) and Duel Masters (``"duel-masters"``) are the two.
"""

from __future__ import annotations

from typing import Any, Protocol

from .model.errors import RequestError

#: the time guard of one request, in seconds
TIME_LIMIT = 10.0


class GameProfile(Protocol):
    """What a game brings: its name in requests and the three steps of an answer."""

    name: str
    #: the queries it answers (besides ``version``, which every game answers)
    queries: tuple

    def read(self, request: dict) -> Any:
        """The request as the game's problem value; RequestError (located) if invalid."""

    def answer(self, problem: Any, time_limit: float = TIME_LIMIT) -> Any:
        """The answer value: a plan, Unpayable, Undecided (or Payable for yes/no)."""

    def write(self, problem: Any, result: Any) -> dict:
        """The answer in the protocol's shape, without the request's ``id``."""

    def explain(self, problem: Any, result: Any) -> str:
        """The answer in words, as a player follows it (``manaplan solve --explain``)."""


_PROFILES: dict = {}


def register(profile: GameProfile) -> GameProfile:
    _PROFILES[profile.name] = profile
    return profile


def _load() -> None:
    if not _PROFILES:
        from .protocol import mtg, duel_masters  # noqa: F401  (each registers itself; Magic first)


def game_names() -> tuple:
    _load()
    return tuple(_PROFILES)


def find_profile(name: Any) -> GameProfile:
    """The profile of the game ``name``; a located error for an unknown game."""
    _load()
    profile = _PROFILES.get(name) if isinstance(name, str) else None
    if profile is None:
        raise RequestError(f"unknown game {name!r}; known: {', '.join(_PROFILES)}", "game")
    return profile
