"""Password hashing: argon2id (argon2-cffi's ``PasswordHasher``, RFC 9106's low-memory
parameters). A sign-in for a name without an account checks the password against a dummy
hash made the same way, so that it costs the same time as a wrong password and the two cannot
be told apart by timing."""

from __future__ import annotations

import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

#: passwords are at least this long; longer than the maximum is refused (hashing cost)
MIN_PASSWORD = 8
MAX_PASSWORD = 200


class Passwords:
    def __init__(self, hasher: PasswordHasher | None = None) -> None:
        self.hasher = hasher or PasswordHasher()
        self.dummy = self.hasher.hash(secrets.token_urlsafe(16))

    def hash(self, password: str) -> str:
        return self.hasher.hash(password)

    def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored`` (``None``: no such account, checked
        against the dummy hash and always false; so is an account restored without a
        password, ``store.accounts.NO_PASSWORD``, at the same cost)."""
        if stored is not None and not stored.startswith("$argon2"):
            stored = None
        try:
            ok = self.hasher.verify(stored or self.dummy, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False
        return ok and stored is not None

    def needs_rehash(self, stored: str) -> bool:
        return self.hasher.check_needs_rehash(stored)
