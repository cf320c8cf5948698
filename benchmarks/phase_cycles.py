"""Where a greedy decision's time goes inside real games: CPU cycles per step, by the counter.

``decision_mix.py --time`` times each decision hot (repeated on its unchanged state), which
halves its cost: caches and branch predictors are warm and a repeated search is skipped. This
script measures the steps as games play them. It checks ``--rev`` out into a temporary git
worktree, adds timers there (never to the working tree: ``TIMERS`` below, each inserted at a
named line of source, and the script stops if a line has moved), and plays ``--games`` greedy
games on one thread. A timer reads the CPU's cycle counter (``llvm.readcyclecounter`` through a
Numba ``@intrinsic``, about 25 cycles a read, so the smallest rows are upper bounds) and adds
the cycles since the previous read to a per-step total in a buffer outside the kernels. It
prints, per step, cycles a call, calls a decision and the share of the loop's time; then each
step's cycles per decision split by what the decision chose (END after the character acted, END
without acting, an attack, a move, anything else), since a decision that ends the turn runs
other steps than one that attacks; with ``--split ability``, by the deciding character's ability
instead (a costly scorer of one effect shows up there). The timed build compiles afresh (a
private cache): about three minutes.

    python benchmarks/phase_cycles.py [--games 2000] [--rev HEAD] [--split outcome|ability]

docs/performance.md (stop 42) has the first table it printed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# the timers' module, written into the worktree as sim/_cycles.py
CYCLES = '''
import numpy as np
from llvmlite import ir
from numba import carray, njit
from numba.core import cgutils, types
from numba.extending import intrinsic

from sim.catalogue import effect_row
from sim.engine.rules.actions import _attack_base, _move_base
from sim.engine.state import fields as L

# the abilities' effect codes (0 none .. the last an ability may carry: OP_REVIVE) and a short
# label of each
ABILITY_OPS = effect_row.OP_REVIVE + 1
OP_LABELS = tuple(next((name.removeprefix("OP_").lower() for name in effect_row.OP_NAMES
                        if getattr(effect_row, name) == o), str(o)) for o in range(ABILITY_OPS))

SLOTS = 96  # step timers below 64; from SPLIT_SLOT, one per group of decisions
SPLIT_SLOT = 64
BY_ABILITY = False  # (instrument writes True here for --split ability)
# the groups decisions are split into: what a decision chose (_outcome), or with BY_ABILITY the
# deciding character's ability (2 * effect code + whether its flag is set: _group)
OUTCOMES = 2 * ABILITY_OPS if BY_ABILITY else 5
OUTCOME_NAMES = (tuple(f"{OP_LABELS[o // 2]}{'+' if o % 2 else ''}" for o in range(OUTCOMES))
                 if BY_ABILITY else ("end, acted", "end, not acted", "attack", "move", "other"))
# bank 0: cycles per step, then calls per step, over all decisions; banks 1..OUTCOMES: the same
# over the decisions of one outcome; the last bank: the decision under way (settle)
BUF = np.zeros((OUTCOMES + 2) * 2 * SLOTS, np.int64)
ADDR = BUF.ctypes.data  # baked into the machine code: the build's cache is private


@intrinsic
def rdtsc(typingctx):
    def codegen(context, builder, signature, args):
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.IntType(64), []),
                                            "llvm.readcyclecounter")
        return builder.call(fn, [])
    return types.int64(), codegen


@intrinsic
def _pointer(typingctx, address):
    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], ir.IntType(64).as_pointer())
    return types.CPointer(types.int64)(types.int64), codegen


@njit(inline="always")
def tadd(k, t0):
    t = rdtsc()
    b = carray(_pointer(ADDR), (OUTCOMES + 2) * 2 * SLOTS)
    now = (OUTCOMES + 1) * 2 * SLOTS
    b[k] += t - t0
    b[SLOTS + k] += 1
    b[now + k] += t - t0
    b[now + SLOTS + k] += 1
    return t


@njit(inline="always")
def settle(bank):
    """Add the decision under way to ``bank`` (1..OUTCOMES) and start the next one at zero."""
    b = carray(_pointer(ADDR), (OUTCOMES + 2) * 2 * SLOTS)
    now = (OUTCOMES + 1) * 2 * SLOTS
    for k in range(2 * SLOTS):
        b[bank * 2 * SLOTS + k] += b[now + k]
        b[now + k] = 0


@njit(inline="always")
def _group(a, had_acted, ability, n, m):
    """The group of a decision, 0..OUTCOMES-1 (``OUTCOME_NAMES``): its outcome or, with
    BY_ABILITY, the character's ability."""
    if BY_ABILITY:
        return min(ability, OUTCOMES - 1)
    return _outcome(a, had_acted, n, m)


@njit(inline="always")
def _outcome(a, had_acted, n, m):
    """What a decision chose, 0..4 (END split by whether the character had acted)."""
    if a == L.END:
        return 0 if had_acted else 1
    if _move_base(n, m) <= a < _move_base(n, m) + n:
        return 3
    if _attack_base(n, m) <= a < _attack_base(n, m) + m:
        return 2
    return 4
'''

IMPORT = "from sim._cycles import SPLIT_SLOT, _group, rdtsc, settle, tadd\n"

# step id -> name, in the order printed
STEPS = {
    20: "legal (all)", 0: "  mask clear", 1: "  hand-over", 2: "  reach search (moves)",
    3: "  ability", 4: "  sighted (all)", 58: "    may reach", 59: "    sight search",
    60: "    loop over entities", 5: "  items", 6: "  interactables", 7: "  water",
    21: "greedy's choice (all)", 9: "  conceal", 10: "  pick-up", 11: "  best act",
    50: "    attacks", 51: "    abilities", 52: "    items", 53: "    summon", 54: "    tile actions",
    12: "  first striker", 13: "  best position", 14: "    threats", 15: "    position bases",
    16: "    boardable", 17: "    staying and the bound", 18: "    full walk",
    55: "    teleport", 56: "    launch", 57: "    water-rolls",
    22: "apply (all)", 23: "  the action: end", 24: "  the action: other",
    25: "  after-action tiles", 26: "  advance", 27: "    turn starts", 28: "    next actor",
    29: "    GM turn", 30: "    rotation ends",
}


# (file, old text, new text): each old text must occur exactly once
TIMERS = [
    ("sim/ai/play.py",
     "    while g.over == 0:\n        count = _legal(st, S, mask)\n",
     "    while g.over == 0:\n        t0 = rdtsc()\n        began = t0\n"
     "        had_acted = st.ent.acted[g.cur] != 0\n"
     "        ability = 2 * st.ent.ab_op[g.cur] + (st.ent.ab_flag[g.cur] != 0)\n"
     "        count = _legal(st, S, mask)\n"
     "        t0 = tadd(20, t0)\n"),
    ("sim/ai/play.py",
     "            a = _choose(st, s3, mask, count, policies[3], budgets[3])\n"
     "        _apply(st, S, a)\n",
     "            a = _choose(st, s3, mask, count, policies[3], budgets[3])\n"
     "        t0 = tadd(21, t0)\n        _apply(st, S, a)\n        t0 = tadd(22, t0)\n"
     "        group = _group(a, had_acted, ability, st.kind.shape[0], st.ent.shape[0])\n"
     "        tadd(SPLIT_SLOT + group, began)\n        settle(1 + group)\n"),
    ("sim/ai/play.py",
     "    hidden = _conceal(st, st.ent.team[st.game.cur])\n    if policy == L.GREEDY:",
     "    t = rdtsc()\n    hidden = _conceal(st, st.ent.team[st.game.cur])\n"
     "    t = tadd(9, t)\n    if policy == L.GREEDY:"),
    ("sim/engine/rules/legal.py",
     "    mask[:] = False\n    mask[L.END] = True\n",
     "    t = rdtsc()\n    mask[:] = False\n    mask[L.END] = True\n    t = tadd(0, t)\n"),
    ("sim/engine/rules/legal.py",
     "    count += _legal_moves(st, S, c, mask, _move_base(n, m))\n"
     "    found, tk, ar, summon = _legal_ability(st, S, c, mask)\n"
     "    count += found + _legal_sighted(st, S, c, mask, tk, ar, summon)\n"
     "    count += _legal_items(st, S, c, mask, _item_base(n, m))\n"
     "    count += _legal_interact(st, S, c, mask, _interact_base(n, m))\n"
     "    count += _legal_water(st, S, c, mask, _water_base(n, m))\n",
     "    t = tadd(1, t)\n"
     "    count += _legal_moves(st, S, c, mask, _move_base(n, m))\n    t = tadd(2, t)\n"
     "    found, tk, ar, summon = _legal_ability(st, S, c, mask)\n    t = tadd(3, t)\n"
     "    count += found + _legal_sighted(st, S, c, mask, tk, ar, summon)\n    t = tadd(4, t)\n"
     "    count += _legal_items(st, S, c, mask, _item_base(n, m))\n    t = tadd(5, t)\n"
     "    count += _legal_interact(st, S, c, mask, _interact_base(n, m))\n    t = tadd(6, t)\n"
     "    count += _legal_water(st, S, c, mask, _water_base(n, m))\n    t = tadd(7, t)\n"),
    ("sim/engine/rules/legal.py",
     "    steps = max(reach, ar, wreach)",
     "    t = rdtsc()\n    steps = max(reach, ar, wreach)"),
    ("sim/engine/rules/legal.py",
     "    sight = _sight_from(st, S, here, steps)\n",
     "    t = tadd(58, t)\n    sight = _sight_from(st, S, here, steps)\n    t = tadd(59, t)\n"),
    ("sim/engine/rules/legal.py",
     "            mask[base + e] = True  # \"A Teammate refers to a Character that is on your "
     "Team\"\n            count += 1\n    return count\n",
     "            mask[base + e] = True  # \"A Teammate refers to a Character that is on your "
     "Team\"\n            count += 1\n    t = tadd(60, t)\n    return count\n"),
    ("sim/ai/greedy.py",
     "    pick = _item_pickup(st, S, c, mask)",
     "    t = rdtsc()\n    pick = _item_pickup(st, S, c, mask)"),
    ("sim/ai/greedy.py",
     "    if pick >= 0:\n        return pick\n",
     "    t = tadd(10, t)\n    if pick >= 0:\n        return pick\n"),
    ("sim/ai/greedy.py",
     "    best_a = _best_act(st, S, c, mask)\n    if best_a >= 0:\n        return best_a\n"
     "    first = _first_striker(st, S, c, mask)",
     "    t = rdtsc()\n    best_a = _best_act(st, S, c, mask)\n    t = tadd(11, t)\n"
     "    if best_a >= 0:\n        return best_a\n"
     "    first = _first_striker(st, S, c, mask)\n    t = tadd(12, t)"),
    ("sim/ai/greedy.py",
     "    return _best_position(st, S, c, mask)\n",
     "    t = rdtsc()\n    r = _best_position(st, S, c, mask)\n    t = tadd(13, t)\n"
     "    return r\n"),
    ("sim/ai/greedy.py",
     "    enemy_r, enemy_c, cpu = _threats(st, S, c)\n"
     "    bonus = _pos_base(st, S, c)  # once per decision",
     "    t = rdtsc()\n    enemy_r, enemy_c, cpu = _threats(st, S, c)\n    t = tadd(14, t)\n"
     "    bonus = _pos_base(st, S, c)  # once per decision"),
    ("sim/ai/greedy.py",
     "    scored = True\n    if spaces[0] == ref",
     "    t = tadd(15, t)\n    scored = True\n    t = tadd(16, t)\n    if spaces[0] == ref"),
    ("sim/ai/greedy.py",
     "        scored = _walk_may_win(bonus, tile_pos, spaces, mask, _move_base(n, m), here + 1e-9)\n",
     "        scored = _walk_may_win(bonus, tile_pos, spaces, mask, _move_base(n, m), here + 1e-9)\n"
     "    t = tadd(17, t)\n"),
    ("sim/ai/greedy.py",
     "    best, best_a = here + 1e-9, L.END\n",
     "    t = tadd(18, t)\n    best, best_a = here + 1e-9, L.END\n"),
    ("sim/ai/greedy.py",
     "    k = decision.interactable\n    if k >= 0 and _is_launch(S.tile_fx, k):",
     "    t = tadd(55, t)\n    k = decision.interactable\n    if k >= 0 and _is_launch(S.tile_fx, k):"),
    ("sim/ai/greedy.py",
     "    # water-rolls while the streak is free",
     "    t = tadd(56, t)\n    # water-rolls while the streak is free"),
    ("sim/ai/greedy.py",
     "    if _move_speed(ent, c) <= 0 or not scored:",
     "    t = tadd(57, t)\n    if _move_speed(ent, c) <= 0 or not scored:"),
    ("sim/ai/greedy.py",
     "    if ent.acted[c] == 0:\n        attack = _attack_base(n, m)",
     "    t = rdtsc()\n    if ent.acted[c] == 0:\n        attack = _attack_base(n, m)"),
    ("sim/ai/greedy.py",
     "    if ent.ab_used[c] == 0 and ent.ab_target[c] != L.T_SPACE:\n",
     "    t = tadd(50, t)\n    if ent.ab_used[c] == 0 and ent.ab_target[c] != L.T_SPACE:\n"),
    ("sim/ai/greedy.py",
     "    best, best_a = _best_item_use(st, S, c, mask, best, best_a)\n",
     "    t = tadd(51, t)\n    best, best_a = _best_item_use(st, S, c, mask, best, best_a)\n"
     "    t = tadd(52, t)\n"),
    ("sim/ai/greedy.py",
     "    sc, a = _best_tile_action(st, S, c, mask)  # interactables, tile_control (tile_values)\n",
     "    t = tadd(53, t)\n"
     "    sc, a = _best_tile_action(st, S, c, mask)  # interactables, tile_control (tile_values)\n"
     "    t = tadd(54, t)\n"),
    ("sim/engine/rules/turn.py",
     "    if ent.space[c] >= 0:  # (placing comes before the turn",
     "    t = rdtsc()\n    if ent.space[c] >= 0:  # (placing comes before the turn"),
    ("sim/engine/rules/turn.py",
     "    _after_action_tiles(st, S)  # \"Every entity standing in a frozen tile is frozen too\"\n"
     "    g.cur = -1\n    _advance(st, S)\n",
     "    t = tadd(23 if action == L.END else 24, t)\n"
     "    _after_action_tiles(st, S)  # \"Every entity standing in a frozen tile is frozen too\"\n"
     "    t = tadd(25, t)\n    g.cur = -1\n    _advance(st, S)\n    t = tadd(26, t)\n"),
    ("sim/engine/rules/turn.py",
     "                _begin_turn(st, S, team)\n                g.phase = 1\n"
     "            c = _next_actor(st, team)\n",
     "                t = rdtsc()\n                _begin_turn(st, S, team)\n"
     "                t = tadd(27, t)\n                g.phase = 1\n"
     "            t = rdtsc()\n            c = _next_actor(st, team)\n            t = tadd(28, t)\n"),
    ("sim/engine/rules/turn.py",
     "            _gm_turn(st, S)\n            if g.over != 0:\n                return\n"
     "            _end_rotation(st, S)\n",
     "            t = rdtsc()\n            _gm_turn(st, S)\n            t = tadd(29, t)\n"
     "            if g.over != 0:\n                return\n"
     "            _end_rotation(st, S)\n            t = tadd(30, t)\n"),
]


def instrument(tree: Path, split: str) -> None:
    """Write the timers into the source tree ``tree``; stop if a line they go to has moved."""
    cycles = CYCLES.replace("BY_ABILITY = False", f"BY_ABILITY = {split == 'ability'}", 1)
    (tree / "sim" / "_cycles.py").write_text(cycles, encoding="utf-8")
    texts: dict[str, str] = {}
    for name, old, new in TIMERS:
        text = texts.setdefault(name, (tree / name).read_text(encoding="utf-8"))
        if text.count(old) != 1:
            sys.exit(f"phase_cycles.py: {name}: the line a timer goes to occurs "
                     f"{text.count(old)} times (the source moved; update TIMERS):\n{old}")
        texts[name] = text.replace(old, new)
    for name, text in texts.items():
        anchor = "from sim._jit import njit\n"
        (tree / name).write_text(text.replace(anchor, anchor + IMPORT, 1), encoding="utf-8")


def child(games: int) -> None:
    """In the timed tree: play the games on one thread and print the table."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import numpy as np
    from games import _teams, _world

    from sim._cycles import BUF, BY_ABILITY, OUTCOME_NAMES, OUTCOMES, SLOTS, SPLIT_SLOT
    from sim.ai.play import play_many
    from sim.engine.state import fields as L

    cat, stacked, cards = _world(8)
    teams = _teams(cat, 2026, 0, games)
    play_many(stacked, cards, np.arange(8) % 8, teams[:8], 2026, policies=[L.GREEDY] * 4)
    BUF[:] = 0  # the warm-up's steps (and its compile) are not counted
    play_many(stacked, cards, np.arange(games) % 8, teams, 2026, policies=[L.GREEDY] * 4)
    banks = BUF.reshape(OUTCOMES + 2, 2 * SLOTS)
    total = banks[0]
    decisions = total[SLOTS + 20]
    loop = total[20] + total[21] + total[22]
    print(f"{games} greedy games on one thread, {decisions / games:.0f} decisions a game, "
          f"{loop / decisions:,.0f} cycles a decision")
    print(f"{'step':32s} {'cycles a call':>14s} {'calls a decision':>17s} {'share':>7s}")
    for k, name in STEPS.items():
        calls = total[SLOTS + k]
        per_call = total[k] / calls if calls else 0.0
        print(f"{name:32s} {per_call:14,.0f} {calls / decisions:17.3f} {total[k] / loop:7.1%}")
    counts = [banks[1 + o][SLOTS + SPLIT_SLOT + o] for o in range(OUTCOMES)]
    shown = [o for o in range(OUTCOMES) if counts[o] > 0]
    print("\ncycles a decision in each step, by "
          + ("the deciding character's ability (+: its flag set)" if BY_ABILITY
             else "what the decision chose"))
    print(f"{'step':32s}" + "".join(f"{OUTCOME_NAMES[o]:>15s}" for o in shown))
    print(f"{'  share of decisions':32s}" + "".join(f"{counts[o] / decisions:15.1%}"
                                                  for o in shown))
    print(f"{'  share of cycles':32s}"
          + "".join(f"{banks[1 + o][SPLIT_SLOT + o] / loop:15.1%}" for o in shown))
    for k, name in STEPS.items():
        print(f"{name:32s}" + "".join(f"{banks[1 + o][k] / counts[o]:15,.0f}" for o in shown))
    print(f"{'whole decision':32s}" + "".join(
        f"{banks[1 + o][SPLIT_SLOT + o] / counts[o]:15,.0f}" for o in shown))

def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("--split", choices=("outcome", "ability"), default="outcome",
                    help="split the decisions by what they chose (default) or by the deciding "
                         "character's ability")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.games)
        return
    with tempfile.TemporaryDirectory(prefix="bwlab-cycles-") as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree),
                        args.rev], check=True)
        try:
            instrument(tree, args.split)
            env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_NUM_THREADS="1",
                       BWLAB_JIT_CACHE=str(Path(tmp) / "cache"),
                       NUMBA_CACHE_DIR=str(Path(tmp) / "cache"))
            print(f"timing {args.rev} (compiling the timed build: about three minutes)",
                  file=sys.stderr)
            subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child",
                            "--games", str(args.games)], cwd=tree, env=env, check=True)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                           check=False)


if __name__ == "__main__":
    main()
