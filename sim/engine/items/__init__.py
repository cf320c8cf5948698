"""Items: held, lying on the board and changing hands (``holding``), and used (``use``)."""
