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
  an existing one is taken. It is the case-folded name with every look-alike of a Latin
  letter or digit replaced by what it is drawn like (``LOOKALIKES``, from
  ``lookalikes.txt``: Unicode's UTS #39 confusables of the Latin letters and digits, the
  Cyrillic, Greek, Armenian, Cherokee... letters, the whole family of ``I``/``l``/``1``/
  ``|``/``ǀ``), and ``rn``/``m``, ``vv``/``w``: ``Аnna`` with a Cyrillic ``А`` is ``Anna``,
  ``Іvan`` with a Cyrillic ``І`` is ``Ivan`` and ``lvan``, ``B0b`` is ``Bob``, ``Ёva`` is
  ``Ëva``. Names that merely differ (``Ann``, ``Anne``) stay apart.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

#: Categories no name may hold: format, control, private, surrogate, unassigned, combining
#: marks that draw nothing of their own, and line or paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cf", "Cc", "Co", "Cs", "Cn", "Mn", "Me", "Zl", "Zp"})
#: Letters (Lo) that draw nothing: the Hangul fillers, the Khmer inherent vowels, and the
#: Braille blank (a So drawn as a space).
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u17b4\u17b5\u2800")

#: Pairs drawn like one letter, folded after the look-alikes of ``LOOKALIKES``.
_PAIRS = (("rn", "m"), ("vv", "w"))


def _read_lookalikes() -> dict[str, str]:
    """The table of ``lookalikes.txt``: each character and the Latin letters it looks like."""
    table: dict[str, str] = {}
    text = Path(__file__).with_name("lookalikes.txt").read_text(encoding="utf-8")
    for line in text.splitlines():
        data = line.split("#", 1)[0].strip()
        if data:
            code, letters = (part.strip() for part in data.split(";"))
            table[chr(int(code, 16))] = letters
    return table


#: Every character the skeleton folds, and the Latin letters or digits it is drawn like
#: (``lookalikes.txt``: Unicode's UTS #39 confusables of the Latin letters and digits).
LOOKALIKES = _read_lookalikes()
#: The same, as a table for ``str.translate``.
_FOLD = str.maketrans(LOOKALIKES)


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
    """The form in which names are unique: NFKC then NFD (an accent apart from its letter),
    every look-alike replaced by the Latin letters it is drawn like, case folded, the
    look-alikes folded again (those case folding made), the pairs, then NFC. Capitals are
    folded before case folding: Cyrillic ``В`` looks like ``B``, its ``в`` not like ``b``."""
    text = unicodedata.normalize("NFD", normal(name)).translate(_FOLD)
    text = text.casefold().translate(_FOLD)
    for pair, letter in _PAIRS:
        text = text.replace(pair, letter)
    return unicodedata.normalize("NFC", text)
