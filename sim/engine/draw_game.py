"""A picture of a game in progress (``bwlab play --png-every``): tiles by suit, void and
announced coordinates, every living entity as a dot in its team's colour (CPUs black)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim.board.draw import TEAM_COLOURS
from sim.board.geometry import SPAN

from . import layout as L


def draw_state(st, S, path: Path, title: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from sim.atomic import atomic_path

    grid = np.full(SPAN * SPAN, np.nan)
    for s in range(SPAN * SPAN):
        p = st.tile_pos[s]
        if p >= 0:
            grid[s] = (st.tiles[p, L.TL_SUIT] + 1) % 13  # the tile there now (swaps)
    fig, ax = plt.subplots(figsize=(7, 7))
    ax.imshow(grid.reshape(SPAN, SPAN), cmap="Pastel1", vmin=0, vmax=13)
    for p in range(49):
        r, c = divmod(p, 7)
        if st.pos_state[p] == L.VOIDED or (S.ip[L.P_APOC_POS] == p and st.g[L.REVEALED] == 0):
            ax.add_patch(plt.Rectangle((c * 5 - .5, r * 5 - .5), 5, 5, color="#222222"))
        elif st.pos_state[p] == L.ANNOUNCED:
            ax.add_patch(plt.Rectangle((c * 5 - .5, r * 5 - .5), 5, 5, fill=False, hatch="//",
                                       edgecolor="red"))
    ent = st.ent
    for e in range(ent.shape[0]):
        if ent[e, L.ALIVE] and ent[e, L.SPACE] >= 0:
            r, c = divmod(int(ent[e, L.SPACE]), SPAN)
            # CPUs black, an unoccupied vehicle (no team) grey
            colour = ("black" if ent[e, L.IS_CPU] else "grey" if ent[e, L.TEAM] < 0
                      else TEAM_COLOURS[ent[e, L.TEAM]])
            ax.plot(c + np.random.default_rng(e).uniform(-.25, .25), r, "o", color=colour, ms=6)
    ax.set_title(title)
    ax.axis("off")
    with atomic_path(path) as tmp:
        fig.savefig(tmp, dpi=90, format="png")
    plt.close(fig)
