"""SVG pictures built as a tree, so every text and attribute is escaped by construction.

>>> doc = Svg(120, 40, title="a <test>")
>>> _ = doc.add("text", {"x": 4, "y": 20}, text="R&D")
>>> doc.to_string().startswith('<svg xmlns="http://www.w3.org/2000/svg" width="120"')
True
>>> "R&amp;D" in doc.to_string() and "a &lt;test&gt;" in doc.to_string()
True
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence

SVG_NS = "http://www.w3.org/2000/svg"

Attrs = Mapping[str, str | int | float]


def _fmt(value: str | int | float) -> str:
    if isinstance(value, float):
        text = f"{value:.2f}".rstrip("0").rstrip(".")
        return text if text not in ("", "-0") else "0"
    return str(value)


def element(
    parent: ET.Element, tag: str, attrs: Attrs | None = None, *, text: str | None = None
) -> ET.Element:
    """Add a child ``tag`` to ``parent`` with ``attrs`` (``font_size`` is written
    ``font-size``) and optional text; returns it."""
    child = ET.SubElement(
        parent, tag, {k.replace("_", "-"): _fmt(v) for k, v in (attrs or {}).items()}
    )
    if text is not None:
        child.text = text
    return child


class Svg:
    """An SVG document of ``width`` x ``height`` with an optional ``<title>``."""

    def __init__(
        self,
        width: float,
        height: float,
        *,
        title: str | None = None,
        background: str | None = "#ffffff",
    ) -> None:
        self.root = ET.Element(
            "svg",
            {
                "xmlns": SVG_NS,
                "width": _fmt(width),
                "height": _fmt(height),
                "viewBox": f"0 0 {_fmt(width)} {_fmt(height)}",
            },
        )
        if title is not None:
            element(self.root, "title", text=title)
        if background is not None:
            element(self.root, "rect", {"width": width, "height": height, "fill": background})

    def add(
        self,
        tag: str,
        attrs: Attrs | None = None,
        *,
        text: str | None = None,
        parent: ET.Element | None = None,
    ) -> ET.Element:
        return element(self.root if parent is None else parent, tag, attrs, text=text)

    def group(
        self,
        attrs: Attrs | None = None,
        *,
        title: str | None = None,
        parent: ET.Element | None = None,
    ) -> ET.Element:
        """A ``<g>`` (with a hover ``<title>`` if given) to add children to."""
        g = self.add("g", attrs, parent=parent)
        if title is not None:
            element(g, "title", text=title)
        return g

    def to_string(self) -> str:
        return ET.tostring(self.root, encoding="unicode")


#: The font of the shared pictures' texts.
FONT = "DejaVu Sans, Verdana, sans-serif"
#: The attributes of the shared pictures' titles and body texts.
_HEAD: dict[str, str | int | float] = {"font_size": 13, "font_weight": "bold", "font_family": FONT}
_BODY: dict[str, str | int | float] = {"font_size": 12, "font_family": FONT}
#: Bar colours of :func:`bar_chart`, taken in turn.
BAR_COLOURS = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948")


def bar_chart(
    bars: Sequence[tuple[str, float]],
    *,
    title: str,
    unit: str = "%",
    scale: float = 100.0,
    width: int = 360,
) -> str:
    """A small horizontal bar chart as SVG text: one labelled bar per ``(label, value)``, its
    length ``value / scale`` of the full width (clipped to [0, 1]), its value written after it
    (``value`` in ``unit``; with ``unit="%"`` a share given in [0, 1] shows as a percentage:
    pass ``scale=1.0``). Each bar is a ``<g class="bar">`` holding its ``<rect>`` and texts.

    >>> text = bar_chart([("win", 0.25), ("lose", 0.75)], title="odds", scale=1.0)
    >>> text.count('class="bar"'), "75.0 %" in text
    (2, True)
    """
    row, label_w, value_w, top = 22, 120, 64, 28
    doc = Svg(width, top + row * len(bars) + 8, title=title)
    doc.add("text", {"x": 8, "y": 18, **_HEAD}, text=title)
    span = width - label_w - value_w - 16
    for i, (label, value) in enumerate(bars):
        y = top + i * row
        g = doc.group({"class": "bar"}, title=f"{label}: {_value_text(value, unit, scale)}")
        doc.add("text", {"x": 8, "y": y + 14, **_BODY}, text=label, parent=g)
        share = min(1.0, max(0.0, value / scale)) if scale else 0.0
        doc.add(
            "rect",
            {"x": label_w, "y": y + 3, "width": round(span * share, 2), "height": row - 8,
             "fill": BAR_COLOURS[i % len(BAR_COLOURS)]},
            parent=g,
        )
        doc.add(
            "text",
            {"x": label_w + span + 6, "y": y + 14, **_BODY},
            text=_value_text(value, unit, scale),
            parent=g,
        )
    return doc.to_string()


def ascii_bars(bars: Sequence[tuple[str, float]], *, unit: str = "%", scale: float = 100.0,
               width: int = 30) -> str:
    """The ASCII twin of :func:`bar_chart`: one line per bar, ``#`` for its share of ``width``.

    >>> print(ascii_bars([("win", 0.5), ("lose", 0.5)], scale=1.0, width=10))
    win   #####      50.0 %
    lose  #####      50.0 %
    """
    pad = max((len(label) for label, _ in bars), default=0) + 2
    lines = []
    for label, value in bars:
        share = min(1.0, max(0.0, value / scale)) if scale else 0.0
        filled = round(width * share)
        lines.append(
            f"{label.ljust(pad)}{'#' * filled}{' ' * (width - filled)} "
            f"{_value_text(value, unit, scale)}"
        )
    return "\n".join(lines)


def _value_text(value: float, unit: str, scale: float) -> str:
    if unit == "%":
        return f"{100.0 * value / scale:.1f} %" if scale != 100.0 else f"{value:.1f} %"
    return f"{value:g} {unit}".rstrip()


def strip(frames: Sequence[tuple[str, str]], *, title: str, columns: int = 4) -> str:
    """Several SVG pictures side by side as one SVG (a strip of numbered steps): each frame
    ``(caption, svg_text)`` is nested as an ``<svg>`` element in a ``<g class="frame">`` with its
    caption below it, ``columns`` frames per row, every frame scaled to the largest's box.

    >>> one = Svg(10, 10).to_string()
    >>> text = strip([("1. start", one), ("2. end", one)], title="a line")
    >>> text.count('class="frame"'), "2. end" in text
    (2, True)
    """
    inner = [ET.fromstring(svg_text) for _, svg_text in frames]
    w = max((float(e.get("width", "100")) for e in inner), default=100.0)
    h = max((float(e.get("height", "100")) for e in inner), default=100.0)
    cols = max(1, min(columns, len(frames)))
    rows = max(1, -(-len(frames) // cols))
    cell_w, cell_h, top = w + 16, h + 30, 26
    doc = Svg(cols * cell_w + 8, top + rows * cell_h, title=title)
    doc.add("text", {"x": 8, "y": 18, **_HEAD}, text=title)
    for i, ((caption, _), e) in enumerate(zip(frames, inner, strict=True)):
        x, y = 8 + (i % cols) * cell_w, top + (i // cols) * cell_h
        g = doc.group({"class": "frame"}, title=caption)
        e.set("x", _fmt(x))
        e.set("y", _fmt(y))
        for el in e.iter():
            if el.tag.startswith("{"):
                el.tag = el.tag.split("}", 1)[1]
        g.append(e)
        doc.add("text", {"x": x, "y": y + h + 18, **_BODY}, text=caption, parent=g)
    return doc.to_string()


#: The width of a character :func:`wrap` assumes, in font sizes (generous for sans-serif text,
#: whose letters and digits average about 0.55).
CHAR_WIDTH = 0.7


def wrap(text: str, width: float, font: float = 12.0) -> list[str]:
    """``text`` (at font size ``font``) in lines of at most ``width`` pixels, at
    :data:`CHAR_WIDTH` per character, broken at spaces (a word longer than a line is cut).
    Each line of ``text`` starts a new line."""
    most = max(1, int(width / (font * CHAR_WIDTH)))
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        line = ""
        for word in paragraph.split():
            while len(word) > most:
                if line:
                    lines.append(line)
                    line = ""
                lines.append(word[:most])
                word = word[most:]
            if not line:
                line = word
            elif len(line) + 1 + len(word) <= most:
                line += " " + word
            else:
                lines.append(line)
                line = word
        if line:
            lines.append(line)
    return lines
