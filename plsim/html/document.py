"""The HTML document: sections of text, tables and embedded images, with inline CSS only."""

from __future__ import annotations

import base64
import html
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

import polars as pl

from plsim import __version__

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0 auto;
       max-width: 1100px; padding: 1.5rem 2rem 4rem; color: #1d1d1f; line-height: 1.45; }
h1 { font-size: 1.7rem; margin-bottom: 0.2rem; }
h2 { font-size: 1.3rem; margin-top: 2.4rem; border-bottom: 2px solid #d0d7de; padding-bottom: 0.2rem; }
h3 { font-size: 1.05rem; margin: 1.4rem 0 0.4rem; }
nav { font-size: 0.9rem; margin: 0.8rem 0 1.2rem; }
nav a { margin-right: 1rem; color: #0b5cad; text-decoration: none; }
pre { background: #f4f6f8; border: 1px solid #d0d7de; border-radius: 6px; padding: 0.7rem 1rem;
      overflow-x: auto; font-size: 0.9rem; }
table { border-collapse: collapse; margin: 0.4rem 0 1.2rem; font-size: 0.88rem; }
caption { caption-side: top; text-align: left; font-weight: 600; padding-bottom: 0.3rem;
          white-space: nowrap; }
th, td { border: 1px solid #d0d7de; padding: 0.25rem 0.6rem; }
th { background: #eef1f4; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr:nth-child(even) td { background: #fafbfc; }
figure { margin: 0.6rem 0 1.6rem; }
figure img { max-width: 100%; border: 1px solid #e3e6ea; }
figcaption { font-size: 0.85rem; color: #555; }
details { margin: 0.4rem 0 1rem; }
summary { cursor: pointer; color: #0b5cad; }
p.note { font-size: 0.85rem; color: #555; }
ul.links li { margin-bottom: 0.3rem; }
ul.links .note { font-size: 0.85rem; color: #555; }
footer { margin-top: 3rem; font-size: 0.8rem; color: #777; }
"""


@dataclass(frozen=True)
class Text:
    """Plain text (escaped): paragraphs split at blank lines, or kept as it is in a monospaced
    block when ``preformatted`` (a text summary with aligned columns)."""

    body: str
    preformatted: bool = False


@dataclass(frozen=True)
class Frame:
    """A polars frame shown as an HTML table; ``percent`` columns are shown as percentages."""

    frame: pl.DataFrame
    caption: str = ""
    percent: Sequence[str] = ()
    max_rows: int = 500


@dataclass(frozen=True)
class Image:
    """A PNG file, embedded in the page as a base64 data URI."""

    path: Path
    caption: str = ""


@dataclass(frozen=True)
class Links:
    """A list of links to files beside the page: (relative address, text, a note after it)."""

    items: Sequence[tuple[str, str, str]]


@dataclass(frozen=True)
class Section:
    """A heading and its blocks, in order."""

    heading: str
    blocks: Sequence[Text | Frame | Image | Links] = field(default_factory=tuple)


def _anchor(heading: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", heading.lower()).strip("-") or "section"


def format_cell(value: Any, percent: bool = False) -> str:
    """One table cell as text: percentages, 4 significant digits, thousands separators, a dash for none."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if percent:
            return f"{value:.1%}"
        if math.isinf(value):
            return "∞" if value > 0 else "−∞"
        return f"{value:,.4g}" if abs(value) < 1e5 else f"{value:,.0f}"
    return str(value)


def render_frame(block: Frame) -> str:
    frame = block.frame
    numeric = {name for name, dtype in frame.schema.items() if dtype.is_numeric()}
    head = "".join(f"<th>{html.escape(name)}</th>" for name in frame.columns)
    rows = []
    for row in frame.head(block.max_rows).iter_rows():
        cells = []
        for name, value in zip(frame.columns, row):
            css = ' class="num"' if name in numeric else ""
            cells.append(f"<td{css}>{html.escape(format_cell(value, name in block.percent))}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    caption = f"<caption>{html.escape(block.caption)}</caption>" if block.caption else ""
    more = ""
    if frame.height > block.max_rows:
        more = f'<p class="note">first {block.max_rows:,} of {frame.height:,} rows shown; the CSV has all.</p>'
    return f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>{more}"


def render_image(image: Image) -> str:
    data = base64.b64encode(Path(image.path).read_bytes()).decode("ascii")
    alt = html.escape(image.caption or Path(image.path).name)
    caption = f"<figcaption>{html.escape(image.caption)}</figcaption>" if image.caption else ""
    return f'<figure><img alt="{alt}" src="data:image/png;base64,{data}">{caption}</figure>'


def render_links(links: Links) -> str:
    items = "".join(f'<li><a href="{html.escape(href)}">{html.escape(text)}</a>'
                    + (f" <span class=\"note\">{html.escape(note)}</span>" if note else "") + "</li>"
                    for href, text, note in links.items)
    return f"<ul class=\"links\">{items}</ul>"


def render_text(text: Text) -> str:
    if text.preformatted:
        return f"<pre>{html.escape(text.body)}</pre>"
    paragraphs = [p.strip() for p in text.body.split("\n\n") if p.strip()]
    return "".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)


def render_section(section: Section) -> str:
    parts = [f'<section id="{_anchor(section.heading)}"><h2>{html.escape(section.heading)}</h2>']
    for block in section.blocks:
        if isinstance(block, Frame):
            parts.append(render_frame(block))
        elif isinstance(block, Image):
            parts.append(render_image(block))
        elif isinstance(block, Links):
            parts.append(render_links(block))
        else:
            parts.append(render_text(block))
    parts.append("</section>")
    return "\n".join(parts)


def flatten(settings: Mapping[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    """Nested settings as (dotted key, value) pairs, in key order."""
    pairs = []
    for key in sorted(settings):
        value = settings[key]
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            pairs += flatten(value, name + ".")
        else:
            pairs.append((name, value))
    return pairs


def _value_text(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(_value_text(v) for v in value)
    return format_cell(value)


def render_settings(settings: Mapping[str, Any]) -> str:
    """Scalar settings as one table; each nested group (the rules, versions, ...) folded away."""
    plain = [(k, v) for k, v in sorted(settings.items()) if not isinstance(v, Mapping)]
    nested = [(k, v) for k, v in sorted(settings.items()) if isinstance(v, Mapping)]
    rows = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(_value_text(v))}</td></tr>" for k, v in plain)
    parts = [f"<table><tbody>{rows}</tbody></table>"] if plain else []
    for key, value in nested:
        inner = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(_value_text(v))}</td></tr>"
                        for k, v in flatten(value))
        parts.append(f"<details><summary>{html.escape(key)} ({len(flatten(value))} values)</summary>"
                     f"<table><tbody>{inner}</tbody></table></details>")
    return "\n".join(parts)


def page_head(title: str, style: str) -> str:
    """The opening of a self-contained page up to its body: nothing to fetch, not even an icon."""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>{html.escape(title)}</title>
<style>{style}</style>
</head>"""


def html_report(title: str, settings: Mapping[str, Any], command: str, sections: Sequence[Section]) -> str:
    """The whole page: title, contents, the reproducing command, the sections, then the settings."""
    nav = "".join(f'<a href="#{_anchor(s.heading)}">{html.escape(s.heading)}</a>' for s in sections)
    body = "\n".join(render_section(s) for s in sections)
    return f"""{page_head(title, STYLE)}
<body>
<h1>{html.escape(title)}</h1>
<nav>{nav}<a href="#settings">Settings</a></nav>
<p>Reproduce with:</p>
<pre><code>{html.escape(command)}</code></pre>
{body}
<section id="settings"><h2>Settings</h2>
{render_settings(settings)}
</section>
<footer>Made by plsim {html.escape(__version__)}. Every table and figure is inside this file.</footer>
</body>
</html>
"""


def write_html(path: str | Path, title: str, settings: Mapping[str, Any], command: str,
               sections: Sequence[Section]) -> Path:
    """Write ``html_report(...)`` to ``path``."""
    path = Path(path)
    path.write_text(html_report(title, settings, command, sections), encoding="utf-8")
    return path
