"""E-mail: the SMTP settings and a small blocking sender (run on a worker thread).

Configured by the server's settings (``Settings.mail``: ``TNE_SMTP_HOST`` and the other
``smtp_*`` settings). Without a host no e-mail is ever sent.
"""

from __future__ import annotations

import asyncio
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import make_msgid

SECURITY = ("none", "starttls", "tls")


@dataclass(frozen=True)
class MailSettings:
    """Where e-mail goes: the SMTP server (``security``: ``none``, ``starttls`` or ``tls``),
    its optional login, the sender address and the site's public address, which the links
    in the e-mails start with (``https://tigris.example.org``)."""

    host: str
    port: int = 25
    sender: str = "Tigris & Euphrates <noreply@localhost>"
    user: str | None = None
    password: str | None = None
    security: str = "none"
    public_url: str = "http://localhost:8000"
    timeout: float = 20.0


class Mailer:
    """Sends e-mails through the configured SMTP server, one connection per message
    (notifications are rare: a move a day)."""

    def __init__(self, settings: MailSettings) -> None:
        self.settings = settings

    def message(
        self, to: str, subject: str, body: str, headers: dict[str, str] | None = None
    ) -> EmailMessage:
        msg = EmailMessage()
        msg["From"] = self.settings.sender
        msg["To"] = to
        msg["Subject"] = subject
        msg["Message-ID"] = make_msgid(domain="tigris-euphrates")
        for name, value in (headers or {}).items():
            msg[name] = value
        msg.set_content(body)
        return msg

    async def deliver(self, msg: EmailMessage) -> None:
        """``send`` on a worker thread: the event loop goes on while the SMTP server answers
        (raises as ``send`` does)."""
        await asyncio.get_running_loop().run_in_executor(None, self.send, msg)

    def send(self, msg: EmailMessage) -> None:
        """Deliver ``msg`` (blocking; raises ``OSError``/``smtplib.SMTPException``)."""
        s = self.settings
        smtp: smtplib.SMTP
        if s.security == "tls":
            smtp = smtplib.SMTP_SSL(
                s.host, s.port, timeout=s.timeout, context=ssl.create_default_context()
            )
        else:
            smtp = smtplib.SMTP(s.host, s.port, timeout=s.timeout)
        with smtp:
            if s.security == "starttls":
                smtp.starttls(context=ssl.create_default_context())
            if s.user:
                smtp.login(s.user, s.password or "")
            smtp.send_message(msg)
