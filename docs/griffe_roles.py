"""A Griffe extension for the API reference: the library's docstrings are written for Sphinx
(``:func:`name```, ``:class:`~a.b.C```, ``Quick tour::`` before an indented block, bare ``>>>``
examples), and mkdocstrings renders Markdown. On the loaded package, before any docstring is
parsed, this rewrites each docstring's text (the sources are left alone):

- a role becomes a cross-reference to the object it names, resolved the way Sphinx resolves it
  (absolute, then relative to the docstring's module and its parents; ``~`` shows the last part
  only). The reference is *optional*: an object that the site does not render is shown as code,
  with no warning, so ``mkdocs build --strict`` passes;
- a run of ``>>>`` lines (with their output, up to a blank line) becomes a ``pycon`` code block;
- a paragraph ending in ``::`` ends in ``:`` (the indented block after it is code in Markdown too);
- a rule ID (``BD-CLOSE-8``) outside code links to its anchor on the rules pages (made by
  ``docs/hooks.py``), and a family of rules (``RB-TURN-*``) keeps its star.

mkdocs.yml loads it (``extensions: - docs/griffe_roles.py:SphinxRoles``).
"""

from __future__ import annotations

import html
import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?P<role>[a-z]+):`(?P<body>[^`]+)`")
RULE_ID = re.compile(r"(?<![\w#/-])(?P<id>[A-Z]{2}-[A-Z]+-\d+)(?![\w-])")
RULE_FAMILY = re.compile(r"(?<![\w-])(?P<prefix>[A-Z]{2}-[A-Z]+-)\*")
FENCE = re.compile(r"^\s*(```|~~~)")
EXPLICIT_TITLE = re.compile(r"^(?P<title>.+?)\s*<(?P<target>[^<>]+)>$")


class SphinxRoles(griffe.Extension):
    """Rewrite every docstring of the package once it is loaded (see the module's notes)."""

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        self._walk(pkg, loader)

    def _walk(self, obj: griffe.Object, loader: griffe.GriffeLoader) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown_of(obj.docstring.value, obj, loader)
        for member in list(obj.members.values()):
            if member.is_alias or not isinstance(member, griffe.Object):
                continue
            self._walk(member, loader)


def markdown_of(text: str, obj: griffe.Object, loader: griffe.GriffeLoader) -> str:
    """The docstring ``text`` of ``obj`` in Markdown: roles, examples and ``::`` rewritten."""

    def role(match: re.Match[str]) -> str:
        return reference(match.group("body"), obj, loader)

    out: list[str] = []
    in_fence = False
    for line in literal_blocks(examples(text)).splitlines():
        fence = FENCE.match(line) is not None
        in_fence ^= fence
        if fence or in_fence or line.startswith("    "):
            out.append(line)
        else:
            out.append(rule_links(ROLE.sub(role, line)))
    return "\n".join(out)


def rule_links(line: str) -> str:
    """``line`` with each rule ID outside code spans an optional link to its rule."""
    parts = line.split("`")
    for i in range(0, len(parts), 2):
        text = RULE_FAMILY.sub(r"\g<prefix>\\*", parts[i])
        parts[i] = RULE_ID.sub(
            lambda m: f'<autoref identifier="{m["id"]}" optional>{m["id"]}</autoref>', text
        )
    return "`".join(parts)


def reference(body: str, obj: griffe.Object, loader: griffe.GriffeLoader) -> str:
    """One role's body (``~a.b``, ``.c``, ``title <target>``) as a cross-reference or code."""
    explicit = EXPLICIT_TITLE.match(body)
    title: str | None = None
    if explicit:
        title, body = explicit.group("title"), explicit.group("target")
    short = body.startswith("~")
    target = body.lstrip("~").removesuffix("()")
    shown = title or (target.lstrip(".").rsplit(".", 1)[-1] if short else target.lstrip("."))
    if body.endswith("()") and title is None:
        shown += "()"
    found = resolve(target, obj, loader)
    code = f"<code>{html.escape(shown)}</code>"
    if found is None:
        return code
    return f'<autoref identifier="{html.escape(found)}" optional>{code}</autoref>'


def resolve(target: str, obj: griffe.Object, loader: griffe.GriffeLoader) -> str | None:
    """The full path of the object ``target`` names from ``obj``'s docstring, if it exists."""
    module = obj if isinstance(obj, griffe.Module) else obj.module
    scopes = [module.path]
    while "." in scopes[-1]:
        scopes.append(scopes[-1].rsplit(".", 1)[0])
    name = target.lstrip(".")
    candidates = [] if target.startswith(".") else [name]
    if isinstance(obj.parent, griffe.Class):
        candidates.append(f"{obj.parent.path}.{name}")
    if isinstance(obj, griffe.Class):
        candidates.append(f"{obj.path}.{name}")
    candidates += [f"{scope}.{name}" for scope in scopes]
    for path in candidates:
        try:
            loader.modules_collection[path]
        except Exception:  # any failure to find or resolve the path means "not this one"
            continue
        return path
    return None


def examples(text: str) -> str:
    """Each run of ``>>>`` lines at the margin, with its output up to a blank line, fenced."""
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if not lines[i].startswith(">>>"):
            out.append(lines[i])
            i += 1
            continue
        block: list[str] = []
        while i < len(lines) and lines[i].strip():
            block.append(lines[i])
            i += 1
        out += ["", "```pycon", *block, "```", ""]
    return "\n".join(out)


def literal_blocks(text: str) -> str:
    """reST's ``::`` at the end of a paragraph as Markdown: one colon, or nothing alone."""
    out = []
    for line in text.splitlines():
        if line.strip() == "::":
            continue
        out.append(line[:-1] if line.endswith("::") else line)
    return "\n".join(out)
