"""The one options system (``core.options``): one spec per option, one parser, one spelling."""

from __future__ import annotations

import warnings
from dataclasses import fields
from typing import Any

import pytest

from banditsolve.core.options import DeprecatedSpelling, OptionSet, OptionSpec
from banditsolve.errors import RuleOptionError


def sizes(text: str) -> None:
    width, x, height = text.partition("x")
    if not (x and width.isdigit() and height.isdigit() and 2 <= int(width) <= 9):
        raise RuleOptionError(f"option size={text!r} is not WxH")


OPTIONS = OptionSet(
    "Test Game",
    (
        OptionSpec("trunk_count", ("at_least", "exactly"), "at_least", "the box's count",
                   ("T-1",), old_names=("trunk-count",), old_values=(("at-least", "at_least"),)),
        OptionSpec("hand", ("3", "4"), "3", "the seed's hand", ("T-2",), kind="int"),
        OptionSpec("size", ("unbounded", "5x5"), "unbounded", "no edge", ("T-3",), check=sizes),
    ),
)


def test_defaults_values_and_changes() -> None:
    assert OPTIONS.defaults() == {"trunk_count": "at_least", "hand": 3, "size": "unbounded"}
    assert OPTIONS.names() == {
        "trunk_count": ("at_least", "exactly"),
        "hand": ("3", "4"),
        "size": ("unbounded", "5x5"),
    }
    read = OPTIONS.read({"hand": "4", "size": "7x3"})
    assert read == {"trunk_count": "at_least", "hand": 4, "size": "7x3"}
    assert OPTIONS.changes(read) == {"hand": "4", "size": "7x3"}
    assert OPTIONS.read({"trunk_count": "exactly"}, base=read)["hand"] == 4
    assert OPTIONS.read_items(["hand=4", " size = 5x5"]) == {"hand": 4, "size": "5x5"}


def test_a_new_spelling_is_never_read_from_another_game() -> None:
    changed = OPTIONS.with_defaults("Other", {"hand": "4"})
    assert changed.defaults()["hand"] == 4
    assert OPTIONS.defaults()["hand"] == 3
    more = OPTIONS.extended("More", [OptionSpec("mode", ("1", "2"), "1", "first", kind="int")])
    assert list(more.names()) == ["trunk_count", "hand", "size", "mode"]


@pytest.mark.parametrize(
    ("values", "words"),
    [
        ({"no_such": "x"}, "unknown Test Game rule option 'no_such' (options: trunk_count"),
        ({"hand": "5"}, "option hand takes one of 3, 4, not '5'"),
        ({"hand": 3.0}, "option hand takes a whole number"),
        ({"hand": True}, "option hand takes a whole number"),
        ({"trunk_count": 1}, "option trunk_count takes text"),
        ({"size": "1x1"}, "is not WxH"),
        ({"trunk_count": "x" * 500}, "is too long"),
        (
            {"trunk-count": "exactly", "trunk_count": "exactly"},
            "option 'trunk_count' is given twice",
        ),
    ],
)
def test_bad_values_are_refused_in_one_line(values: dict[str, object], words: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecatedSpelling)
        with pytest.raises(RuleOptionError) as caught:
            OPTIONS.read(values)
    assert words in str(caught.value)
    assert "\n" not in str(caught.value)


def test_items_that_are_not_name_value_are_refused() -> None:
    for items in (["hand"], ["=4"], ["hand=4", "hand=3"]):
        with pytest.raises(RuleOptionError):
            OPTIONS.read_items(items)


def test_old_spellings_are_read_with_a_deprecation_note_and_never_written() -> None:
    with pytest.warns(DeprecatedSpelling) as notes:
        read = OPTIONS.read({"trunk-count": "at-least"})
    assert read["trunk_count"] == "at_least"
    assert [str(n.message) for n in notes] == [
        "option trunk-count is an old spelling, read as option trunk_count; write option "
        "trunk_count",
        "trunk_count=at-least is an old spelling, read as trunk_count=at_least; write "
        "trunk_count=at_least",
    ]
    assert OPTIONS.changes({"trunk_count": "exactly"}) == {"trunk_count": "exactly"}


def test_help_names_values_default_reason_and_rules() -> None:
    lines = OPTIONS.help().splitlines()
    assert lines[0] == "trunk_count: at_least, exactly (default at_least: the box's count) [T-1]"
    assert lines[2].startswith("size: unbounded, 5x5, or any other value the option takes")


def test_a_spec_must_be_well_formed() -> None:
    with pytest.raises(ValueError, match="lower-case identifier"):
        OptionSpec("Trunk-Count", ("a",), "a", "r")
    with pytest.raises(ValueError, match="not listed"):
        OptionSpec("x", ("a",), "b", "r")
    with pytest.raises(ValueError, match="digits"):
        OptionSpec("x", ("a",), "a", "r", kind="int")
    spec = OptionSpec("x", ("a",), "a", "r")
    with pytest.raises(ValueError, match="used twice"):
        OptionSet("G", (spec, spec))


def test_check_refuses_python_values_the_option_does_not_take() -> None:
    OPTIONS.check({"trunk_count": "exactly", "hand": 4, "size": "6x6"})
    for bad in ({"hand": "4"}, {"trunk_count": "nope"}, {"hand": 9}):
        with pytest.raises(RuleOptionError):
            OPTIONS.check(bad)


def test_an_unknown_option_of_a_game_with_many_names_a_few_of_them_in_a_short_line() -> None:
    """A game with many options lists the first of them and how many more: the refusal stays
    one short line, even when the unknown name is long (Bandida's 19 options once made it 304
    characters long inside a game state's refusal)."""
    many = OptionSet(
        "Many",
        tuple(OptionSpec(f"option_number_{i}", ("a", "b"), "a", "first") for i in range(30)),
    )
    with pytest.raises(RuleOptionError) as caught:
        many.read({"\U00100d99" * 200: "a"})
    message = str(caught.value)
    assert len(message) < 250, message
    assert "(options: option_number_0, option_number_1, " in message
    shown = message.count("option_number_")
    assert 3 < shown < 30
    assert message.endswith(f" and {30 - shown} more)")
    with pytest.raises(RuleOptionError, match=r"\(options: trunk_count, hand, size\)$"):
        OPTIONS.read({"no_such": "x"})


def test_every_games_options_refuse_unknown_keywords_and_wrong_types_in_one_line() -> None:
    """Each game's options dataclass, built from Python: a keyword that names no option, and a
    value of the wrong type (a number as text, text as a number), are refused in one line with
    the library's error, which is a TypeError too (Python's own for an unknown keyword was a
    bare TypeError; a number given as text once said only "cannot be '3'")."""
    from banditsolve.banditos.state import Options as BanditosOptions
    from banditsolve.errors import RuleOptionTypeError
    from banditsolve.rolling.state import Options as RollingOptions
    from banditsolve.tunnels.bandida.state import BandidaOptions
    from banditsolve.tunnels.state import Options as TunnelOptions

    classes: tuple[type[Any], ...] = (
        BanditosOptions, RollingOptions, TunnelOptions, BandidaOptions
    )
    for options in classes:
        with pytest.raises(RuleOptionTypeError) as caught:
            options(no_such_option=1)
        message = str(caught.value)
        assert isinstance(caught.value, TypeError)
        assert isinstance(caught.value, ValueError)
        assert "'no_such_option'" in message
        assert options.__name__ in message
        assert "\n" not in message
        assert len(message) < 250, message
        assert "OPTION_SET" not in message
        assert options() == options()
        names = [f.name for f in fields(options)]
        with pytest.raises(RuleOptionTypeError, match=f"at most {len(names)} rule options"):
            options(*range(len(names) + 1))
        first = options()
        with pytest.raises(RuleOptionTypeError, match=f"{names[0]} of .* given twice"):
            options(getattr(first, names[0]), **{names[0]: getattr(first, names[0])})
    with pytest.raises(RuleOptionTypeError, match=r"hand_size takes a whole number \(3, "):
        TunnelOptions(hand_size="3")  # type: ignore[arg-type]
    with pytest.raises(RuleOptionTypeError, match=r"mode takes a whole number \(1, 2, 3\)"):
        BandidaOptions(mode="2")  # type: ignore[arg-type]
    with pytest.raises(RuleOptionTypeError, match="proof takes text"):
        BanditosOptions(proof=3)  # type: ignore[arg-type]
    with pytest.raises(RuleOptionTypeError, match="hand_size takes a whole number"):
        TunnelOptions(hand_size=True)
    with pytest.raises(RuleOptionTypeError, match="keep takes text"):
        RollingOptions(keep=3)  # type: ignore[arg-type]
    assert TunnelOptions(hand_size=4).hand_size == 4
