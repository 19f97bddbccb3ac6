"""Pictures of Los Banditos' answers, in ASCII and SVG: a claim with its counterexample beside
it, the completion odds as bars, the best turn as numbered steps.

Every drawn element a reader (or a test) looks for is marked: a die is a
``<g class="die" data-role="claim|opponent|counterexample|best-completion" data-die="g4">``, a
step of a line a ``<g class="step" data-step="N">``, a bar of the odds a ``<g class="bar">``.

Loading this module registers the claim verdict's pictures with
:mod:`~banditsolve.banditos.claim` (``verdict.svg()``, ``_repr_svg_``); the package imports it.
The odds' and the best turn's pictures are called by their result types in
:mod:`~banditsolve.banditos.solvers`, which this module imports only for type checking.
"""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from banditsolve.banditos.claim import (
    Availability,
    ClaimVerdict,
    best_completion,
    register_verdict_pictures,
)
from banditsolve.banditos.combos import describe, rank
from banditsolve.banditos.dice import ALL_DICE, Die, format_dice
from banditsolve.banditos.render import FONT, draw_die, svg_picture
from banditsolve.banditos.rules import apply
from banditsolve.banditos.state import MAX_SIDE, State
from banditsolve.core.svg import SVG_NS, Svg, ascii_bars, bar_chart, strip
from banditsolve.errors import BanditsolveError

if TYPE_CHECKING:
    from banditsolve.banditos.actions import Action
    from banditsolve.banditos.solvers.endgame import BestTurn
    from banditsolve.banditos.solvers.odds import CompletionOdds

_RED = "#c0392b"
_GREEN = "#2e7d32"
_GREY = "#555555"
_BACK = "#f7f1e3"
_STATUS_COLOUR = {"safe": _GREEN, "unsafe": _RED, "unknown": _GREY}


# -- a claim ----------------------------------------------------------------------------------


def _status_word(verdict: ClaimVerdict) -> str:
    return "unknown" if verdict.safe is None else "safe" if verdict.safe else "unsafe"


def safe_reason(verdict: ClaimVerdict, available: Availability | None) -> str:
    """Why a safe claim holds, in one sentence: the opponent's best completion (when the dice
    they can get, ``available``, are known) ties or ranks below the claim, or they cannot
    fill their side at all."""
    claim = describe(verdict.claim_rank)
    if available is None:
        return f"no completion of the opponent's side ranks above {claim}"
    extra = best_completion([d.code for d in verdict.theirs], available)
    if extra is None:
        return "the opponent cannot fill their side with the dice they can still get"
    side = tuple(sorted(verdict.theirs + tuple(ALL_DICE[c] for c in extra)))
    best = rank(side)
    how = (
        "only ties the claim, and a tie goes to the claim (full first)"
        if best == verdict.claim_rank
        else "ranks below the claim"
    )
    return f"their best completion, {format_dice(side)} ({describe(best)}), {how}"


def _best_extra(verdict: ClaimVerdict, available: Availability | None) -> tuple[Die, ...]:
    if available is None or not verdict.safe:
        return ()
    extra = best_completion([d.code for d in verdict.theirs], available)
    return () if extra is None else tuple(ALL_DICE[c] for c in extra)


def claim_ascii(verdict: ClaimVerdict, heading: str = "", available: Availability | None = None
                ) -> str:
    """The claim in text: the claim's dice and combination, the opponent's side, and the
    counterexample (the added dice in brackets) or why the claim is safe, or the reason it is
    unknown."""
    lines = [heading] if heading else []
    mine = format_dice(verdict.mine)
    lines.append(f"claim           {mine}   {describe(verdict.claim_rank)}")
    held = [str(d) for d in verdict.theirs] + [".."] * (MAX_SIDE - len(verdict.theirs))
    lines.append(f"opponent now    {' '.join(held)}")
    if verdict.safe is None:
        lines.append(f"unknown: {verdict.note}")
    elif verdict.safe:
        lines.append(f"safe: {safe_reason(verdict, available)}")
    else:
        side = verdict.opponent_side
        assert side is not None
        assert verdict.witness is not None
        dice = [str(d) for d in verdict.theirs] + [f"[{d}]" for d in verdict.witness]
        lines.append(
            f"counterexample  {' '.join(dice)}   {describe(rank(side))}: beats the claim"
        )
    return "\n".join(line.rstrip() for line in lines)


def _label(doc: Svg, x: float, y: float, text: str, size: int = 13,
           parent: ET.Element | None = None, **attrs: str | int) -> None:
    doc.add("text", {"x": x, "y": y, "font_family": FONT, "font_size": size, **attrs},
            text=text, parent=parent)


def _dice_row(doc: Svg, dice: tuple[Die, ...], x: float, y: float, role: str,
              parent: ET.Element | None = None, *, empty: int = 0) -> float:
    """Draw ``dice`` (each a ``<g class="die" data-role=role>``) then ``empty`` dashed places;
    returns the x after the row."""
    for die in dice:
        draw_die(doc, die, x, y, parent=parent,
                 attrs={"class": "die", "data_role": role, "data_die": str(die)})
        x += 36
    for _ in range(empty):
        draw_die(doc, None, x, y, parent=parent)
        x += 36
    return x


def claim_svg(verdict: ClaimVerdict, heading: str = "", available: Availability | None = None
              ) -> str:
    """The claim as SVG: on the left the claim (its dice and combination); on the right the
    opponent's side, with the counterexample's dice framed in red for an unsafe claim, the
    best completion faded for a safe one (with ``available``), or the reason it is unknown."""
    word = _status_word(verdict)
    width, height = 660, 214
    title = f"{heading + ': ' if heading else ''}the claim is {word}"
    doc = Svg(width, height, title=title, background=_BACK)
    _label(doc, 12, 24, heading or "a claim", 14, font_weight="bold")
    status = doc.group({"class": "status", "data_status": word})
    _label(doc, width - 12, 24, word.upper(), 16, parent=status, text_anchor="end",
           font_weight="bold", fill=_STATUS_COLOUR[word])
    claim = doc.group({"class": "claim"}, title=f"the claim: {format_dice(verdict.mine)}")
    _label(doc, 12, 54, "the claim", 12, parent=claim, fill=_GREY)
    _dice_row(doc, verdict.mine, 12, 64, "claim", claim)
    _label(doc, 12, 120, describe(verdict.claim_rank), 12, parent=claim)
    doc.add("line", {"x1": 300, "y1": 44, "x2": 300, "y2": 150, "stroke": "#c8b98a"})
    side = doc.group({"class": "opponent"})
    if verdict.safe is False:
        _counterexample(doc, verdict, side)
    else:
        extra = _best_extra(verdict, available)
        caption = "the opponent's side" + (", best completion faded" if extra else "")
        _label(doc, 316, 54, caption, 12, parent=side, fill=_GREY)
        x = _dice_row(doc, verdict.theirs, 316, 64, "opponent", side)
        faded = doc.group({"opacity": 0.55}, parent=side)
        _dice_row(doc, extra, x, 64, "best-completion", faded,
                  empty=MAX_SIDE - len(verdict.theirs) - len(extra))
        why = verdict.note if verdict.safe is None else safe_reason(verdict, available)
        for k, line in enumerate(textwrap.wrap(f"{word}: {why}", 44)):
            _label(doc, 316, 120 + 16 * k, line, 12, parent=side)
    for k, line in enumerate(textwrap.wrap(verdict.explain(), 96)[:2]):
        _label(doc, 12, 182 + 15 * k, line, 11, fill=_GREY)
    return doc.to_string()


def _counterexample(doc: Svg, verdict: ClaimVerdict, parent: ET.Element) -> None:
    side = verdict.opponent_side
    assert side is not None
    assert verdict.witness is not None
    group = doc.group({"class": "counterexample"},
                      title=f"counterexample: the opponent adds {format_dice(verdict.witness)}",
                      parent=parent)
    added = "die" if len(verdict.witness) == 1 else "dice"
    _label(doc, 316, 54, f"counterexample: the opponent adds the framed {added}", 12,
           parent=group, fill=_RED)
    x = _dice_row(doc, verdict.theirs, 316, 64, "opponent", group)
    for k in range(len(verdict.witness)):
        doc.add("rect", {"x": x + 36 * k - 3, "y": 61, "width": 36, "height": 36, "rx": 7,
                         "fill": "none", "stroke": _RED, "stroke_width": 3}, parent=group)
    _dice_row(doc, verdict.witness, x, 64, "counterexample", group)
    _label(doc, 316, 120, f"{format_dice(side)}: {describe(rank(side))}", 12, parent=group)
    _label(doc, 316, 136, f"beats the claim's {describe(verdict.claim_rank)}", 12,
           parent=group, fill=_RED)


register_verdict_pictures(claim_ascii, claim_svg)


# -- the odds ---------------------------------------------------------------------------------


def odds_bars(odds: CompletionOdds) -> list[tuple[str, float]]:
    """The three outcomes as ``(label, share)`` bars, above first."""
    return [
        (f"above {odds.above}", float(odds.above)),
        (f"equal {odds.equal}", float(odds.equal)),
        (f"below {odds.below}", float(odds.below)),
    ]


def _odds_head(odds: CompletionOdds) -> str:
    side = format_dice(odds.theirs) or "nothing"
    bag = " ".join(str(n) for n in odds.bag)
    return f"the opponent completes [{side}] from the bag (k g r b = {bag})"


def odds_ascii(odds: CompletionOdds) -> str:
    """The odds in text: what is completed against what, then one bar per outcome."""
    return (
        f"{_odds_head(odds)} against {describe(odds.claim)}:\n"
        + ascii_bars(odds_bars(odds), scale=1.0)
        + f"\nthe claim holds (equal or below) with probability {odds.not_above}"
    )


def odds_svg(odds: CompletionOdds) -> str:
    """The odds as SVG: the opponent's dice, the claim's combination, and a bar chart with one
    bar per outcome (above, equal, below), each labelled with its exact fraction."""
    chart = _plain(ET.fromstring(
        bar_chart(odds_bars(odds), title=f"against {describe(odds.claim)}", scale=1.0)
    ))
    del chart.attrib["xmlns"]
    chart_h = float(chart.get("height", "100"))
    width, top = 420, 96
    doc = Svg(width, top + chart_h + 26, title=f"odds against {describe(odds.claim)}")
    _label(doc, 10, 20, _odds_head(odds), 12)
    _label(doc, 10, 44, "opponent:", 12, fill=_GREY)
    _dice_row(doc, odds.theirs, 80, 30, "opponent", empty=MAX_SIDE - len(odds.theirs))
    chart.set("x", "0")
    chart.set("y", str(top - 10))
    doc.root.append(chart)
    _label(doc, 10, top + chart_h + 12,
           f"the claim holds with probability {odds.not_above} (a tie goes to the claim)", 12)
    return doc.to_string()


# -- the best turn ----------------------------------------------------------------------------


def best_head(best: BestTurn) -> str:
    """The value of the turn in a few words: exact, an estimate, or unknown."""
    if best.is_unknown:
        return f"unknown: {best.note}"
    assert best.probability is not None
    if best.method == "exact":
        return (
            f"exact: player {best.player} wins with probability {best.probability} "
            f"(≈ {float(best.probability):.4f})"
        )
    low, high = best.confidence_interval or (0.0, 1.0)
    return (
        f"estimate: player {best.player} wins with probability ≈ {float(best.probability):.4f}"
        f" (95 % interval {low:.4f}-{high:.4f}, Monte Carlo)"
    )


def line_states(best: BestTurn) -> list[tuple[Action, State]]:
    """Each action of the turn with the position after it, from ``best.start`` (empty without
    it); the line stops at an action the position does not allow."""
    if best.start is None:
        return []
    out: list[tuple[Action, State]] = []
    state = best.start
    for action in best.actions:
        try:
            state = apply(state, action)
        except BanditsolveError:  # pragma: no cover - the solver's actions are legal
            break
        out.append((action, state))
    return out


def best_ascii(best: BestTurn) -> str:
    """The best turn in text: its value, the actions as numbered steps, and the position at the
    end of the line (when the start is known)."""
    lines = [best_head(best)]
    if best.is_unknown:
        return lines[0]
    lines.append("the line, step by step:")
    lines.extend(f"  {n}. {action}" for n, action in enumerate(best.actions, start=1))
    after = line_states(best)
    if after:
        lines.append(f"after step {len(after)}:")
        lines.append(str(after[-1][1]))
    return "\n".join(lines)


def best_svg(best: BestTurn) -> str:
    """The best turn as SVG: a strip of boards (the start, then the position after each
    numbered step, each step a ``<g class="step" data-step="N">``) under the turn's value; a
    numbered list in one picture when the start is not known; the reason when unknown."""
    head = best_head(best)
    after = line_states(best)
    if best.is_unknown or best.start is None or not after:
        return _step_list(best, head)
    frames = [("start", svg_picture(best.start))]
    frames.extend((f"{n}. {action}", svg_picture(state))
                  for n, (action, state) in enumerate(after, start=1))
    root = _plain(ET.fromstring(strip(frames, title=head, columns=3)))
    frames_drawn = [g for g in root.iter("g") if g.get("class") == "frame"]
    for number, frame in enumerate(frames_drawn[1:], start=1):
        step = ET.Element("g", {"class": "step", "data-step": str(number)})
        for child in list(frame):
            frame.remove(child)
            step.append(child)
        frame.append(step)
    return ET.tostring(root, encoding="unicode")


def _plain(root: ET.Element) -> ET.Element:
    """``root`` with its tags out of the SVG namespace (as :class:`~banditsolve.core.svg.Svg`
    builds them), the namespace declared once on the root."""
    for el in root.iter():
        if el.tag.startswith("{"):
            el.tag = el.tag.split("}", 1)[1]
    root.set("xmlns", SVG_NS)
    return root


def _step_list(best: BestTurn, head: str) -> str:
    wrapped = textwrap.wrap(head, 64)
    width, height = 560, 40 + 18 * len(wrapped) + 24 * len(best.actions)
    doc = Svg(width, height, title=head, background=_BACK)
    for k, line in enumerate(wrapped):
        _label(doc, 10, 22 + 18 * k, line, 13, font_weight="bold")
    top = 30 + 18 * len(wrapped)
    for n, action in enumerate(best.actions, start=1):
        g = doc.group({"class": "step", "data_step": n}, title=f"step {n}: {action}")
        y = top + 24 * (n - 1)
        doc.add("circle", {"cx": 22, "cy": y + 8, "r": 10, "fill": "#d4a017"}, parent=g)
        _label(doc, 22, y + 12, str(n), 11, parent=g, text_anchor="middle", font_weight="bold")
        _label(doc, 40, y + 13, str(action), 13, parent=g)
    return doc.to_string()
