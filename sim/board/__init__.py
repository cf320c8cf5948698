"""The board: geometry of tiles and spaces, movement, range and line of sight, water, portals,
tile swaps and consolidation, board generation and drawing (rulebook "The board" and "Tiles").

Pipeline: ``cards/tiles.toml`` → :mod:`sim.catalogue.tiles` (arrays) → :func:`generate.generate_board`
(a :class:`geometry.Board`) → :func:`graph.compile_board` (neighbour tables) → Numba kernels in
:mod:`movement` and :mod:`sight`.
"""
