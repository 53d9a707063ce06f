"""What each route answers, typed: one small module per area (``games``, ``accounts``,
``players``, ``meeting``, ``bots``, ``moderation``, ``meta``) and the refusal every route may
give (``errors``).

The answers are ``TypedDict``\\ s, the same kind as the websocket's frames (``frames.py``):
the routes build plain JSON objects, FastAPI checks each answer against its type and the
OpenAPI document (``/openapi.json``) describes it, so a client can be generated from the
document. A key that is sometimes absent is ``NotRequired`` (absent, not ``null``), and a
number that may be whole or not is ``int | float``: the bytes a client reads stay what they
were before the answers were typed. A game's options, seats, result and pace keep the
shapes the store gives them (``store/rows.py``; the options as stored, keys in their order).
What the engine or another part of the package builds and the server passes on (a seat's
view, the events of a step, a game's statistics, the rulesets' facts) is a ``JsonDict``
(``store/jsontypes.py``): any JSON object, its values checked before they are read.
"""
