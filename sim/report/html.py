"""A self-contained HTML report: sections of prose, tables and embedded PNG figures.

Why self-contained: a designer opens one file from ``reports/``, mails it or attaches it to a CI
run; images are base64 ``data:`` URIs and tables plain HTML, so nothing else needs to travel.
"""

from __future__ import annotations

import base64
import html
from dataclasses import dataclass, field

from sim.atomic import write_text

_STYLE = """body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;color:#222}
table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:2px 6px}
th{background:#f0f0f0}h2{border-bottom:1px solid #ddd;padding-bottom:4px}
.note{color:#555;font-size:14px}img{max-width:100%}"""


@dataclass
class Page:
    title: str
    parts: list[str] = field(default_factory=list)

    def heading(self, text: str) -> None:
        self.parts.append(f"<h2>{html.escape(text)}</h2>")

    def text(self, text: str) -> None:
        self.parts.append(f"<p class='note'>{html.escape(text)}</p>")

    def table(self, frame, index: bool = False) -> None:
        self.parts.append(frame.to_html(index=index, border=0, float_format=lambda v: f"{v:.4g}"))

    def image(self, png: bytes, alt: str) -> None:
        data = base64.b64encode(png).decode("ascii")
        self.parts.append(f"<img alt='{html.escape(alt)}' src='data:image/png;base64,{data}'>")

    def render(self) -> str:
        body = "\n".join(self.parts)
        return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(self.title)}"
                f"</title><style>{_STYLE}</style></head><body><h1>{html.escape(self.title)}</h1>"
                f"\n{body}\n</body></html>\n")

    def write(self, path) -> None:
        write_text(path, self.render())
