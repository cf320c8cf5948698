"""Tiles in play: their functions (rewards, interactables, economies: ``functions``), the live
board re-linked after swaps (``live_board``, ``swap_in_play``), deactivated and frozen tiles
(``paused``) and the table of every tile's functions (``fx_table``)."""
