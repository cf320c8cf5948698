"""Board Wars Lab: a Monte Carlo simulation and balancing lab for the tabletop game Board Wars.

Layers: ``sim.catalogue`` parses and validates the designers' files into typed NumPy arrays;
``sim.combat`` and ``sim.board`` hold the Numba kernels that see only arrays and scalars;
``sim.report`` and ``sim.cli`` are the edges where pandas, matplotlib and click live.
"""

__version__ = "0.1.0"
