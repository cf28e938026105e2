"""Words for the voice table's narration (``Event.say``): numbers and times as a speech engine
reads them best, spelled out ("forty-five seconds", "two minutes")."""

from __future__ import annotations

_SMALL = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
          "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def number_words(n: int) -> str:
    """0 to 999 in words ("forty-five"); larger numbers as digits."""
    if n < 20:
        return _SMALL[n]
    if n < 100:
        tens, unit = divmod(n, 10)
        return _TENS[tens] + (f"-{_SMALL[unit]}" if unit else "")
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        return f"{_SMALL[hundreds]} hundred" + (f" and {number_words(rest)}" if rest else "")
    return str(n)


def spoken_seconds(seconds: int) -> str:
    """A phase's time as said aloud: "ninety seconds", "one minute", "two minutes"."""
    if seconds >= 120 and seconds % 60 == 0:
        return f"{number_words(seconds // 60)} minutes"
    if seconds == 60:
        return "one minute"
    return f"{number_words(seconds)} second{'s' if seconds != 1 else ''}"
