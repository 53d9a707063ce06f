"""A local SMTP server for the tests (aiosmtpd): it keeps every message it receives."""

from __future__ import annotations

from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller

from support.serving import free_port
from tigris_euphrates.server.mail import MailSettings


class Mailbox:
    """An SMTP server on a free local port (``controller.start()``/``stop()``)."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.port = free_port()
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        msg = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        self.messages.append(msg)
        return "250 OK"

    def settings(self, public_url: str = "http://tne.test") -> MailSettings:
        """The server's mail settings sending here; links start with ``public_url``."""
        return MailSettings(host="127.0.0.1", port=self.port, public_url=public_url)
