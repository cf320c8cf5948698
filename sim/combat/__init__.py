"""The combat core: attack star colour, defense dice, dice tiers — exact and Monte Carlo.

``star`` picks the colour of the attack star, ``exact`` gives full damage distributions,
``sampler`` resolves batches of mixed matchups in Numba from an explicit seed, ``group`` handles
several attackers on one target, ``matchup`` ties cards and states to all of these.
"""
