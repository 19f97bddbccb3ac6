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
from collections.abc import Mapping

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
