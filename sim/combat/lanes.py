"""Lane-parallel dice: many dice from one 64-bit random word, for the sampler's common case.

The sampler (:mod:`.sampler`) rolls real dice; these rollers roll several at once, each die a
lane of a random word, so that a throw of up to a dozen dice costs two or three words and
almost no branches: defense dice (a D12 by default) in seven 9-bit lanes a word, compared with
the hit threshold by one addition (:func:`_count_hits_swar`), and damage dice in six 10-bit
lanes a word (:func:`damage_dice`; dice of more than 64 faces in four 16-bit lanes,
:func:`_lane_dice`), two lanes scaled by each multiply. Rejection keeps every face exactly
equally likely. The engine rolls its attacks with the same rollers (``resolve_attack``) and reads
:func:`damage_reject` and :func:`lane_reject` for them; the small Python faces (``lane_rolls``,
``lane_throws``, ``damage_throws``, ``swar_hits``) exist for the uniformity and binomial tests.
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit
from sim.rng import next_u64, seed_states


# The fast rollers work on blocks of up to two 64-bit words with the unused lanes masked, so
# that the branches hardly depend on how many dice a row throws: a loop whose trip count follows
# the dice mispredicts once or twice per row, which costs more than drawing a word that is not
# needed. The masks come from small constant tables indexed by the number of dice in the block.
# (Measured on the benchmark's mix: the defense block always draws both words; the damage block
# draws its second word only for more than six dice, as nine rows in ten need no more. Six damage
# dice a word instead of four: fewer words, and the branch on the second word taken by one row in
# eight instead of one in four; with the plain batch's defense table, 1.15x on the combat
# benchmark, docs/performance.md, stop 58.)

_NINE_LANES = 7  # defense dice per word: 8-bit values in 9-bit lanes, the 9th bit a carry guard
_NINE_BLOCK = 2 * _NINE_LANES
_NINE_ONES = np.uint64(sum(1 << (9 * j) for j in range(_NINE_LANES)))
_NINE_GUARD = _NINE_ONES << np.uint64(8)
_NINE_SUM = np.uint64(54)  # (lanes * _NINE_ONES) >> 54 is the sum of the lanes, in bits 54..62
_NINE_FIELD = np.uint64(0x1FF)
# _NINE_VALUES[k, w]: the 8 value bits of the lanes of word w holding one of the first k dice;
# _NINE_FLAGS[k, w]: their guard bits.
_NINE_VALUES = np.zeros((_NINE_BLOCK + 1, 2), np.uint64)
_NINE_FLAGS = np.zeros((_NINE_BLOCK + 1, 2), np.uint64)
for _k in range(_NINE_BLOCK + 1):
    for _j in range(_k):
        _NINE_VALUES[_k, _j // _NINE_LANES] |= np.uint64(0xFF << (9 * (_j % _NINE_LANES)))
        _NINE_FLAGS[_k, _j // _NINE_LANES] |= np.uint64(0x100 << (9 * (_j % _NINE_LANES)))

_LANE_BITS = np.uint64(16)
_LANE_BLOCK = 8  # damage dice per block: two words of four 16-bit lanes
_LANE_MAX_FACES = 1 << 15  # larger dice would overflow a 32-bit slot (see _word_lanes)
_EVEN = np.uint64(0x0000FFFF0000FFFF)  # lanes 0 and 2 of a word, each in a 32-bit slot
_FACE_BITS = np.uint64(0xFFFF0000FFFF0000)  # the high halves of the two slots
_SLOT_LOW = np.uint64(0xFFFFFFFF)
_SLOT_ONES = np.uint64(0x0000000100000001)
_SLOT_SIGN = np.uint64(0x8000000080000000)
_SLOT_CARRY = np.uint64(0x0001000000010000)  # bit 16 of each slot

# _LANE_MASKS[k, w]: the bits of word w that hold one of the first k dice (16-bit lanes).
_LANE_MASKS = np.zeros((_LANE_BLOCK + 1, 2), np.uint64)
for _k in range(_LANE_BLOCK + 1):
    for _j in range(_k):
        _LANE_MASKS[_k, _j // 4] |= np.uint64(0xFFFF << (16 * (_j % 4)))

# Damage dice in 10-bit lanes, six a word: lanes 0, 2, 4 (and 1, 3, 5) sit in three 20-bit slots,
# one multiply scales three lanes. A slot's product ``v * faces`` holds face - 1 in its bits
# 10..19 and the rejection bits in 0..9. Dice of up to 64 faces take these lanes: a product stays
# below 2**16 and a block's face sums (four lanes per slot) below 2**18, far from the next slot.
# The switch is set by waste, not room: a die of f faces rejects 1024 mod f of the 1024 lane
# values (0.4 % for the book's D6-D30, at most 5.4 % up to D64), so larger dice take the 16-bit
# lanes (65536 mod f of 65536).
_TEN_BITS = np.uint64(10)
_TEN_MAX_FACES = 64
_TEN_LANES = 6
_TEN_BLOCK = 2 * _TEN_LANES
_TEN_EVEN = np.uint64(0x3FF | (0x3FF << 20) | (0x3FF << 40))
_TEN_FACE_BITS = _TEN_EVEN << _TEN_BITS
_TEN_ONES = np.uint64(1 | (1 << 20) | (1 << 40))  # bit 0 of each slot
_TEN_CARRY = _TEN_ONES << _TEN_BITS
_TEN_SUM = np.uint64(40)  # ((sums >> 10) * _TEN_ONES) >> 40: the three slots added
_TEN_FIELD = np.uint64(0xFFFFF)
# _TEN_MASKS[k, w]: the bits of word w that hold one of the first k dice (10-bit lanes).
_TEN_MASKS = np.zeros((_TEN_BLOCK + 1, 2), np.uint64)
for _k in range(_TEN_BLOCK + 1):
    for _j in range(_k):
        _TEN_MASKS[_k, _j // _TEN_LANES] |= np.uint64(0x3FF << (10 * (_j % _TEN_LANES)))


@njit(inline="always")
def _word_lanes(word, n, reject_bits, limit_bits):
    """Four 16-bit lanes of ``word`` (unused lanes already zeroed) as dice of ``n`` faces.

    Returns (face - 1 summed per 32-bit slot, per-slot count of faces above the limit, rejected
    flags). Lanes 0, 2 and 1, 3 are spread into two 32-bit slots each so that one 64-bit multiply
    scales two lanes at once: a slot's product ``v * n`` holds face - 1 in its high 16 bits
    (Lemire's multiply-shift) and the bits that decide rejection in its low 16. With ``n <=
    2**15`` the product stays below 2**31 (room for the compare's sign bit) and a block's face
    sums (four lanes per slot) stay below 2**17, so nothing carries into the next slot.
    """
    p_even = (word & _EVEN) * n
    p_odd = ((word >> _LANE_BITS) & _EVEN) * n
    face_sums = ((p_even & _FACE_BITS) + (p_odd & _FACE_BITS)) >> _LANE_BITS
    # face - 1 >= limit <=> product >= limit << 16: the slot's high bit survives the subtraction
    above = (((((p_even | _SLOT_SIGN) - limit_bits) & _SLOT_SIGN) >> np.uint64(31))
             + ((((p_odd | _SLOT_SIGN) - limit_bits) & _SLOT_SIGN) >> np.uint64(31)))
    # low 16 bits + reject_below reach 2**16 (flipping bit 16) exactly when rejected (_lane_dice)
    rejected = (((p_even + reject_bits) ^ p_even) | ((p_odd + reject_bits) ^ p_odd)) & _SLOT_CARRY
    return face_sums, above, rejected


@njit(inline="always")
def _lane_dice(count, faces, reject_below, threshold, s0, s1, s2, s3):
    """Roll ``count`` dice without advantage: (dice showing more than ``threshold``, their sum, state).

    Four dice come from each 64-bit output, one per 16-bit lane (``faces <= 2**15``). A lane value
    ``v`` maps to the face ``((v * faces) >> 16) + 1`` (Lemire's multiply-shift) and is rejected
    when the low 16 bits ``l`` of the product reach ``2**16 - reject_below`` (``reject_below =
    2**16 mod faces``, at most 16 in 65536 for the shipped dice). That is Lemire's rejection
    mirrored: the values mapping to one face are a run whose low bits step by ``faces``; runs one
    longer than ``2**16 // faces`` are exactly those whose last ``l`` is ``>= 2**16 -
    reject_below``, so every face keeps ``2**16 // faces`` values. Mirrored, a zeroed (unused) lane
    is never rejected and adds nothing, so unused lanes need no mask of their own.

    Dice go in blocks of eight: the first word always, the second when the block has more than
    four. When any lane in use is rejected the block is drawn again: the accepted region is a
    product of per-lane sets, so the kept lanes stay independent and every face exactly equally
    likely. ``reject_below`` is precomputed per die: a division per roll would dominate.
    """
    n = np.uint64(faces)
    reject_bits = np.uint64(reject_below) * _SLOT_ONES
    # no face - 1 reaches ``faces``: clamping keeps the shifted limit below 2**31
    limit_bits = (np.uint64(min(max(threshold, 0), faces)) << _LANE_BITS) * _SLOT_ONES
    above = 0
    total = count  # the lanes hold face - 1
    remaining = count
    while True:  # at least one block, so a row with no dice takes the same branches
        k = min(remaining, _LANE_BLOCK)
        m0 = _LANE_MASKS[np.uint64(k), 0]  # an unsigned index: no negative-index wraparound
        m1 = _LANE_MASKS[np.uint64(k), 1]
        while True:
            word, s0, s1, s2, s3 = next_u64(s0, s1, s2, s3)
            f, a, rejected = _word_lanes(word & m0, n, reject_bits, limit_bits)
            if k > 4:
                word, s0, s1, s2, s3 = next_u64(s0, s1, s2, s3)
                f1, a1, r1 = _word_lanes(word & m1, n, reject_bits, limit_bits)
                f += f1
                a += a1
                rejected |= r1
            if rejected == 0:
                break
        total += np.int64((f & _SLOT_LOW) + (f >> np.uint64(32)))
        above += np.int64((a & _SLOT_LOW) + (a >> np.uint64(32)))
        remaining -= _LANE_BLOCK
        if remaining <= 0:
            break
    if threshold <= 0:  # every die beats it; zeroed lanes (face - 1 = 0) were counted too
        above = count
    return above, total, s0, s1, s2, s3


@njit(inline="always")
def _ten_lanes(word, n, reject_bits):
    """Six 10-bit lanes of ``word`` (unused lanes zeroed) as dice of ``n <= 64`` faces:
    (face - 1 summed per 20-bit slot, from bit 10; rejected flags). The map is
    :func:`_lane_dice`'s in 10 bits: face ``((v * n) >> 10) + 1``, rejected when the low 10 bits
    of the product reach ``2**10 - reject_below``, so every face keeps ``2**10 // n`` values."""
    p_even = (word & _TEN_EVEN) * n
    p_odd = ((word >> _TEN_BITS) & _TEN_EVEN) * n
    face_sums = (p_even & _TEN_FACE_BITS) + (p_odd & _TEN_FACE_BITS)
    rejected = (((p_even + reject_bits) ^ p_even) | ((p_odd + reject_bits) ^ p_odd)) & _TEN_CARRY
    return face_sums, rejected


@njit(inline="always")
def _ten_dice(count, faces, reject_below, s0, s1, s2, s3):
    """The sum of ``count`` dice of ``faces <= 64``, in blocks of twelve: the first word always,
    the second for more than six (nine rows in ten of the benchmark's mix need one word). A
    rejected lane in use draws the block again, as in :func:`_lane_dice`."""
    n = np.uint64(faces)
    reject_bits = np.uint64(reject_below) * _TEN_ONES
    total = count  # the lanes hold face - 1
    remaining = count
    while True:  # at least one block, so a row with no dice takes the same branches
        k = np.uint64(min(remaining, _TEN_BLOCK))  # unsigned: no negative-index wraparound
        m0 = _TEN_MASKS[k, 0]
        m1 = _TEN_MASKS[k, 1]
        while True:
            word, s0, s1, s2, s3 = next_u64(s0, s1, s2, s3)
            f, rejected = _ten_lanes(word & m0, n, reject_bits)
            if k > _TEN_LANES:
                word, s0, s1, s2, s3 = next_u64(s0, s1, s2, s3)
                f1, r1 = _ten_lanes(word & m1, n, reject_bits)
                f += f1
                rejected |= r1
            if rejected == 0:
                break
        total += np.int64((((f >> _TEN_BITS) * _TEN_ONES) >> _TEN_SUM) & _TEN_FIELD)
        remaining -= _TEN_BLOCK
        if remaining <= 0:
            break
    return total, s0, s1, s2, s3


@njit(inline="always")
def damage_dice(count, faces, reject_below, s0, s1, s2, s3):
    """The sum of ``count`` damage dice of ``faces`` without advantage: (sum, state). Dice of up
    to 64 faces take the 10-bit lanes, larger ones the 16-bit lanes; ``reject_below`` is
    :func:`damage_reject`'s for the die (the branch follows the die, which a batch rarely mixes)."""
    if faces <= _TEN_MAX_FACES:
        return _ten_dice(count, faces, reject_below, s0, s1, s2, s3)
    _, total, s0, s1, s2, s3 = _lane_dice(count, faces, reject_below, 0, s0, s1, s2, s3)
    return total, s0, s1, s2, s3


@njit(inline="always")
def _nine_at_least(values, bound):
    """Guard bit of each 9-bit lane set iff its 8-bit value is >= ``bound`` (0..256).

    Adding ``256 - bound`` carries into the guard exactly then; a lane's sum stays below 512, so
    no carry crosses into the next lane.
    """
    return (values + np.uint64(256 - bound) * _NINE_ONES) & _NINE_GUARD


@njit(inline="always")
def _count_hits_swar(attacks, limit, cut, s0, s1, s2, s3):
    """Hits of ``attacks`` defense dice, fourteen per block of two 64-bit words.

    Each word holds seven 9-bit lanes; a lane's low 8 bits ``v`` are a byte of the random word
    and its 9th bit a guard for the compare-by-addition (:func:`_nine_at_least`). ``v`` is a die
    when ``v < limit`` (``limit`` = the largest multiple of the faces that fits a byte; 256 means
    none is rejected); its face is ``v // (limit / faces) + 1``, so the attack hits ("more than
    your defense stat plus 2") exactly when ``v >= cut`` = ``threshold * limit / faces``. A block
    in which a lane in use is rejected is drawn again, which keeps the accepted lanes independent
    and uniform. Every block draws both words, so the branches do not depend on the number of
    attacks; unused lanes are zeroed (never rejected) and their guards masked out of the count.
    """
    hits = 0
    remaining = attacks
    while True:  # at least one block, so a row with no attacks takes the same branches
        k = np.uint64(min(remaining, _NINE_BLOCK))  # unsigned: no negative-index wraparound
        values0 = _NINE_VALUES[k, 0]
        values1 = _NINE_VALUES[k, 1]
        while True:
            w0, s0, s1, s2, s3 = next_u64(s0, s1, s2, s3)
            w1, s0, s1, s2, s3 = next_u64(s0, s1, s2, s3)
            v0 = w0 & values0
            v1 = w1 & values1
            if (_nine_at_least(v0, limit) | _nine_at_least(v1, limit)) == 0:
                break  # else a rejected lane in use: draw the block again
        flags = ((_nine_at_least(v0, cut) & _NINE_FLAGS[k, 0])
                 + (_nine_at_least(v1, cut) & _NINE_FLAGS[k, 1])) >> np.uint64(8)
        # per lane at most 2, in all at most 14: the column sums cannot carry into each other
        hits += np.int64(((flags * _NINE_ONES) >> _NINE_SUM) & _NINE_FIELD)
        remaining -= _NINE_BLOCK
        if remaining <= 0:
            break
    return hits, s0, s1, s2, s3


@njit
def _lane_rolls(faces, reject_below, state, out):
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    for i in range(out.shape[0]):
        _, out[i], s0, s1, s2, s3 = _lane_dice(1, faces, reject_below, 0, s0, s1, s2, s3)
    return out


@njit
def _lane_throws(count, faces, reject_below, threshold, state, above, total):
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    for i in range(total.shape[0]):
        above[i], total[i], s0, s1, s2, s3 = _lane_dice(count, faces, reject_below, threshold,
                                                        s0, s1, s2, s3)
    return above, total


@njit
def _damage_throws(count, faces, reject_below, state, total):
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    for i in range(total.shape[0]):
        total[i], s0, s1, s2, s3 = damage_dice(count, faces, reject_below, s0, s1, s2, s3)
    return total


@njit
def _swar_hits(attacks, limit, cut, state, out):
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    for i in range(out.shape[0]):
        out[i], s0, s1, s2, s3 = _count_hits_swar(attacks, limit, cut, s0, s1, s2, s3)
    return out


def lane_rolls(faces: int, n: int, seed: int) -> np.ndarray:
    """``n`` single dice from the lane roller the kernel uses (exposed for its uniformity test)."""
    state = seed_states(seed, 1)[0].copy()
    return _lane_rolls(np.int64(faces), lane_reject([faces])[0], state, np.empty(n, np.int64))


def lane_throws(count: int, faces: int, threshold: int, n: int, seed: int
                ) -> tuple[np.ndarray, np.ndarray]:
    """``n`` throws of ``count`` dice from the lane roller: (dice above ``threshold``, sum) each
    (exposed for the tests of its blocks, masks and threshold count)."""
    state = seed_states(seed, 1)[0].copy()
    return _lane_throws(np.int64(count), np.int64(faces), lane_reject([faces])[0],
                        np.int64(threshold), state, np.empty(n, np.int64), np.empty(n, np.int64))


def damage_throws(count: int, faces: int, n: int, seed: int) -> np.ndarray:
    """``n`` sums of ``count`` damage dice from :func:`damage_dice` (exposed for its tests)."""
    state = seed_states(seed, 1)[0].copy()
    return _damage_throws(np.int64(count), np.int64(faces), damage_reject([faces])[0], state,
                          np.empty(n, np.int64))


def swar_hits(attacks: int, threshold: int, defense_die: int, n: int, seed: int) -> np.ndarray:
    """``n`` hit counts from the lane-parallel defense roller (exposed for its binomial test)."""
    limit = 256 - 256 % defense_die
    cut = min(threshold, defense_die) * (limit // defense_die)
    state = seed_states(seed, 1)[0].copy()
    return _swar_hits(np.int64(attacks), np.int64(limit), np.int64(cut), state,
                      np.empty(n, np.int64))


def lane_reject(faces) -> np.ndarray:
    """``2**16 mod faces`` for each die size: the lane values the roller rejects."""
    faces = np.asarray(faces, dtype=np.uint64)
    if faces.size and (faces.min() < 1 or faces.max() > _LANE_MAX_FACES):
        raise ValueError(f"the lane roller takes dice of 1 to {_LANE_MAX_FACES} faces")
    return (np.uint64(1 << 16) - faces) % faces


def damage_reject(faces) -> np.ndarray:
    """The lane values :func:`damage_dice` rejects for each die size: ``2**10 mod faces`` for the
    10-bit lanes (up to 64 faces), ``2**16 mod faces`` (:func:`lane_reject`) above."""
    wide = lane_reject(faces)  # checks the sizes too
    faces = np.asarray(faces, dtype=np.uint64)
    return np.where(faces <= _TEN_MAX_FACES, (np.uint64(1 << 10) - faces) % faces, wide)
