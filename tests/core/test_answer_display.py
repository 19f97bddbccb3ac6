"""An answer in a notebook (issue 28): ``Answer._repr_html_`` is a small table of the game, the
question, the status, the answer and the reason, every value escaped."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from banditsolve.core.answer import Answer

FIELDS = ("game", "question", "status", "answer", "reason")


def table_of(answer: Answer) -> dict[str, str]:
    root = ET.fromstring(answer._repr_html_())  # well formed: it parses as XML
    assert root.tag == "table"
    rows = root.findall("tr")
    return {row.findtext("th", ""): row.findtext("td", "") for row in rows}


def test_the_table_holds_the_five_fields_in_order() -> None:
    answer = Answer("banditos", "claim", "no", "unsafe", "a green 4 beats it",
                    certificate=["g4"])
    root = ET.fromstring(answer._repr_html_())
    assert [row.findtext("th") for row in root.findall("tr")] == list(FIELDS)
    assert table_of(answer) == {
        "game": "banditos",
        "question": "claim",
        "status": "no",
        "answer": "unsafe",
        "reason": "a green 4 beats it",
    }


def test_markup_in_a_value_is_escaped_and_shown_as_text() -> None:
    reason = 'the exit <W> & "the hole" </td></tr><script>alert(1)</script>'
    answer = Answer("bandido", "close", "unknown", "unknown", reason)
    html = answer._repr_html_()
    assert "<script>" not in html
    assert table_of(answer)["reason"] == reason  # the text survives, as text


def test_every_banditos_answer_displays() -> None:
    from banditsolve.banditos import claim_verdict_at, completion_odds_at, parse_position

    state = parse_position("3:k4r5b6:g5g6/2:k1k1:g1g2g3/1:r6r6r6:g4/1:b2b2k3: 123 21:3 0a")
    for answer in (claim_verdict_at(state, 1).to_answer(),
                   completion_odds_at(state, 1).to_answer()):
        shown = table_of(answer)
        assert [shown[f] for f in FIELDS] == [getattr(answer, f) for f in FIELDS]
