"""MkDocs hooks (mkdocs.yml: ``hooks: - docs/hooks.py``): the pages made at build time.

- ``rules/<spec>.md``: each ``specs/*.md`` as it is, except that every rule ID it defines
  (``- **BD-GEOM-1** ...``) carries an anchor of its own name and links to itself, and every
  mention of a known rule ID outside code links to its definition, on whichever rules page;
  ``rules/index.md`` lists every ID. ``specs/`` is read, never written.
- ``gallery.md``: every ``docs/pictures/*.svg`` and ``docs/*.svg``, found when the site is
  built (a picture added later appears with no edit), each captioned by its ``<title>`` or, when
  it has none, by its file name.
- ``changelog.md``: ``CHANGELOG.md`` as it is.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "specs"
DOCS = ROOT / "docs"

#: A rule is defined by a list item that starts with its bold ID (as ``tests/rules.py`` reads it).
DEFINITION = re.compile(r"^(?P<lead>\s*[-*]\s+)\*\*(?P<id>[A-Z]{2}-[A-Z]+-\d+)\*\*", re.MULTILINE)
#: A mention of a rule ID in running text.
MENTION = re.compile(r"(?<![\w#-])(?P<id>[A-Z]{2}-[A-Z]+-\d+)(?![\w-])")
FENCE = re.compile(r"^\s*(```|~~~)")
SVG_TITLE = "{http://www.w3.org/2000/svg}title"

GAMES = {
    "los-banditos": "Los Banditos",
    "bandido": "Bandido",
    "bandida": "Bandida",
    "rolling-bandits": "Rolling Bandits",
}


def defined_ids(text: str) -> list[str]:
    """The rule IDs a spec defines, in the order it defines them."""
    return [match.group("id") for match in DEFINITION.finditer(text)]


def link_mentions(line: str, here: str, where: dict[str, str]) -> str:
    """``line`` with every known rule ID outside code spans linked to its definition."""

    def link(match: re.Match[str]) -> str:
        rule_id = match.group("id")
        page = where.get(rule_id)
        if page is None:
            return rule_id
        target = f"#{rule_id}" if page == here else f"{page}.md#{rule_id}"
        return f"[{rule_id}]({target})"

    parts = line.split("`")
    for i in range(0, len(parts), 2):  # the even parts lie outside code spans
        parts[i] = MENTION.sub(link, parts[i])
    return "`".join(parts)


def anchored(text: str, here: str, where: dict[str, str]) -> str:
    """A spec's text with an anchor on each rule it defines and links on each mention."""
    out: list[str] = []
    in_fence = False
    for line in text.splitlines():
        if FENCE.match(line):
            in_fence = not in_fence
        if in_fence or FENCE.match(line) or line.lstrip().startswith("#"):
            out.append(line)
            continue
        definition = DEFINITION.match(line)
        if definition is None:
            out.append(link_mentions(line, here, where))
            continue
        rule_id = definition.group("id")
        rest = link_mentions(line[definition.end() :], here, where)
        out.append(f"{definition.group('lead')}[**{rule_id}**](#{rule_id}){{#{rule_id}}}{rest}")
    return "\n".join(out) + "\n"


def rules_pages() -> dict[str, str]:
    """Every rules page of the site (``rules/...md``) and its Markdown."""
    specs = {spec.stem: spec.read_text(encoding="utf-8") for spec in sorted(SPECS.glob("*.md"))}
    where = {rule_id: stem for stem, text in specs.items() for rule_id in defined_ids(text)}
    pages = {f"rules/{stem}.md": anchored(text, stem, where) for stem, text in specs.items()}
    index = [
        "# Rules",
        "",
        "Each game's rules as `specs/` states them, in our own words. Every rule has a stable",
        "ID, and every ID is an anchor: link to a rule as `rules/bandido.md#BD-PLACE-2` (the",
        "tests name the same IDs). Each list below holds every ID of one page, in its order.",
        "",
    ]
    for stem, text in specs.items():
        title = GAMES.get(stem, stem)
        ids = defined_ids(text)
        index += [f"## {title}", "", f"[{title}]({stem}.md): {len(ids)} rules.", ""]
        index.append(", ".join(f"[{rule_id}]({stem}.md#{rule_id})" for rule_id in ids))
        index.append("")
    pages["rules/index.md"] = "\n".join(index)
    return pages


def caption(path: Path) -> str:
    """A picture's caption: its SVG ``<title>`` (the root's first), or its file name in words."""
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError:
        root = None
    if root is not None:
        title = root.find(SVG_TITLE)
        if title is None:
            title = root.find("title")
        if title is not None and title.text and title.text.strip():
            words = " ".join(title.text.split())
            return words[:1].upper() + words[1:]
    words = path.stem.replace("-", " ").replace("_", " ")
    return words[:1].upper() + words[1:]


def gallery_page(docs: Path) -> str:
    """The gallery: every picture of ``docs/pictures/`` and ``docs/``, by folder then name."""
    pictures = sorted((docs / "pictures").glob("*.svg")) + sorted(docs.glob("*.svg"))
    lines = [
        "# Gallery",
        "",
        "Every picture in `docs/` and `docs/pictures/`, as the library draws it (the tests",
        "check that each is current). Each caption is the picture's own title.",
        "",
    ]
    if not pictures:
        lines.append("No pictures yet.")
    for path in pictures:
        rel = path.relative_to(docs).as_posix()
        text = caption(path)
        lines += [
            f"## {text}",
            "",
            '<figure markdown="span">',
            f"  ![{text}]({rel})",
            f"  <figcaption><code>docs/{rel}</code></figcaption>",
            "</figure>",
            "",
        ]
    return "\n".join(lines)


def generated_pages(docs: Path) -> dict[str, str]:
    """Every page the hooks add, by its path in the site's sources."""
    pages = rules_pages()
    pages["gallery.md"] = gallery_page(docs)
    pages["changelog.md"] = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    return pages


def on_files(files: Files, config: MkDocsConfig, **kwargs: Any) -> Files:
    """Add the generated pages to the site's files."""
    for uri, content in generated_pages(Path(config.docs_dir)).items():
        files.append(File.generated(config, uri, content=content))
    return files


def on_serve(server: Any, config: MkDocsConfig, builder: Any, **kwargs: Any) -> Any:
    """``mkdocs serve`` rebuilds when a spec or the changelog changes too."""
    server.watch(str(SPECS))
    server.watch(str(ROOT / "CHANGELOG.md"))
    return server
