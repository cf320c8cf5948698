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

Every function is inlined: the offsets are a few integer additions. The Python side reads the
same functions through the codec at the end of this module (:func:`decode`, :func:`encode`,
:func:`action_to_string`, as OpenSpiel's games have); nothing else does offset arithmetic.
"""

from __future__ import annotations

from typing import NamedTuple

from sim._jit import njit

from sim.engine.state import fields as L


@njit(inline="always")
def _move_base(n, m):
    return 1


@njit(inline="always")
def _attack_base(n, m):
    return _move_base(n, m) + n


@njit(inline="always")
def _ability_base(n, m):
    """Ability uses on an entity (the user itself for target kinds none and self)."""
    return _attack_base(n, m) + m


@njit(inline="always")
def _ability_space_base(n, m):
    return _ability_base(n, m) + m


@njit(inline="always")
def _alt_base(n, m):
    return _ability_space_base(n, m) + n


@njit(inline="always")
def _item_base(n, m):
    return _alt_base(n, m) + m


# inside the items block: held item k (0, 1) on entity e at k * m + e, on space s at
# _item_space_offset + k * n + s, pick up floor item f at _pickup_offset + f, drop k at
# _drop_offset + k

@njit(inline="always")
def _item_space_offset(n, m):
    return 2 * m


@njit(inline="always")
def _pickup_offset(n, m):
    return _item_space_offset(n, m) + 2 * n


@njit(inline="always")
def _drop_offset(n, m):
    return _pickup_offset(n, m) + L.F_CAP


@njit(inline="always")
def _item_actions(n, m):
    return _drop_offset(n, m) + 2


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
    return int(_n_actions(n_spaces, n_entities))


# ------------------------------------------------------------------------------ the codec

class Action(NamedTuple):
    """A decoded action: its ``kind`` (a name of :data:`KINDS`), the entity, space or floor item
    it acts on (``target``; -1 for END and a drop) and the held item's slot (``slot``; -1 unless
    the action uses or drops a held item)."""

    kind: str
    target: int = -1
    slot: int = -1


# every kind of action, in action-space order (the blocks of :func:`_blocks`)
KINDS = ("end", "move", "attack", "ability", "ability_on_space", "revive_in_spawn",
         "item_on_entity", "item_on_space", "pick_up", "drop", "interact", "water_roll",
         "vehicle_weapon", "group_attack", "hand_over")
SLOTS = L.ITEM_ON - L.ITEM_SLOT  # a pool's item slots (the hand's limit is data: item_types.toml hand_limit)


def _blocks(n: int, m: int) -> list[tuple[str, int, int, int]]:
    """(kind, first action, targets per slot, slots) of every block, in order; the held-item
    kinds repeat their block once per slot."""
    item = int(_item_base(n, m))
    return [("end", 0, 1, 1), ("move", int(_move_base(n, m)), n, 1),
            ("attack", int(_attack_base(n, m)), m, 1), ("ability", int(_ability_base(n, m)), m, 1),
            ("ability_on_space", int(_ability_space_base(n, m)), n, 1),
            ("revive_in_spawn", int(_alt_base(n, m)), m, 1), ("item_on_entity", item, m, SLOTS),
            ("item_on_space", item + int(_item_space_offset(n, m)), n, SLOTS),
            ("pick_up", item + int(_pickup_offset(n, m)), L.F_CAP, 1),
            ("drop", item + int(_drop_offset(n, m)), 1, SLOTS),
            ("interact", int(_interact_base(n, m)), n, 1),
            ("water_roll", int(_water_base(n, m)), n, 1),
            ("vehicle_weapon", int(_weapon_base(n, m)), m, 1),
            ("group_attack", int(_group_base(n, m)), m, 1),
            ("hand_over", int(_hand_base(n, m)), m, 1)]


def decode(action: int, n: int, m: int) -> Action:
    """The kind, target and slot of ``action`` in a game of ``n`` spaces and ``m`` entities."""
    for kind, base, size, slots in reversed(_blocks(n, m)):
        if action >= base:
            k, target = divmod(int(action) - base, size)
            if k >= slots:
                break
            return Action(kind, -1 if kind in ("end", "drop") else target,
                          k if slots > 1 else -1)
    raise ValueError(f"action {action} is outside the action space of {n_actions(n, m)}")


def _block_of(kind: str, n: int, m: int) -> tuple[str, int, int, int]:
    for b in _blocks(n, m):
        if b[0] == kind:
            return b
    raise ValueError(f"unknown action kind {kind!r} (one of {', '.join(KINDS)})")


def encode(kind: str, n: int, m: int, target: int = -1, slot: int = -1) -> int:
    """The action number of ``kind`` on ``target`` (with held item ``slot``); inverse of
    :func:`decode`."""
    _, base, size, slots = _block_of(kind, n, m)
    target = 0 if kind in ("end", "drop") else target
    k = slot if slots > 1 else 0
    if not (0 <= target < size and 0 <= k < slots):
        raise ValueError(f"{kind}: target {target}, slot {slot} out of range")
    return base + k * size + target


def block(kind: str, n: int, m: int) -> slice:
    """The actions of ``kind`` (every slot) as a slice of the legal-action mask."""
    _, base, size, slots = _block_of(kind, n, m)
    return slice(base, base + size * slots)


WORDS = {"end": "end the turn", "move": "move to space {s}", "attack": "attack {e}",
         "ability": "use the ability on {e}", "ability_on_space": "use the ability on space {s}",
         "revive_in_spawn": "revive {e} in the Spawn",
         "item_on_entity": "use held item {k} on {e}",
         "item_on_space": "use held item {k} on space {s}",
         "pick_up": "pick up floor item {f}", "drop": "drop held item {k}",
         "interact": "use the interactable on space {s}", "water_roll": "water-roll to space {s}",
         "vehicle_weapon": "fire the vehicle's weapon at {e}", "group_attack": "group attack {e}",
         "hand_over": "hand the turn to {e}"}


def action_to_string(action: int, n: int, m: int, labels=None) -> str:
    """``action`` in words, entities by their log labels when given (``Game.labels``)."""
    a = decode(action, n, m)
    who = labels[a.target] if labels is not None and 0 <= a.target < len(labels) \
        else f"entity {a.target}"
    return WORDS[a.kind].format(s=a.target, e=who, f=a.target, k=a.slot + 1)
