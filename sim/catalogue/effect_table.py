"""Every effect of the game, defined once: one row per effect, as TAG's ``CardType`` defines a
card.

Why one table: an effect used to be spread over six files (its name and targets in
``abilities.py``, a hand-numbered opcode in ``effect_row.py``, an interpreter branch, two AI
scorers, a log sentence), and they drifted. A row here holds, in one place, its name as the data
files spell it, whose opcode block it belongs to, the target kinds and parameters it accepts,
which sources may name it, its interpreter kernel, its AI value and the event that tells it in the
game log. Everything else is derived from the table or checked against it:

- ``effect_row.py`` generates the ``OP_*`` constants (module-level ints, compile-time constants
  for Numba) from :data:`EFFECT_TABLE`;
- ``abilities.EFFECTS``/``EFFECT_TARGETS``, ``items.USABLE``/``TARGETS_OF``/``EFFECT_PARAMS``,
  ``tile_functions.TILE_EFFECTS``/``SHARED_EFFECTS`` and ``entities.ENTITY_EFFECTS`` are
  queries of the table;
- ``tests/test_effect_table.py`` resolves each row's kernel and value by name (the catalogue may
  not import the engine or the AI: layers point one way), checks that
  ``interpreter._run_effect`` dispatches the row's opcode to its kernel and
  ``values._effect_score`` to its scorer, and runs every kernel on a small game, seeing its
  event written.

How to add an effect: docs/architecture.md ("A new effect").
"""

from __future__ import annotations

from dataclasses import dataclass

# the target kinds an effect row may name (its ``target`` slot holds the index: effect_row.T_*)
TARGETS = ("none", "self", "ally", "enemy", "dead_ally", "space")
# whose opcode block an effect belongs to, and where each block starts: the opcodes are written in
# the game logs ("effect": 17), so a block keeps its numbers when another grows
FAMILY_BASE = {"ability": 1, "item": 12, "tile": 16, "entity": 24}
FAMILY_END = {"ability": 12, "item": 16, "tile": 24, "entity": 28}
SOURCES = ("ability", "item", "tile")  # who may name an effect: a card's ability type, an item, a
#                                        tile function (reward or interactable)
# the events the *caller* writes for an effect (the use itself, naming its opcode): the log text
# of an effect that writes no event of its own
CALLER_EVENTS = ("ability", "item used", "tile reward", "interactable")


@dataclass(frozen=True)
class Effect:
    """One effect. ``kernel`` is ``module:function`` under ``sim.engine.effects`` (called by
    ``interpreter._run_effect`` as ``kernel(st, S, user, target, source, row)``); ``value`` is
    ``module:function`` under ``sim.ai`` (greedy's value of it); ``log`` the name of the event
    that tells it (``sim.engine.log``); ``targets[0]`` the default target kind."""

    name: str
    family: str
    const: str
    targets: tuple[str, ...]
    params: tuple[str, ...]
    sources: tuple[str, ...]
    kernel: str
    value: str
    log: str
    does: str

    @property
    def op(self) -> int:
        """The opcode: the family's base plus the row's place among its family's rows."""
        return OPCODES[self.const]


def _e(name, family, const, targets, params, sources, kernel, value, log, does) -> Effect:
    return Effect(name, family, const, tuple(targets.split()), tuple(params.split()),
                  tuple(sources.split()), kernel, value, log, does)


_A, _I, _T, _N = "ability_effects:", "item_effects:", "tile_effects:", "entity_effects:"
_V, _TV, _EV = "values:", "tile_values:", "entity_values:"

EFFECT_TABLE: tuple[Effect, ...] = (
    # ---- abilities' effects (opcodes 1..11; the Ability Index's 11 types)
    _e("strike", "ability", "OP_STRIKE", "enemy", "bonus_attacks", "ability item",
       _A + "_run_strike", _V + "_strike_value", "attack",
       "an attack with `amount` extra attacks at the current star point"),
    _e("area", "ability", "OP_AREA", "none", "damage", "ability item",
       _A + "_run_area", _V + "_area_value", "tile-wide damage",
       "`amount` flat damage to everything in the user's tile, its own team included"),
    _e("heal", "ability", "OP_HEAL", "ally self", "amount shield range", "ability item tile",
       _A + "_run_heal", _V + "_heal_value", "heal",
       "health up to the maximum; with `flag` the excess becomes shield"),
    _e("buff", "ability", "OP_BUFF", "ally self", "stat amount duration range",
       "ability item tile", _A + "_run_buff", _V + "_buff_value", "state",
       "`stat` + `amount` for `duration` (green star)"),
    _e("debuff", "ability", "OP_DEBUFF", "enemy", "stat amount duration range", "ability item",
       _A + "_run_debuff", _V + "_debuff_value", "state",
       "`stat` - `amount` for `duration` (blue star)"),
    _e("freeze", "ability", "OP_FREEZE", "enemy", "duration range", "ability item",
       _A + "_run_freeze", _V + "_freeze_value", "state",
       "the target can do nothing for `duration`"),
    _e("invisibility", "ability", "OP_INVISIBILITY", "ally self", "duration range",
       "ability item", _A + "_run_invisibility", _V + "_invisibility_value", "state",
       "the target cannot be targeted by opponents for `duration`"),
    _e("mobility", "ability", "OP_MOBILITY", "space", "distance free_water", "ability item tile",
       _A + "_run_mobility", "greedy:_best_position", "teleport",
       "teleport to a floor space within `amount` king steps"),
    _e("summon", "ability", "OP_SUMMON", "space", "count health attacks tier clone", "ability",
       _N + "_run_summon", _EV + "_summon_value", "spawn",
       "`count` minions on a space in range and sight, or (`flag`) a 1 HP clone of the user"),
    _e("tile_control", "ability", "OP_TILE_CONTROL", "space", "mode range same_size",
       "ability tile", _T + "_run_tile_control", _TV + "_best_middle", "tile swap",
       "swap the user's tile with the tile around the target (mode 0) or transform that tile"),
    _e("revive", "ability", "OP_REVIVE", "dead_ally", "", "ability tile",
       _A + "_run_revive", _V + "_revive_value", "revive",
       "a dead teammate at full health, where it fell (else its spawn); a tile's picks the "
       "teammate by rules.toml tile_revive"),
    # ---- items' own effects (opcodes 12..14)
    _e("damage", "item", "OP_ITEM_DAMAGE", "enemy", "damage range", "item",
       _I + "_run_item_damage", _V + "_damage_value", "flat damage",
       "`amount` flat damage to the target (not affected by defense)"),
    _e("blast", "item", "OP_ITEM_BLAST", "space", "damage range", "item",
       _I + "_run_item_blast", "item_values:_best_blast", "tile-wide damage",
       "`amount` flat damage to everything in the tile of the target space"),
    _e("cleanse", "item", "OP_ITEM_CLEANSE", "self ally", "range", "item",
       _I + "_run_item_cleanse", _V + "_cleanse_value", "state",
       "ends the target's de-buff and freeze"),
    # ---- tile functions' own effects (opcodes 16..23)
    _e("gain", "tile", "OP_GAIN", "self", "stat amount", "tile",
       _T + "_run_gain", _TV + "_worth", "stat gain",
       "a permanent `amount` to `stat`, on every character of the card"),
    _e("item", "tile", "OP_ITEM_REWARD", "self", "", "tile",
       _T + "_run_item_reward", _TV + "_worth", "item gained",
       "an item, named (`stat`) or drawn uniformly"),
    _e("summon_card", "tile", "OP_TILE_SUMMON", "self", "", "tile",
       _T + "_run_tile_summon", _TV + "_worth", "spawn",
       "a Summon: a random 6th character card joins the team"),
    _e("extra_action", "tile", "OP_EXTRA_ACTION", "self", "amount", "tile",
       _T + "_run_extra_action", _TV + "_worth", "extra action",
       "`amount` extra actions in the character's next turn"),
    _e("tile_state", "tile", "OP_TILE_STATE", "space", "state duration range", "tile",
       _T + "_run_tile_state", _TV + "_best_middle", "tile state",
       "deactivate (`flag` 0) or freeze (1) the tile around the target for `duration`"),
    _e("earn", "tile", "OP_EARN", "self", "amount", "tile",
       _T + "_run_earn", _TV + "_worth", "coins", "`amount` coins for the team"),
    _e("learn", "tile", "OP_LEARN", "self", "", "tile",
       _T + "_run_learn", _TV + "_worth", "tile reward",
       "the team learns the face-down Apocalypse (the reward's or interactable's event tells it)"),
    _e("assist", "tile", "OP_TILE_ASSIST", "self", "amount", "tile",
       _T + "_run_tile_assist", _TV + "_worth", "spawn",
       "the assist character the function names (`assist`; its row as `amount`) joins the team"),
    # ---- special entities' effects (opcodes 24..25; rows written by tests and future content)
    _e("summon_card", "entity", "OP_SUMMON_CARD", "self", "", "",
       _N + "_run_summon_card", _TV + "_worth", "spawn",
       "a random 6th character card joins the user's team"),
    _e("assist", "entity", "OP_ASSIST", "self", "amount", "",
       _N + "_run_assist", _TV + "_worth", "spawn",
       "assist character number `amount` joins the user's team"),
)


def _opcodes() -> dict[str, int]:
    """``OP_NONE`` = 0 and each row's opcode (its family's base + its place in the family)."""
    out = {"OP_NONE": 0}
    seen = {f: 0 for f in FAMILY_BASE}
    for row in EFFECT_TABLE:
        op = FAMILY_BASE[row.family] + seen[row.family]
        assert op < FAMILY_END[row.family], f"{row.const}: the {row.family} block is full"
        assert row.const not in out, f"{row.const} twice"
        out[row.const] = op
        seen[row.family] += 1
    return out


OPCODES = _opcodes()


def effects_of(family: str = "", source: str = "") -> tuple[Effect, ...]:
    """The rows of one opcode block (``family``) and/or that one source may name, in table
    order."""
    return tuple(r for r in EFFECT_TABLE
                 if (not family or r.family == family) and (not source or source in r.sources))


def names_of(family: str = "", source: str = "") -> tuple[str, ...]:
    return tuple(r.name for r in effects_of(family, source))


def lookup(name: str, family: str = "", source: str = "") -> Effect:
    """The row named ``name`` (within ``family`` and/or among those ``source`` may name)."""
    for r in effects_of(family, source):
        if r.name == name:
            return r
    raise KeyError(name)


def _check() -> None:
    """Each row well formed (a mistake fails at import, naming the row)."""
    for r in EFFECT_TABLE:
        assert r.family in FAMILY_BASE, r
        assert r.targets and set(r.targets) <= set(TARGETS), r
        assert set(r.sources) <= set(SOURCES), r
        assert r.kernel.count(":") == 1 and r.value.count(":") == 1 and r.log and r.does, r
    keys = [(r.family, r.name) for r in EFFECT_TABLE]
    assert len(keys) == len(set(keys)), "an effect named twice in one family"
    for s in SOURCES:
        names = names_of(source=s)
        assert len(names) == len(set(names)), f"{s}: two effects share a name"


_check()
