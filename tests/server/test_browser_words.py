"""The whole page in the player's language, in real headless Chromium: a German browser gets
the table's newer parts in German (the lobby's listing, chat and hints choices, the turn
signals, the chat card, the first-game hints, the confirmation of a turn's last step, the
tab's title, the rules help, the not-found page), the galaxy's help in its German space
words, and a French browser the same parts in French, with no English text left in them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from browsing import chromium, shot, wait_seq_change
from support.serving import LiveServer
from tigris_euphrates.server.limits import Limits

pytestmark = pytest.mark.browser

VIEWPORT = {"width": 1280, "height": 900}
#: English words none of the checked parts may show in German or French
ENGLISH = re.compile(
    r"\b(the|and|your|you|turn|ends?|tiles?|leaders?|cancel|send|rules|hints?|messages|"
    r"table|goal|revolt|kingdoms?|catastrophes?|close|public|games|list|lobby|found)\b",
    re.IGNORECASE,
)
#: the classic game's German words, which the galaxy's help must not use
CLASSIC_DE = re.compile(
    r"\b(plättchen|schatz|schätze|königreich\w*|katastrophe\w*|hand|monument)\b"
)


#: words French shares with English
FRENCH_TOO = frozenset({"catastrophe", "catastrophes", "table"})


def english_in(text: str, shared: frozenset[str] = frozenset()) -> list[str]:
    return sorted({m.group(0).lower() for m in ENGLISH.finditer(text)} - shared)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("words")
    with LiveServer(
        data_dir=data,
        database_url=f"sqlite:///{data}/t.sqlite3",
        client_seeds=True,
        limits=Limits(messages_per_second=10_000, message_burst=10_000),
        confirm_seconds=60,  # the confirmation stays on screen while the test reads it
    ) as srv:
        yield srv


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def new_game(server: LiveServer, seed: int = 1, **options: Any) -> Any:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    r = httpx.post(
        f"{server.url}/api/games", json={"seats": seats, "seed": seed, "options": options}
    )
    assert r.status_code == 200, r.text
    return r.json()


def open_page(browser: Any, locale: str) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport=VIEWPORT, locale=locale)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return context, page, errors


def test_the_table_in_german(server: LiveServer, browser: Any) -> None:
    context, page, errors = open_page(browser, "de-DE")
    # the lobby's newer choices
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    lobby = page.locator(".lobby").inner_text()
    for words in (
        "In der öffentlichen Lobby listen (jeder darf zuschauen)",
        "Tisch-Chat:",
        "Tipps für ein erstes Spiel (was erlaubt ist, und warum)",
        "Öffentliche Spiele",
    ):
        assert words in lobby, words
    chat_choices = page.locator("#chatpolicy option").all_inner_texts()
    assert chat_choices == ["Spieler schreiben, Zuschauer lesen", "alle schreiben", "aus"]
    for english in ("List in the public lobby", "Table chat", "Hints for a first game", "Public"):
        assert english not in lobby, english
    page.wait_for_selector("#helpbtn:not([hidden])")  # drawn once the lobby is
    assert page.locator("#helpbtn").inner_text() == "Regeln"

    # the game: signals, chat and hints (seed 1: Ann's king fits on g3, beside a temple)
    g = new_game(server)
    page.goto(server.url + g["seats"][0]["link"])
    page.wait_for_selector("#hand")
    page.check("#pref-hints")
    page.wait_for_selector("#hints")
    signals = page.locator("#signals").inner_text()
    for words in ("Ende meines Zuges bestätigen", "Ton, wenn ich am Zug bin", "Tipps (erstes"):
        assert words in signals, words
    chat = page.locator("#chat").inner_text()
    assert "Tisch-Chat" in chat and "Noch keine Nachrichten." in chat and "Senden" in chat
    assert page.locator("#chatinput").get_attribute("placeholder") == "Schreib etwas an den Tisch"
    hints = page.locator("#hints").inner_text()
    assert hints.startswith("Tipp") and "Noch 2 Aktion(en) in diesem Zug" in hints
    assert page.title() == "▶ Du bist am Zug · Euphrat & Tigris"
    page.click(".hand-tile[data-colour='red']")
    legal = page.locator(".hit.legal").count()
    hint = page.locator("#hints").inner_text()
    assert f"Du kannst einen Tempel auf {legal} Felder legen. Nur auf Land" in hint
    page.click(".hand-tile[data-colour='red']")  # unselected
    for part in (signals, chat, hint):
        assert not english_in(part), (english_in(part), part)

    # the first action goes at once, the second waits for "Zug beenden"
    seq = page.evaluate("() => document.body.dataset.seq")
    page.click(".leader-chip[data-leader='black']")
    page.click("[data-cell='g3'].legal")
    wait_seq_change(page, seq)
    page.click(".hand-tile[data-colour='red']")
    cell = page.locator(".hit.legal").first.get_attribute("data-cell")
    page.click(f"[data-cell='{cell}'].legal")
    page.wait_for_selector("#confirm")
    confirm = page.locator("#confirm").inner_text()
    assert confirm.startswith("Zug beenden?")
    assert "Letzter Schritt deines Zuges: Tempel auf " + str(cell) in confirm
    assert "Endet von selbst in" in confirm
    assert page.locator("#endturn").inner_text() == "Zug beenden"
    assert page.locator("#cancelturn").inner_text() == "Abbrechen"
    assert not english_in(confirm), (english_in(confirm), confirm)
    shot(page, "words-german-confirm")
    page.click("#cancelturn")
    assert page.locator("#confirm").count() == 0

    # the rules help
    page.click("#helpbtn")
    page.wait_for_selector("#help")
    help_text = page.locator("#help").inner_text()
    for words in (
        "Die Regeln in Kürze",
        "Das Ziel",
        "Plättchen",
        "Nur Bauernhöfe kommen auf Flussfelder",
        "Jeder Spieler hat vier Anführer: König, Priester, Bauer und Händler.",
        "Aufstand",
        "Krieg",
        "Katastrophen",
        "Spielende",
        "Die Entscheidungen im Spiel",
        "Monument",
        "Schließen",
    ):
        assert words in help_text, words
    assert not english_in(help_text), english_in(help_text)
    assert page.locator("#help svg.helppic").get_attribute("aria-label") == "ein Königreich"
    shot(page, "words-german-help")
    page.click("#helpclose")
    assert not errors, errors
    context.close()


def test_the_galaxy_help_in_german_space_words(server: LiveServer, browser: Any) -> None:
    context, page, errors = open_page(browser, "de-DE")
    g = new_game(server, seed=3, ruleset="galaxy")
    page.goto(server.url + g["seats"][0]["link"])
    page.wait_for_selector("#hand")
    page.click("#helpbtn")
    page.wait_for_selector("#help")
    help_text = page.locator("#help").inner_text()
    for words in ("Kolonisten", "Allianzregionen", "Innerer Konflikt", "Waffenschiffe", "Flotte"):
        assert words in help_text, words
    assert not CLASSIC_DE.findall(help_text.lower()), CLASSIC_DE.findall(help_text.lower())
    assert not english_in(help_text), english_in(help_text)
    stages = page.locator("#help section[data-stage]").evaluate_all(
        "els => els.map(e => e.dataset.stage)"
    )
    assert "harvest" in stages and "monument" not in stages and "building" not in stages
    assert not errors, errors
    context.close()


def test_the_not_found_page_the_pass_question_and_the_help_in_french(
    server: LiveServer, browser: Any
) -> None:
    context, page, errors = open_page(browser, "fr-FR")
    response = page.goto(server.url + "/games/oops")
    assert response is not None and response.status == 404
    page.wait_for_selector("#notfound")
    text = page.locator("#notfound").inner_text()
    assert "Introuvable" in text and "Il n'y a pas de page /games/oops ici." in text
    assert page.locator("#tolobby").inner_text() == "Aller au salon"
    assert page.title() == "Introuvable · Tigre & Euphrate"
    shown = text.replace("/games/oops", "")  # the path as typed
    assert not english_in(shown), english_in(shown)
    page.goto(server.url + "/game/000000000000")
    page.wait_for_selector("#notfound")
    assert "Il n'y a pas de partie 000000000000 ici" in page.locator("#notfound").inner_text()
    g = new_game(server)
    page.goto(server.url + g["seats"][0]["link"])
    page.wait_for_selector("#hand")
    seq = page.evaluate("() => document.body.dataset.seq")
    page.click(".leader-chip[data-leader='black']")
    page.click("[data-cell='g3'].legal")
    wait_seq_change(page, seq)
    page.click("#hand [data-action='pass']")
    page.wait_for_selector("#askpass")
    ask = page.locator("#askpass").inner_text()
    assert "Passer cette action ?" in ask and "Oui, passer" in ask and "Non" in ask
    assert not english_in(ask), english_in(ask)
    page.click("#passno")
    assert page.locator("#chat summary").inner_text() == "Discussion de la table"
    page.click("#helpbtn")
    page.wait_for_selector("#help")
    help_text = page.locator("#help").inner_text()
    for words in ("Les règles en bref", "Le but", "Tuiles", "Révolte", "Guerre", "Fermer"):
        assert words in help_text, words
    assert "Chaque joueur a quatre chefs : roi, prêtre, fermier et marchand." in help_text
    assert not english_in(help_text, FRENCH_TOO), english_in(help_text)
    assert not errors, errors
    context.close()


def test_the_account_pages_and_the_clock_choice_in_german(server: LiveServer, browser: Any) -> None:
    context, page, errors = open_page(browser, "de-DE")
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    clocks = page.locator("#pace option").all_inner_texts()
    assert clocks == ["Ohne Uhr", "Echtzeit", "Rundenbasiert"]
    page.select_option("#pace", "realtime")
    pace = page.locator(".pacefields").inner_text()
    assert "Min. pro Spieler" in pace and "s pro Zug" in pace and "Zeit abgelaufen" in pace
    assert page.locator("#nav #signin").inner_text() == "Anmelden"
    assert page.locator("#nav a[href='/leaderboard']").inner_text() == "Bestenliste"
    assert not english_in(pace), english_in(pace)
    page.goto(server.url + "/account")
    page.wait_for_selector("#signup")
    forms = page.locator(".lobby").inner_text()
    for words in ("Anmelden", "Registrieren", "Passwort", "Mein Konto anlegen", "Gastspiele"):
        assert words in forms, words
    assert page.title() == "Anmelden · Euphrat & Tigris"
    assert not english_in(forms), english_in(forms)
    page.goto(server.url + "/leaderboard")
    page.wait_for_selector("#nav")
    board = page.locator("main").inner_text()
    assert "Bestenliste" in board and "Klassisch · 2 Spieler" in board
    assert "Noch keine gewerteten Spiele dieser Art." in board
    assert not english_in(board), english_in(board)
    assert not errors, errors
    context.close()
