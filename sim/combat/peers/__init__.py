"""Peer games' combat beside Board Wars' (issue #9): Arena: The Contest, Dungeon Twister and
8 Masters' Revenge, each as an exact distribution and a seeded Monte Carlo sampler.

One module per system; ``registry`` puts them (and Board Wars) behind one interface for
``bwlab combat --system`` and ``bwlab compare-systems``. Their numbers live in
``cards/peers.toml``; the house values are in ``docs/rulings-peers.md``.
"""
