"""Account names: their normal form, the characters they may not hold, and their skeleton,
under which names that look alike are one name.

- A name is stored in Unicode's NFKC form (``Ａｎｎ``, fullwidth, is ``Ann``).
- It may not hold an invisible or formatting character: nothing of the categories Cf
  (format: zero-width spaces and joiners, soft hyphens, bidirectional marks…), Cc, Co, Cs,
  Cn, Mn, Me, Zl and Zp, nor the Hangul fillers and the other default-ignorable letters of
  ``INVISIBLE`` (letters that draw nothing).
- Its *key* (``name_key``: NFKC, case-folded) is how it is found at sign-in: ``ann`` signs
  in to ``Ann``.
- Its *skeleton* (``skeleton``) is unique among accounts: a second name with the skeleton of
  an existing one is taken. It is the key with the common look-alikes replaced by one
  letter each (``CONFUSABLES``, a small subset of Unicode's UTS #39 confusables: the
  Cyrillic and Greek letters drawn like Latin ones, ``0``/``O``, ``1``/``I``/``l``, ``rn``/
  ``m``, ``vv``/``w``): ``Аnna`` with a Cyrillic ``А`` is ``Anna``, ``lris`` is ``Iris``,
  ``B0b`` is ``Bob``. Names that merely differ (``Ann``, ``Anne``) stay apart.
"""

from __future__ import annotations

import unicodedata

#: Categories no name may hold: format, control, private, surrogate, unassigned, combining
#: marks that draw nothing of their own, and line or paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cf", "Cc", "Co", "Cs", "Cn", "Mn", "Me", "Zl", "Zp"})
#: Letters (Lo) that draw nothing: the Hangul fillers, the Khmer inherent vowels, and the
#: Braille blank (a So drawn as a space).
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u17b4\u17b5\u2800")

#: Capital letters drawn like Latin capitals, applied before case folding (their lower
#: cases differ: Cyrillic ``В`` is ``B``, its ``в`` is not ``b``).
_CAPITALS = {
    # Cyrillic
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P",
    "С": "C", "Т": "T", "Х": "X", "Ѕ": "S", "І": "I", "Ј": "J", "Ү": "Y", "Ԛ": "Q",
    "Ԝ": "W",
    # Greek
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M",
    "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
    # Latin capital I and the digits drawn like letters
    "I": "l", "1": "l", "0": "O",
}  # fmt: skip
#: Small letters drawn like Latin small letters, applied after case folding.
_SMALL = {
    # Cyrillic
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "ѕ": "s",
    "і": "i", "ј": "j", "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l", "ь": "b",
    # Greek
    "ο": "o", "α": "a", "ν": "v", "ι": "i", "κ": "k", "ρ": "p", "τ": "t", "υ": "u",
    "χ": "x", "γ": "y",
    # Latin
    "ı": "i",
}  # fmt: skip
#: Pairs drawn like one letter, after the letters above.
_PAIRS = (("rn", "m"), ("vv", "w"))
#: Every look-alike the skeleton folds, for the docs and the tests.
CONFUSABLES = {**_CAPITALS, **_SMALL, **dict(_PAIRS)}


def normal(name: str) -> str:
    """The name as it is stored: NFKC."""
    return unicodedata.normalize("NFKC", name)


def invisible(name: str) -> str | None:
    """The first character of ``name`` that no name may hold, as ``U+XXXX`` (``None``: none)."""
    for ch in name:
        if ch in INVISIBLE or unicodedata.category(ch) in REFUSED_CATEGORIES:
            return f"U+{ord(ch):04X}"
    return None


def name_key(name: str) -> str:
    """The form in which a name is found at sign-in: NFKC, case-folded (``Ann`` = ``ANN``)."""
    return normal(name).casefold()


def skeleton(name: str) -> str:
    """The form in which names are unique: NFKC, look-alike capitals, case folding,
    look-alike small letters and pairs, each replaced by the Latin letter it looks like."""
    text = "".join(_CAPITALS.get(ch, ch) for ch in normal(name))
    text = "".join(_SMALL.get(ch, ch) for ch in text.casefold())
    for pair, letter in _PAIRS:
        text = text.replace(pair, letter)
    return text
