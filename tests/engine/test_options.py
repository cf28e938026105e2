"""Options in words: every option of every game has a plain description, what it takes and its
default in words; a refused option is explained the same way, with the valid keys or range."""

import pytest

import games
from games.engine import SetupError
from games.engine.options import describe


@pytest.mark.parametrize("kind", games.available())
def test_every_option_is_described_with_its_values_and_default_in_words(kind):
    game = games.get(kind)
    lines = describe(game.Options)
    assert len(lines) == len(game.Options.model_fields)
    for name, line in zip(game.Options.model_fields, lines, strict=True):
        assert line.startswith(f"• **{name}**: "), line  # a description, not a bare name
        assert "Takes " in line and " by default." in line and ";  by default" not in line
        assert "None" not in line and "False" not in line and "True" not in line, line


@pytest.mark.parametrize(("kind", "options", "said"), [
    ("ritual", {"choosing_seconds": "abc"}, "`choosing_seconds` must be a whole number from 10 to 900."),
    ("ritual", {"idle_offering": "x"}, "`idle_offering` must be random or none."),
    ("ritual", {"revenant": "maybe"}, "`revenant` must be true or false."),
    ("castle", {"first_player": "me"}, "`first_player` must be one of random, claim, listed."),
    ("castle", {"turn_seconds": "-5"}, "`turn_seconds` must be a whole number from 0 to 604800 (or none)."),
])
def test_a_malformed_option_is_refused_in_a_plain_sentence(kind, options, said):
    with pytest.raises(SetupError) as err:
        games.get(kind).parse_options(options)
    assert str(err.value) == said and "Input should" not in str(err.value)


def test_an_unknown_option_names_the_valid_keys():
    with pytest.raises(SetupError) as err:
        games.get("cauldron").parse_options({"night_secs": "30"})
    text = str(err.value)
    assert text.startswith("'night_secs' is not an option of ") and "night_seconds, day_seconds" in text


def test_none_is_accepted_where_an_option_may_be_none():
    options = games.get("castle").parse_options({"turn_seconds": "none", "max_turns": "null"})
    assert options.turn_seconds is None and options.max_turns is None
    with pytest.raises(SetupError):
        games.get("ritual").parse_options({"choosing_seconds": "none"})  # may not be none
