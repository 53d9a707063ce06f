"""Look-alike account names: the skeleton folds every look-alike of a Latin letter or digit of
Unicode's confusables (``store/names.py``, ``lookalikes.txt``), a look-alike of an existing
name is refused through real HTTP, and the migration computes the stored skeletons again
(the older of two look-alikes keeps its skeleton), on SQLite and PostgreSQL."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from support.serving import LiveServer, Player
from tigris_euphrates.store import Store, migrate, normalise_url
from tigris_euphrates.store.names import LOOKALIKES, skeleton

#: Each name and look-alikes of it that must be taken once it exists.
LOOK_ALIKES = {
    "Ivan": [
        "\u0406van",  # Cyrillic І
        "\u0399van",  # Greek Ι
        "\u01c0van",  # Latin ǀ (a click letter)
        "\u04c0van",  # Cyrillic Ӏ (palochka)
        "\u2c92van",  # Coptic Ⲓ
        "lvan",
        "1van",
        "LVAN",
    ],
    "Ian": ["\u01c0an", "lan", "\u0406an", "\u0399an"],
    "ivan": ["\u0269van", "\u0456van", "\u03b9van", "\u0131van"],  # ɩ, і, ι, dotless ı
    # every Cyrillic and Greek capital drawn like a Latin one
    "ABEKMHOPCTX": ["\u0410\u0412\u0415\u041a\u041c\u041d\u041e\u0420\u0421\u0422\u0425"],
    "ABEZHIKMNOPTYX": [
        "\u0391\u0392\u0395\u0396\u0397\u0399\u039a" "\u039c\u039d\u039f\u03a1\u03a4\u03a5\u03a7"
    ],
    # and the small letters
    "aeopcyxijs": ["\u0430\u0435\u043e\u0440\u0441\u0443\u0445\u0456\u0458\u0455"],
    "ovtkx": ["\u03bf\u03bd\u03c4\u03ba\u03c7"],
    "Eva": ["\u0415va", "\u0395va"],
    "\u00cbva": ["\u0401va"],  # Ëva, Cyrillic Ёva
    "Bob": ["B0b", "BOB", "\u0412\u041e\u0412"],
    "bam": ["barn"],
    "Iris": ["lris", "1ris"],
}  # fmt: skip
#: Names that only resemble each other and stay apart.
APART = [("Ann", "Anne"), ("Mia", "Mla"), ("Ivan", "Ivana"), ("Eva", "Ewa"), ("Jose", "Josef")]


@pytest.mark.parametrize("name", sorted(LOOK_ALIKES))
def test_the_skeleton_folds_the_look_alikes(name: str) -> None:
    for twin in LOOK_ALIKES[name]:
        assert skeleton(twin) == skeleton(name), (name, twin)


def test_names_that_merely_differ_stay_apart() -> None:
    for one, other in APART:
        assert skeleton(one) != skeleton(other)


def test_the_whole_family_of_the_vertical_stroke_is_one_letter() -> None:
    family = [ch for ch, letters in LOOKALIKES.items() if letters == "l"]
    assert len(family) >= 20
    assert {"I", "1", "|", "\u0406", "\u0399", "\u01c0", "\u04c0", "\u05c0"} <= set(family)
    assert {skeleton(f"{ch}an") for ch in family} == {skeleton("Ian")} == {skeleton("lan")}


def test_a_look_alike_of_an_existing_name_is_taken(tmp_path: Path) -> None:
    stem = uuid.uuid4().hex[:6]
    with LiveServer(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path}/n.sqlite3") as srv:
        Player(srv).sign_up(f"Ivan{stem}", "correct horse battery")
        for twin in ("\u0406van", "\u0399van", "\u01c0van", "lvan"):
            r = Player(srv).post(
                "/api/account/signup", {"name": f"{twin}{stem}", "password": "long password 1"}
            )
            assert r.status_code == 409 and r.json()["error"] == "name-taken", (twin, r.text)
        Player(srv).sign_up(f"Ian{stem}", "correct horse battery")
        r = Player(srv).post(
            "/api/account/signup", {"name": f"\u01c0an{stem}", "password": "long password 1"}
        )
        assert r.status_code == 409 and r.json()["error"] == "name-taken"


def test_the_migration_computes_the_skeletons_again(db: tuple[str, str]) -> None:
    """Accounts stored with the skeletons of the version before: "Ivan" (older), "Іvan"
    with a Cyrillic І and "ǀan", each with a skeleton of its own then; after the upgrade the
    older "Ivan" keeps its skeleton, "Іvan" has none, "ǀan" has that of "Ian"."""
    url, prefix = db
    engine = create_engine(normalise_url(url))
    migrate.upgrade(engine, prefix, "0013")
    old = [("Ivan", "lvan"), ("\u0406van", "ivan"), ("\u01c0an", "\u01c0an"), ("Ann", "ann")]
    with engine.begin() as conn:
        for i, (name, shape) in enumerate(old, start=1):
            conn.execute(
                text(
                    f'INSERT INTO "{prefix}accounts" (id, name, name_key, password_hash,'
                    " created, generation, name_skeleton)"
                    " VALUES (:i, :n, :k, 'x', 1.0, 0, :s)"
                ),
                {"i": i, "n": name, "k": name.casefold(), "s": shape},
            )
    engine.dispose()
    store = Store(url, prefix)  # upgrades to the newest revision
    with store.db.engine.connect() as conn:
        rows = conn.execute(text(f'SELECT name, name_skeleton FROM "{prefix}accounts" ORDER BY id'))
        shapes = {str(name): shape for name, shape in rows}
        assert migrate.current(conn, prefix) == migrate.head()
    assert shapes == {
        "Ivan": skeleton("Ivan"),
        "\u0406van": None,
        "\u01c0an": skeleton("Ian"),
        "Ann": "ann",
    }
    store.close()
