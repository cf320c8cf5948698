"""A value from a hand-edited file, shortened for a one-line problem message.

Why one home: the replay header's check and the rulings section's check both quote the value
they refused ("expected a number, got ..."); a value the size of a whole list must not make
the line unreadable, and both files are JSON, so both quote it as JSON.
"""

from __future__ import annotations

import json


def excerpt(value, width: int = 40) -> str:
    """``value`` as JSON (a float as Python writes it: nan, inf), at most ``width`` characters."""
    text = repr(value) if isinstance(value, float) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= width else text[:width - 3] + "..."
