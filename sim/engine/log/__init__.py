"""The game log: event rows and their words (``events``, ``tile_events``), readable entity names
(``labels``) and one logged game as JSON lines (``record``)."""
