"""How the game log reads the tile functions' events (``fields.EV_TICKS`` .. ``EV_EXTRA_ACTION``):
their names, arguments, the rule each applies and a sentence (``events.decode``)."""

from __future__ import annotations

from sim.engine.state import fields as L

TILE_EVENTS = {
    L.EV_TICKS: ("ticks", ("entity", "tile", "ticks", "price"),
                 "Progress towards a tile reward is tracked with Ticks, counted separately for "
                 "each character"),
    L.EV_REWARD: ("tile reward", ("entity", "tile", "effect", "ticks_left"),
                  "The reward's price in ticks disappears in exchange for the reward itself"),
    L.EV_INTERACT: ("interactable", ("entity", "tile", "effect", "space"),
                    "Interactables are portions of a tile that can be interacted with by "
                    "spending an action"),
    L.EV_TILE_STATE: ("tile state", ("position", "frozen", "until", "by"),
                      "When a tile is deactivated, all functionality of that tile is paused"),
    L.EV_SWAP: ("tile swap", ("from", "to", "tile", "other", "by", "covers"),
                "the two tiles trade positions on the board while keeping their orientation"),
    L.EV_TRANSFORM: ("tile transform", ("position", "old", "new", "by"),
                     "Transforming a tile will result in an existing tile on the board being "
                     "transformed into a chosen tile that is not already in play"),
    L.EV_GAIN: ("stat gain", ("entity", "stat", "amount", "value"),
                "All buffs a tile gives you are permanent"),
    L.EV_COINS: ("coins", ("team", "change", "total", "by"),
                 "Any intangible spending power gained from a Tile can be used by any member of "
                 "your team"),
    L.EV_EXTRA_ACTION: ("extra action", ("entity", "left", "used", "turn"),
                        "one extra action next turn (a tile reward)"),
}
TILE_EVENT_NAMES = frozenset(v[0] for v in TILE_EVENTS.values())
_STATS = ("speed", "range", "defense", "attacks")


def _tile(k: int, tiles) -> str:
    """The tile of catalogue index ``k`` by its name in the game's own catalogue (``tiles``: a
    :class:`~sim.catalogue.tiles.TileCatalogue`, or its ``names``); "tile K" where the caller
    gave no names. Why not the shipped catalogue's names, as before stop 56: a game played with
    ``--cards DIR`` and other tiles printed the shipped tile of the same index."""
    names = getattr(tiles, "names", tiles)
    return names[k] if 0 <= k < len(names) else f"tile {k}"


def _function(k: int, tiles, kind: str) -> str:
    """A tile's reward or interactable (``kind``) by its own name and its tile's: "Second
    Wind, the reward of Healing Spring". tiles.toml names each function; the log printed only
    the tile's name until stop 82, so a designer could not tell which function a line meant
    when reading a log against the data file. Without a catalogue (names only) or without a
    name: "the reward of Healing Spring"."""
    own = getattr(tiles, kind, ())
    name = own[k] if 0 <= k < len(own) else ""
    where = f"the {kind} of {_tile(k, tiles)}"
    return f"{name}, {where}" if name else where


def _pos(p: int) -> str:
    return f"({p // 7},{p % 7})"


def tile_text(name: str, ev: dict, w, tiles=()) -> str:
    """The sentence of a tile event; ``w(key)`` names the entity in ``ev[key]``, ``tiles`` the
    game's tile catalogue (its tiles' and their functions' names) or only its tile names."""
    if name == "ticks":
        if ev["price"] < 0:
            return (f"{w('entity')} loses its ticks in {_tile(ev['tile'], tiles)} "
                    f"(string interrupted)")
        return f"{w('entity')} has {ev['ticks']}/{ev['price']} ticks in {_tile(ev['tile'], tiles)}"
    if name == "tile reward":
        return (f"{w('entity')} redeems {_function(ev['tile'], tiles, 'reward')} "
                f"({ev['ticks_left']} ticks left)")
    if name == "interactable":
        return (f"{w('entity')} uses {_function(ev['tile'], tiles, 'interactable')} (on space "
                f"{ev['space']})")
    if name == "tile state":
        what = "frozen" if ev["frozen"] else "deactivated"
        if ev["until"] == 0:
            return f"the tile at {_pos(ev['position'])} is no longer {what}"
        return f"{w('by')} has the tile at {_pos(ev['position'])} {what}"
    if name == "tile swap":
        verb = "covers" if ev["covers"] else "swaps with"
        return (f"{w('by')}: {_tile(ev['tile'], tiles)} at {_pos(ev['from'])} {verb} "
                f"{_tile(ev['other'], tiles)} at {_pos(ev['to'])}")
    if name == "tile transform":
        return (f"{w('by')} transforms {_tile(ev['old'], tiles)} at {_pos(ev['position'])} into "
                f"{_tile(ev['new'], tiles)}")
    if name == "stat gain":
        stat = _STATS[ev["stat"]] if 0 <= ev["stat"] < len(_STATS) else "?"
        return f"{w('entity')} gains {ev['amount']:+d} {stat} for good (now {ev['value']})"
    if name == "coins":
        return f"Team {ev['team'] + 1}'s coins change by {ev['change']:+d} to {ev['total']}"
    if name == "extra action":
        if ev["used"]:
            return f"{w('entity')} takes an extra action ({ev['left']} left)"
        return f"{w('entity')} wins an extra action for its next turn"
    return name
