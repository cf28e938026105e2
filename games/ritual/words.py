"""Numbers in words, for the narration ("the second pure ritual", "Round Three")."""

from __future__ import annotations

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
            "tenth", "eleventh", "twelfth")
CARDINALS = ("Zero", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
             "Eleven", "Twelve", "Thirteen", "Fourteen", "Fifteen", "Sixteen", "Seventeen", "Eighteen",
             "Nineteen", "Twenty", "Twenty-One", "Twenty-Two", "Twenty-Three", "Twenty-Four",
             "Twenty-Five", "Twenty-Six", "Twenty-Seven", "Twenty-Eight", "Twenty-Nine", "Thirty")


def ordinal(n: int) -> str:
    return ORDINALS[n - 1] if 1 <= n <= len(ORDINALS) else f"{n}th"


def round_word(n: int) -> str:
    return CARDINALS[n] if 0 <= n < len(CARDINALS) else str(n)


def count_words(n: int) -> str:
    return ("no one", "one witch", "two witches", "three witches")[n] if n <= 3 else f"{n} witches"
