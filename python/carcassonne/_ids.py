"""The one rule for action ids, shared by every front end.

An action id is an integer: a Python ``int`` or a numpy integer (a scalar, or an integer
array of one element, as policies return them); a batch is an integer array of one id
per game. Anything else (floats, even ``3.0``, bools, strings, ``None``) is refused with
:class:`~carcassonne.errors.InvalidArgumentError` and changes nothing. Whether an integer
id is *legal* is the mask's business: an id the mask does not offer is an illegal action
(:class:`~carcassonne.errors.IllegalActionError`, or the environment's illegal-action
policy).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .errors import InvalidArgumentError

__all__ = ["action_id", "action_ids"]


def _describe(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape} and dtype {value.dtype}"
    return f"{type(value).__name__} {value!r}"[:120]


def action_id(value: Any) -> int:
    """``value`` as an action id (see the module documentation)."""
    if isinstance(value, (bool, np.bool_)):
        raise InvalidArgumentError(f"action: expected an integer id, got {_describe(value)}")
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, np.ndarray) and value.size == 1 and np.issubdtype(value.dtype, np.integer):
        return int(value.reshape(()))
    raise InvalidArgumentError(f"action: expected an integer id, got {_describe(value)}")


def action_ids(values: Any, n: int) -> npt.NDArray[np.int64]:
    """``values`` as ``n`` action ids, int64 [n] (see the module documentation)."""
    a = np.asarray(values)
    if a.shape != (n,) or not np.issubdtype(a.dtype, np.integer) or a.dtype == np.bool_:
        raise InvalidArgumentError(
            f"actions: expected {n} integer ids (an integer array of shape ({n},)), got {_describe(a)}"
        )
    return a.astype(np.int64, copy=False)
