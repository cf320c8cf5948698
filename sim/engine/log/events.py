"""The game log: events written by the kernels as integer rows, read back as JSON with the rule
each one applies.

Why integer rows: kernels cannot build strings; a row ``kind, rotation, a..f`` costs nothing when
logging is off (``g.log == 0``) and the same seed always writes the same rows, so a log is a
reproducible record (golden traces diff it).
"""

from __future__ import annotations

import json

import numpy as np

from sim._jit import njit
from sim.catalogue.abilities import EFFECTS
from sim.combat.star import COLOUR_NAMES

from sim.engine.state import fields as L
from sim.engine.log.tile_events import TILE_EVENT_NAMES, TILE_EVENTS, tile_text


@njit(inline="always")
def _log(st, kind, a, b, c, d, e, f):
    g = st.game
    if g.log == 0:
        return
    i = g.nev
    if i >= st.ev.shape[0]:
        g.ev_lost += 1
        return
    row = st.ev[i]
    row[L.EVC_KIND] = kind
    row[L.EVC_ROTATION] = g.rotation
    row[L.EVC_ARGS] = a  # a..f: the arguments in order, named per kind in EVENTS
    row[L.EVC_ARGS + 1] = b
    row[L.EVC_ARGS + 2] = c
    row[L.EVC_ARGS + 3] = d
    row[L.EVC_ARGS + 4] = e
    row[L.EVC_ARGS + 5] = f
    g.nev = i + 1


# kind -> (name, argument names, rule applied)
EVENTS = {
    L.EV_TURN: ("turn", ("team",), "The game is paced in a format called \"Rotations\" ... "
                                   "starting with Team 1"),
    L.EV_PLACE: ("placement", ("entity", "space"),
                 "At the beginning of your first turn, your entire team must be placed into your "
                 "Spawn"),
    L.EV_MOVE: ("move", ("entity", "from", "to", "cost"),
                "It costs 1 speed to move onto an adjacent space"),
    L.EV_ATTACK: ("attack", ("attacker", "defender", "colour", "attacks", "tier", "threshold"),
                  "To initiate an attack, the defender must be within both the range and the line "
                  "of sight of the attacker"),
    L.EV_ROLL: ("roll", ("attacker", "defender", "attacks", "threshold", "hits"),
                "If the roll is more than your defense stat plus 2, that attack is considered a Hit"),
    L.EV_DAMAGE: ("damage", ("attacker", "defender", "hits", "faces", "damage", "health"),
                  "You roll the Damage Dice as many times as your Attack Hit"),
    L.EV_RETALIATE: ("retaliation", ("attacker", "defender", "colour", "attacks", "tier",
                                     "threshold"),
                     "A CPU that has an attack listed always retaliates"),
    L.EV_DEATH: ("death", ("entity", "by", "cause", "space"),
                 "one causes Entities Health Points to Reach 0. This Act causes them to Die"),
    L.EV_ELIMINATED: ("elimination", ("team",),
                      "A team is Eliminated once all of its characters are dead"),
    L.EV_REVEAL: ("reveal", ("reason", "apocalypse"),
                  "The Apocalypse is revealed under any one of three circumstances"),
    L.EV_APOC_START: ("apocalypse begins", ("apocalypse",),
                      "the Apocalypse takes its place and progresses every rotation where the GM "
                      "Turn would be"),
    L.EV_APOC_HOLD: ("apocalypse held", ("entity", "held", "needed"),
                     "It continues until it is resolved by the players meeting its condition"),
    L.EV_APOC_RESOLVED: ("apocalypse resolved", ("apocalypse", "team", "entity"),
                         "It continues until it is resolved by the players meeting its "
                         "condition"),
    L.EV_HAND: ("hand over", ("entity", "to", "left"),
                "A player may choose to end their turn before using all of their actions (house: "
                "the team chooses its characters' order, rulings.md)"),
    L.EV_ANNOUNCE: ("announcement", ("position",),
                    "The tile coordinate to be destroyed is announced on the GM Turn"),
    L.EV_DESTROY: ("destruction", ("position",),
                   "Anything in a tile that is destroyed is removed from the game"),
    L.EV_TILE_DAMAGE: ("tile-wide damage", ("entity", "damage", "health", "by"),
                       "Flat damage applies straight to a health pool and is not affected by "
                       "defense"),
    L.EV_GM_TURN: ("GM turn", (), "After Team 4 finishes their turn, the GM must carry out the GM "
                                  "Turn"),
    L.EV_ROTATION: ("rotation", ("rotation",),
                    "The GM Turn finishing signifies the end of a rotation, at which point the GM "
                    "updates the Rotation Counter"),
    L.EV_END: ("game over", ("winner", "reason"),
               "you win by being the only team with characters left alive and on the board"),
    L.EV_ABILITY: ("ability", ("user", "effect", "target", "charges_left"),
                   "Every ability belongs to one of the 11 ability types set out in the Ability "
                   "Index"),
    L.EV_HEAL: ("heal", ("by", "entity", "healed", "shield", "health"),
                "Healing increases current health towards, and up to, its maximum value. Shield "
                "is healing that is allowed to go beyond maximum health"),
    L.EV_STATE: ("state", ("entity", "state", "until", "by", "stat", "change"),
                 "An effect that lasts any amount of turns or rotations is counted from the "
                 "moment that created it"),
    L.EV_REVIVE: ("revive", ("by", "entity", "space"),
                  "A revived character returns at full health"),
    L.EV_TELEPORT: ("teleport", ("entity", "from", "to"),
                    "any unique movement granted by abilities"),
    L.EV_WATER_ROLL: ("water-roll", ("entity", "from", "to", "face", "success", "wall"),
                      "A water-roll is a D-6 roll where 1 to 3 is a fail and 4 to 6 is a success"),
    L.EV_SUBMERGED: ("submerged", ("entity", "space"),
                     "On a failure, the Entity who attempted the roll is Submerged"),
    L.EV_FALL: ("fall", ("entity", "from", "to", "face", "damage"),
                "Whenever damage is allocated to a fighter that is within ½\" of the edge of a "
                "platform or climbing a ladder ... On a 1: The fighter falls"),
    # special entities (sim/engine/entities/special.py)
    L.EV_SPAWN: ("spawn", ("entity", "by", "space", "kind"),
                 "Minions are spawned on any space within both the range and the line of sight of "
                 "their creator"),
    L.EV_VANISH: ("vanish", ("entity", "because", "kind", "space"),
                  "all of a character's minions disappear if that character is killed"),
    L.EV_BOARD: ("board", ("entity", "vehicle", "space"),
                 "If a character is on the same space as an unoccupied vehicle, they can board "
                 "that vehicle"),
    L.EV_ALIGHT: ("alight", ("entity", "vehicle", "space"),
                  "a character inside a vehicle can still be attacked directly"),
    L.EV_DRIVE: ("drive", ("vehicle", "pilot", "from", "to", "cost"),
                 "Vehicle speed is entirely separate and distinct from character speed"),
    L.EV_WEAPON: ("vehicle action", ("pilot", "vehicle", "target"),
                  "Using that action spends both the pilot's action and the vehicle's action for "
                  "the turn"),
    # group attacks (sim/engine/rules/attack.py)
    L.EV_GROUP: ("group attack", ("attacker", "target", "attackers", "declared"),
                 "Multiple of your characters can choose to attack the same target at once, this "
                 "is called a \"Group Attack\""),
    L.EV_GROUP_LATE: ("group attack, target gone", ("entity", "target", "spent", "dead"),
                      "Once an attack has started, there is no going back (house: rules.toml "
                      "[group_attack] order)"),
}
EVENTS.update({  # items (sim/engine/items/holding.py, use.py, item_effects.py)
    L.EV_ITEM_GAIN: ("item gained", ("entity", "item", "how", "space", "slot"),
                     "When an item is gained or picked up, it cannot be used immediately"),
    L.EV_ITEM_ACTIVE: ("item active", ("entity", "item", "slot"),
                       "A character must End their Turn with an Item in order to use it"),
    L.EV_ITEM_USE: ("item used", ("user", "item", "target", "slot"),
                    "An item that is used up is applied only to the individual character who "
                    "used it"),
    L.EV_ITEM_DROP: ("item dropped", ("entity", "item", "space", "why", "row"),
                     "A character can drop any held item onto their current space"),
    L.EV_ITEM_DAMAGE: ("flat damage", ("entity", "damage", "health", "by"),
                       "Flat damage applies straight to a health pool and is not affected by "
                       "defense"),
})
ITEM_DROPS = ("drops", "dies and drops", "loses")  # holding.DROPPED, ON_DEATH, LOST
EVENTS.update(TILE_EVENTS)  # the tile functions' events (sim/engine/log/tile_events.py)
EVENT_NAMES = frozenset(name for name, _, _ in EVENTS.values())  # Game.named_events
STATES = {L.FROZEN: "frozen", L.INVISIBLE: "invisible", L.BUFF: "buffed", L.DEBUFF: "de-buffed"}
STATS = ("speed", "range", "defense", "attacks", "advantage", "invincibility")
CAUSES = {L.BY_ATTACK: "attack", L.BY_RETALIATION: "retaliation",
          L.BY_DESTRUCTION: "destroyed coordinate", L.BY_TILE_DAMAGE: "tile-wide damage",
          L.BY_ABILITY: "ability", L.BY_APOCALYPSE: "the Apocalypse",
          L.BY_FIRE_WALL: "fire wall", L.BY_FALL: "fall", L.BY_ITEM: "item"}
REVEALS = {L.BY_DEATHS: "characters dead", L.BY_ROTATION: "rotation reached",
           L.BY_ELIMINATION: "a team eliminated"}


# the rule a game's end rests on, by its reason: a stalemate win cited "the only team with
# characters left" where another team's summon still stood (the watching audit of stop 78)
END_RULES = {
    L.STALEMATE: "a stalemate will occur, and the tie will be broken by determining which team "
                 "has the most total health remaining (house ruling stalemate_rotations: that "
                 "many whole rotations without harm, docs/rulings.md)",
    L.CAP: "not in the book: a simulated game must end; after the rotation cap the team with the "
           "most total health remaining wins, as in a stalemate (house ruling rotation_cap, "
           "docs/rulings.md)",
    L.SIMULTANEOUS: "not in the book: when the last teams fall in one step, the team with the "
                    "highest collective health just before it wins (house ruling "
                    "simultaneous_tiebreak, docs/rulings.md)",
}


def decode(rows: np.ndarray, labels: list[str], apocalypse_names: tuple[str, ...],
           item_names: tuple[str, ...] = (), tiles=()) -> list[dict]:
    """Integer rows → JSON-ready dicts with names, a sentence and the rule quoted
    (``item_names``: ``catalogue.items.names``, else items read "item K"; ``tiles``:
    ``catalogue.tiles``, whose names name tiles and their rewards and interactables, else
    tiles read "tile K")."""
    out = named(rows)
    for ev, row in zip(out, rows):
        ev["text"] = _text(ev["event"], ev, labels, apocalypse_names, item_names, tiles)
        ev["rule"] = EVENTS[int(row[L.EVC_KIND])][2]
        if int(row[L.EVC_KIND]) == L.EV_END:
            ev["rule"] = END_RULES.get(int(ev["reason"]), ev["rule"])
    return out


def named(rows: np.ndarray) -> list[dict]:
    """Integer rows → one dict per event by its fields' names (``EVENTS``), without words:
    ``{"event": "attack", "rotation": 3, "attacker": 4, "defender": 9, ...}``. Tests and tools
    read events this way (``ev["defender"]``), never by column number."""
    out = []
    for row in rows:
        name, args, _ = EVENTS[int(row[L.EVC_KIND])]
        ev = {"event": name, "rotation": int(row[L.EVC_ROTATION])}
        ev.update(zip(args, (int(x) for x in row[L.EVC_ARGS:])))
        out.append(ev)
    return out


def _who(labels, e):
    return labels[e] if 0 <= e < len(labels) else "the Apocalypse"


def _pos(p):
    return f"({p // 7},{p % 7})"


def _text(name, ev, labels, apocs, items=(), tiles=()) -> str:
    """The event's sentence: its entry in :data:`SENTENCES` (items and tile functions have
    their own tables), or its name."""
    w = lambda k: _who(labels, ev[k])  # noqa: E731
    if name.startswith("item") or name == "flat damage":
        return _item_text(name, ev, w, items, labels)
    if name in SENTENCES:
        return SENTENCES[name](ev, w, apocs, labels)
    if name in TILE_EVENT_NAMES:
        return tile_text(name, ev, w, tiles)
    return name


def _attack(name, ev, w) -> str:
    verb = "retaliates against" if name == "retaliation" else "attacks"
    return (f"{w('attacker')} {verb} {w('defender')}: {ev['attacks']} attacks, "
            f"{COLOUR_NAMES[ev['colour']]} point, tier {ev['tier']}, hits on > {ev['threshold']}")


def _ability(ev, w, labels) -> str:
    effect = EFFECTS[ev["effect"] - 1] if 1 <= ev["effect"] <= len(EFFECTS) else "?"
    on = "" if ev["target"] >= len(labels) else f" on {w('target')}"
    return f"{w('user')} uses its ability ({effect}){on}"


def _stat_change(ev) -> str:
    """What a buff or de-buff does: a stat's change ("defense +2"), or the state it gives, which
    changes no stat column (a +0 read as a use that did nothing; the designer audit of stop 81):
    advantage, disadvantage (a de-buff of the advantage stat), invincibility."""
    if ev["stat"] == L.STAT_ADVANTAGE:
        return "disadvantage" if ev["state"] == L.DEBUFF else "advantage"
    if ev["stat"] == L.STAT_INVINCIBLE:
        return "invincibility"
    return f"{STATS[ev['stat']]} {ev['change']:+d}"


def _state(ev, w) -> str:
    what = STATES.get(ev["state"], "?")
    if ev["state"] in (L.BUFF, L.DEBUFF) and ev["until"]:
        what += f" ({_stat_change(ev)})"
    count, clock = divmod(ev["until"], L.CLOCKS)
    until = ("permanent" if count >= L.NEVER_COUNT  # (a tile's buff: timed_states._expiry)
             else f"until rotation {count}" if clock == L.ROT_CLOCK
             else f"until Team {clock + 1}'s turn {count} begins")
    return (f"{w('entity')} is {what} by {w('by')} ({until})" if ev["until"]
            else f"{w('entity')} is no longer {what}")


def _water_roll(ev, w) -> str:
    """A water-roll, or a crossing that needs none (face 0): "crosses water freely" (it read
    "freely for water ...: crosses", no verb; the watching audit of stop 78)."""
    what = ("crosses" if ev["success"] else "fails") + (" a wall" if ev["wall"] else "")
    if ev["face"] == 0:
        return f"{w('entity')} {what} water freely {ev['from']} -> {ev['to']}"
    return f"{w('entity')} rolls {ev['face']} for water {ev['from']} -> {ev['to']}: {what}"


def _spawn(ev, w) -> str:
    where = f"on space {ev['space']}" if ev["space"] >= 0 else "to be placed in the Spawn"
    return f"{w('entity')} enters play through {w('by')}, {where}"


def _game_over(ev) -> str:
    who = f"Team {ev['winner'] + 1} wins" if ev["winner"] >= 0 else "a draw"
    return f"game over: {who} ({L.REASON_NAMES[ev['reason']]})"


# name -> (event fields, w: an entity field's label, Apocalypse names, labels) -> its sentence;
# one line per kind of event (the items' and the tile functions' have tables of their own)
SENTENCES = {
    "turn": lambda ev, w, a, lb: f"Team {ev['team'] + 1} begins its turn",
    "placement": lambda ev, w, a, lb: f"{w('entity')} is placed on space {ev['space']}",
    "move": lambda ev, w, a, lb: (f"{w('entity')} moves {ev['from']} -> {ev['to']} for "
                                  f"{ev['cost']} speed"),
    "attack": lambda ev, w, a, lb: _attack("attack", ev, w),
    "retaliation": lambda ev, w, a, lb: _attack("retaliation", ev, w),
    "roll": lambda ev, w, a, lb: f"defense dice: {ev['hits']} of {ev['attacks']} attacks hit",
    "damage": lambda ev, w, a, lb: (f"{ev['hits']} damage dice (D{ev['faces']}) deal "
                                    f"{ev['damage']}; {w('defender')} has "
                                    f"{max(ev['health'], 0)} health"),
    "death": lambda ev, w, a, lb: f"{w('entity')} dies ({CAUSES.get(ev['cause'], '?')})",
    "elimination": lambda ev, w, a, lb: f"Team {ev['team'] + 1} is eliminated",
    "reveal": lambda ev, w, a, lb: (f"the Apocalypse is revealed ({REVEALS[ev['reason']]}): "
                                    f"{a[ev['apocalypse']]}"),
    "apocalypse begins": lambda ev, w, a, lb: f"{a[ev['apocalypse']]} begins",
    "apocalypse held": lambda ev, w, a, lb: (f"{w('entity')} holds the Apocalypse tile at this "
                                             f"GM Turn ({ev['held']} of {ev['needed']} in a row)"),
    "apocalypse resolved": lambda ev, w, a, lb: (
        f"Team {ev['team'] + 1} resolves {a[ev['apocalypse']]} ({w('entity')} held its tile): "
        f"the GM Turn operates as normal again"),
    "hand over": lambda ev, w, a, lb: (f"{w('entity')} hands the turn to {w('to')} "
                                       f"({ev['left']} hand-overs left)"),
    "announcement": lambda ev, w, a, lb: (f"coordinate {_pos(ev['position'])} will be destroyed "
                                          f"on the next GM Turn"),
    "destruction": lambda ev, w, a, lb: (f"coordinate {_pos(ev['position'])} is destroyed and "
                                         f"becomes void"),
    "tile-wide damage": lambda ev, w, a, lb: (f"{w('entity')} takes {ev['damage']} tile-wide "
                                              f"damage ({max(ev['health'], 0)} left)"),
    "ability": lambda ev, w, a, lb: _ability(ev, w, lb),
    "heal": lambda ev, w, a, lb: (f"{w('by')} heals {w('entity')} by {ev['healed']} "
                                  f"(+{ev['shield']} shield); {ev['health']} health"),
    "state": lambda ev, w, a, lb: _state(ev, w),
    "revive": lambda ev, w, a, lb: f"{w('by')} revives {w('entity')} on space {ev['space']}",
    "teleport": lambda ev, w, a, lb: f"{w('entity')} teleports {ev['from']} -> {ev['to']}",
    "water-roll": lambda ev, w, a, lb: _water_roll(ev, w),
    "submerged": lambda ev, w, a, lb: f"{w('entity')} is submerged beside space {ev['space']}",
    "fall": lambda ev, w, a, lb: (f"{w('entity')} falls {ev['from']} -> {ev['to']} (rolled "
                                  f"{ev['face']}): {ev['damage']} damage"),
    "spawn": lambda ev, w, a, lb: _spawn(ev, w),
    "vanish": lambda ev, w, a, lb: f"{w('entity')} leaves play with {w('because')}",
    "board": lambda ev, w, a, lb: f"{w('entity')} boards {w('vehicle')} on space {ev['space']}",
    "alight": lambda ev, w, a, lb: f"{w('entity')} leaves {w('vehicle')} on space {ev['space']}",
    "drive": lambda ev, w, a, lb: (f"{w('pilot')} drives {w('vehicle')} {ev['from']} -> "
                                   f"{ev['to']} for {ev['cost']} of its speed"),
    "group attack": lambda ev, w, a, lb: (f"{w('attacker')} declares a group attack on "
                                          f"{w('target')} ({ev['attackers']} attackers)"),
    "group attack, target gone": lambda ev, w, a, lb: (
        (f"{w('target')} is already dead" if ev["dead"]
         else f"{w('target')} is out of {w('entity')}'s range or line of sight")
        + f": {w('entity')} {'spends' if ev['spent'] else 'keeps'} its action"),
    "vehicle action": lambda ev, w, a, lb: (f"{w('pilot')} attacks {w('target')} through "
                                            f"{w('vehicle')}'s weapon"),
    "GM turn": lambda ev, w, a, lb: "the GM Turn",
    "rotation": lambda ev, w, a, lb: f"the Rotation Counter reaches {ev['rotation']}",
    "game over": lambda ev, w, a, lb: _game_over(ev),
}


def _item_text(name, ev, w, items, labels) -> str:
    k = ev.get("item", -1)
    what = items[k] if 0 <= k < len(items) else f"item {k}"
    if name == "item gained":
        how = "picks up" if ev["how"] == 0 else "gains"
        return f"{w('entity')} {how} {what} (space {ev['space']}; usable after ending a turn)"
    if name == "item active":
        return f"{w('entity')} ends its turn holding {what}: it is now usable"
    if name == "item used":
        t = ev["target"]
        on = (f" on space {t - len(labels)}" if t >= len(labels)
              else "" if t == ev["user"] else f" on {w('target')}")
        return f"{w('user')} uses {what}{on}"
    if name == "item dropped" and ev["entity"] < 0:
        return f"{what} appears on space {ev['space']}"
    if name == "item dropped":
        where = ("(no room on the board: it leaves the game)" if ev["why"] == 2
                 else f"on space {ev['space']}")
        return f"{w('entity')} {ITEM_DROPS[ev['why']]} {what} {where}"
    return (f"{w('entity')} takes {ev['damage']} flat damage from {w('by')} "
            f"({max(ev['health'], 0)} left)")


def to_jsonl(events: list[dict]) -> str:
    return "".join(json.dumps(e, ensure_ascii=False, sort_keys=False) + "\n" for e in events)
