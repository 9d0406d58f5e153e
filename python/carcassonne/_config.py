"""The configuration keywords shared by :class:`~carcassonne.Game` and the environments.

Every front end takes ``players, sets, edition, rules, figures`` as in the record
format's ``setup`` object and hands them to ``carcassonne._core``, which validates them
and raises :class:`~carcassonne.errors.InvalidConfigError` naming the field.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence, TypedDict

from .errors import InvalidConfigError


class GameConfig(TypedDict):
    """The game configuration keywords of ``carcassonne._core.Game`` and ``VectorEnv``."""

    players: int
    sets: Optional[Sequence[str]]
    edition: Optional[str]
    rules: Optional[Mapping[str, Any]]
    figures: Optional[Mapping[str, int]]


def game_config(
    players: int,
    sets: Optional[Sequence[str]],
    edition: Optional[str],
    rules: Optional[Mapping[str, Any]],
    figures: Optional[Mapping[str, int]],
) -> GameConfig:
    """The configuration keywords, to be passed on as ``**game_config(...)``."""
    return {"players": players, "sets": sets, "edition": edition, "rules": rules, "figures": figures}


def checked_render_mode(render_mode: Optional[str], modes: Sequence[str]) -> Optional[str]:
    """``render_mode`` if it is ``None`` or one of ``modes``; else
    :class:`~carcassonne.errors.InvalidConfigError`."""
    if render_mode is not None and render_mode not in modes:
        raise InvalidConfigError(f"render_mode: {render_mode!r}; one of {', '.join(modes)} or None")
    return render_mode
