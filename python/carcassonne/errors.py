"""Exceptions raised by the package.

Every exception subclasses :class:`CarcassonneError`; those caused by bad input also
subclass :class:`ValueError`. No misuse of the package surfaces a Rust panic.
"""

from __future__ import annotations

__all__ = [
    "CarcassonneError",
    "ConcurrentUseError",
    "IllegalActionError",
    "InvalidArgumentError",
    "InvalidConfigError",
    "InvalidRecordError",
]


class CarcassonneError(Exception):
    """Base class of the package's exceptions (also: a call the game's state does not allow)."""


class IllegalActionError(CarcassonneError, ValueError):
    """An action (structured or flat id) that is not legal now, or is malformed.

    The game is unchanged.
    """


class InvalidConfigError(CarcassonneError, ValueError):
    """A bad configuration; the message starts with the field, e.g. ``players: ...``."""


class InvalidRecordError(CarcassonneError, ValueError):
    """A game record that cannot be read, or that the engine does not reproduce."""


class InvalidArgumentError(CarcassonneError, ValueError):
    """A bad argument: a seat, a buffer of the wrong dtype or shape, an id out of range."""


class ConcurrentUseError(CarcassonneError, RuntimeError):
    """A :class:`~carcassonne.VectorEnv` used from a second thread; a game changed while read.

    A ``VectorEnv`` belongs to the first thread that calls its ``reset`` or ``step``: the
    arrays it returns are its own buffers, rewritten by every call. Another thread gets
    this error (and so does a call of ``carcassonne._core.VectorEnv`` made while another
    thread's call on it runs); give each thread its own ``VectorEnv``.

    A :class:`~carcassonne.Game` raises it when Python code run while the game is being
    read (an ``__index__`` method of a number inside an action) tries to change that game.
    Reading a game during its own search (from the evaluator) and searching one game from
    several threads work: the search runs on a copy.
    """
