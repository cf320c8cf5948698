"""A self-contained HTML report: a summary of answers, then sections of prose, tables and PNG
figures, then where every number came from.

Why self-contained: a designer opens one file from ``reports/``, mails it or attaches it to a CI
run; images are base64 ``data:`` URIs, tables plain HTML and the one script (sorting and filtering
tables) inline, so nothing else needs to travel and nothing is fetched. Why the summary first: a
GM or designer opens the page for an answer (is it fair, which cards stray, did CI drift), not for
a 72-row table. Why the summary is filled while sections are built but drawn above them: each
section knows its own answer; the page only puts the answers where they are read first.
"""

from __future__ import annotations

import base64
import html
import struct
from dataclasses import dataclass, field

from sim.atomic import write_text

from .glossary import TERMS, explain

CSS_DPI = 96   # CSS pixels per inch: a figure saved at ``dpi`` is shown at px * 96 / dpi

_STYLE = """body{font-family:system-ui,sans-serif;max-width:1100px;margin:1em auto;padding:0 10px;
color:#222;line-height:1.4}h1{font-size:1.5em;margin:.3em 0}
h2{border-bottom:1px solid #ddd;padding-bottom:4px;font-size:1.25em}
.note{color:#444;font-size:14px}
.scroll{overflow-x:auto;max-width:100%;margin:.3em 0 1em}
table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:2px 6px;
white-space:nowrap}th{background:#f0f0f0;cursor:pointer;position:sticky;top:0}
th[aria-sort=ascending]::after{content:" \\25B2"}th[aria-sort=descending]::after{content:" \\25BC"}
tr.outlier td{background:#fde2dd}tr.outlier td:first-child{font-weight:bold}
tr.outlier td:first-child::before{content:"\\26A0  "}
.fig{overflow-x:auto;max-width:100%}.fig img{max-width:none;display:block}
.filter{font:inherit;font-size:13px;padding:2px 4px;margin:2px 8px 2px 0;width:14em}
.count{color:#666;font-size:12px}details.key{font-size:13px;color:#444;margin:0 0 1em}
details.key dt{font-family:monospace;font-weight:bold}details.key dd{margin:0 0 .2em 1.5em}
#summary{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:.2em 1em .6em}
#summary h2{margin-top:.4em;border:0}#summary dl{margin:0}
#summary dt{font-weight:bold;margin-top:.4em}#summary dd{margin:0 0 0 1em}
#summary .bad dt{color:#b3261e}#summary .warn dt{color:#8a5300}#summary .ok dt{color:#1a7f37}
footer{margin-top:2em;border-top:2px solid #ddd;font-size:13px;color:#444}
footer dt{font-weight:bold;float:left;clear:left;width:9em}footer dd{margin:0 0 .2em 9.5em;
overflow-wrap:anywhere}"""

# Sorting (click or Enter on a column head; numbers compare as numbers, the rest as text) and
# filtering (rows containing the typed text) of every table. Inline, no library: offline.
_SCRIPT = """(function(){
function key(td){var s=td.textContent.trim(),n=parseFloat(s);return isNaN(n)?s.toLowerCase():n;}
function cmp(x,y){if(typeof x===typeof y){return x<y?-1:x>y?1:0;}
return typeof x==='number'?-1:1;}
function sortBy(t,i,th){var up=th.getAttribute('aria-sort')!=='ascending';
Array.prototype.forEach.call(t.tHead.rows[0].cells,function(c){c.removeAttribute('aria-sort');});
th.setAttribute('aria-sort',up?'ascending':'descending');var b=t.tBodies[0];
var rows=Array.prototype.slice.call(b.rows);
rows.sort(function(r,s){var d=cmp(key(r.cells[i]),key(s.cells[i]));return up?d:-d;});
rows.forEach(function(r){b.appendChild(r);});}
document.querySelectorAll('table.data').forEach(function(t){
Array.prototype.forEach.call(t.tHead.rows[0].cells,function(th,i){th.tabIndex=0;
th.addEventListener('click',function(){sortBy(t,i,th);});
th.addEventListener('keydown',function(e){if(e.key==='Enter'){sortBy(t,i,th);}});});
var box=t.parentNode.previousElementSibling,input=box.querySelector('input'),
count=box.querySelector('.count'),n=t.tBodies[0].rows.length;
input.addEventListener('input',function(){var q=input.value.trim().toLowerCase(),shown=0;
Array.prototype.forEach.call(t.tBodies[0].rows,function(r){
var hit=!q||r.textContent.toLowerCase().indexOf(q)>=0;r.hidden=!hit;if(hit){shown++;}});
count.textContent=shown+' of '+n+' rows';});});})();"""


def png_size(png: bytes) -> tuple[int, int]:
    """Pixel width and height from a PNG's header (IHDR)."""
    return struct.unpack(">II", png[16:24])


def _cell(value) -> str:
    """A table cell: floats to four significant digits; no value (None, NaN) as "–", as the
    CSV leaves it blank. Why: the remedies table showed Python's "None" for the lowest rarity's
    open lower band edge (the rarity audit of stop 77)."""
    if value is None or (isinstance(value, float) and value != value):
        return "–"
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


@dataclass
class _Table:
    frame: object
    mark: object   # bool per row, or None: rows drawn as outliers
    why: str       # what a marked row means (shown under the table)


@dataclass
class Page:
    title: str
    parts: list = field(default_factory=list)
    answers: list[tuple[str, str, str, str]] = field(default_factory=list)
    provenance: list[tuple[str, str]] = field(default_factory=list)

    def heading(self, text: str, anchor: str | None = None) -> None:
        ident = f" id='{html.escape(anchor)}'" if anchor else ""
        self.parts.append(f"<h2{ident}>{html.escape(text)}</h2>")

    def text(self, text: str) -> None:
        self.parts.append(f"<p class='note'>{html.escape(text)}</p>")

    def answer(self, label: str, text: str, anchor: str = "", tone: str = "") -> None:
        """One line of the summary at the top: ``tone`` ok / warn / bad colours its label."""
        self.answers.append((label, text, anchor, tone))

    def cite(self, what: str, value: str) -> None:
        """One line of the provenance footer (policy, games, seeds, card digests, ...)."""
        self.provenance.append((what, value))

    def table(self, frame, mark=None, why: str = "outlier") -> None:
        """A sortable, filterable table; rows where ``mark`` is true are drawn as outliers."""
        self.parts.append(_Table(frame, mark, why))

    def image(self, png: bytes, alt: str, dpi: int = CSS_DPI) -> None:
        """Shown at its size in print: ``dpi`` pixels to the inch, never scaled down, so figure
        text keeps the point size it was drawn at (a narrow screen scrolls the figure)."""
        width, height = png_size(png)
        w, h = round(width * CSS_DPI / dpi), round(height * CSS_DPI / dpi)
        data = base64.b64encode(png).decode("ascii")
        self.parts.append(f"<div class='fig'><img alt='{html.escape(alt)}' width='{w}' "
                          f"height='{h}' src='data:image/png;base64,{data}'></div>")

    def _summary(self) -> str:
        items = []
        for label, text, anchor, tone in self.answers:
            more = f" <a href='#{html.escape(anchor)}'>details</a>" if anchor else ""
            items.append(f"<div class='{tone}'><dt>{html.escape(label)}</dt>"
                         f"<dd>{html.escape(text)}{more}</dd></div>")
        return f"<section id='summary'><h2>Summary</h2><dl>{''.join(items)}</dl></section>"

    def _footer(self) -> str:
        rows = "".join(f"<dt>{html.escape(k)}</dt><dd>{html.escape(v)}</dd>"
                       for k, v in self.provenance)
        terms = "".join(f"<li>{html.escape(v)}</li>" for v in TERMS.values())
        return (f"<footer id='provenance'><h2>Provenance</h2><dl>{rows}</dl>"
                f"<h2>Reading the numbers</h2><ul>{terms}</ul></footer>")

    def render(self) -> str:
        body = "\n".join(p if isinstance(p, str) else _table_html(p) for p in self.parts)
        return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'>"
                f"<meta name='viewport' content='width=device-width, initial-scale=1'>"
                f"<title>{html.escape(self.title)}</title><style>{_STYLE}</style></head><body>"
                f"<h1>{html.escape(self.title)}</h1>\n{self._summary()}\n{body}\n"
                f"{self._footer()}\n<script>{_SCRIPT}</script>\n</body></html>\n")

    def write(self, path) -> None:
        write_text(path, self.render())


def _table_html(t: _Table) -> str:
    """The table in a horizontally scrolling box, a filter box above it, the key below it."""
    frame = t.frame
    cols = [str(c) for c in frame.columns]
    head = "".join(f"<th scope='col' title='{html.escape(explain(c))}'>{html.escape(c)}</th>"
                   for c in cols)
    mark = [False] * len(frame) if t.mark is None else [bool(m) for m in t.mark]
    rows = []
    for marked, values in zip(mark, frame.itertuples(index=False, name=None)):
        cls = " class='outlier'" if marked else ""
        rows.append(f"<tr{cls}>" + "".join(f"<td>{html.escape(_cell(v))}</td>" for v in values)
                    + "</tr>")
    n, flagged = len(frame), sum(mark)
    legend = (f" <span class='count'>{flagged} row(s) marked ⚠: {html.escape(t.why)}</span>"
              if flagged else "")
    key = "".join(f"<dt>{html.escape(c)}</dt><dd>{html.escape(explain(c))}</dd>" for c in cols)
    return (f"<div class='tools'><input type='search' class='filter' placeholder='Filter rows' "
            f"aria-label='Filter rows'><span class='count'>{n} of {n} rows</span>{legend}</div>"
            f"<div class='scroll'><table class='data'><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div>"
            f"<details class='key'><summary>What the columns mean</summary><dl>{key}</dl>"
            f"</details>")
