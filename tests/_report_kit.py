"""A stand-in for :class:`sim.report.html.Page` that records what a section writes, so a
section's words and tables can be checked without building the HTML page."""

from __future__ import annotations


class RecordingPage:
    """Keeps the texts and tables a report section gives it; headings and citations pass."""

    def __init__(self):
        self.texts, self.tables = [], []

    def heading(self, *args, **kwargs):
        pass

    def cite(self, *args, **kwargs):
        pass

    def text(self, text):
        self.texts.append(text)

    def table(self, frame, *args, **kwargs):
        self.tables.append(frame)
