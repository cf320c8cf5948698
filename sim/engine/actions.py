"""Where each kind of action sits in the flat action space (one home for the offsets).

Why flat blocks: the engine interface is OpenSpiel's (a legal-action mask over integers), and a
block per (source, target kind) keeps the space a sum, never a product, of sources and targets.
With ``n`` spaces and ``m`` entities the blocks follow one another:

| block | length | action |
|---|---|---|
| END | 1 | end the character's turn |
| move | n | move to (or be placed on) space s |
| attack | m | attack entity e |
| ability on entity | m | use the ability on e (the user itself for target kinds none, self) |
| ability on space | n | use the ability on space s |
| ability, second form | m | revive e in the Spawn (the policy chooses the spot: book) |
| items | 2m + 2n + F_CAP + 2 | use held item k on entity e / on space s; pick up floor item f; drop held item k |
| interactables | n | act on space s with the interactable within 1 range |
| water-rolls | n | cross water to space s |
| vehicle weapon | m | the pilot attacks entity e with the weapon of the vehicle it rides |
| group attack | m | declare a Group Attack on entity e (the character and its teammates who join) |
| hand over | m | give the team's turn to teammate e before doing anything (turn order) |

Every function is inlined: the offsets are a few integer additions.
"""

from __future__ import annotations

from sim._jit import njit

from . import layout as L


@njit(inline="always")
def _alt_base(n, m):
    return 1 + 2 * n + 2 * m


@njit(inline="always")
def _item_base(n, m):
    return 1 + 2 * n + 3 * m


@njit(inline="always")
def _item_actions(n, m):
    return 2 * m + 2 * n + L.F_CAP + 2


@njit(inline="always")
def _interact_base(n, m):
    return _item_base(n, m) + _item_actions(n, m)


@njit(inline="always")
def _water_base(n, m):
    return _interact_base(n, m) + n


@njit(inline="always")
def _weapon_base(n, m):
    return _water_base(n, m) + n


@njit(inline="always")
def _group_base(n, m):
    return _weapon_base(n, m) + m


@njit(inline="always")
def _hand_base(n, m):
    return _group_base(n, m) + m


@njit(inline="always")
def _n_actions(n, m):
    return _hand_base(n, m) + m


def n_actions(n_spaces: int, n_entities: int) -> int:
    """The length of the legal-action mask (Python side)."""
    return 6 * n_spaces + 8 * n_entities + L.F_CAP + 3
