"""E-mail: the SMTP settings and a small blocking sender (run on a worker thread).

Configured by settings (``create_app(mail=...)``) or by the environment (``MailSettings
.from_env``: ``TNE_SMTP_HOST`` and the others below). Without a host no e-mail is ever sent.
"""

from __future__ import annotations

import os
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

    @classmethod
    def from_env(cls) -> MailSettings | None:
        """``TNE_SMTP_HOST`` (none: no e-mail), ``TNE_SMTP_PORT``, ``TNE_SMTP_FROM``,
        ``TNE_SMTP_USER``, ``TNE_SMTP_PASSWORD``, ``TNE_SMTP_SECURITY`` and
        ``TNE_PUBLIC_URL``."""
        env = os.environ
        host = env.get("TNE_SMTP_HOST", "").strip()
        if not host:
            return None
        security = env.get("TNE_SMTP_SECURITY", "none").strip().lower() or "none"
        if security not in SECURITY:
            raise ValueError(f"TNE_SMTP_SECURITY is one of {', '.join(SECURITY)}, not {security!r}")
        default_port = {"none": 25, "starttls": 587, "tls": 465}[security]
        return cls(
            host=host,
            port=int(env.get("TNE_SMTP_PORT") or default_port),
            sender=env.get("TNE_SMTP_FROM") or cls.sender,
            user=env.get("TNE_SMTP_USER") or None,
            password=env.get("TNE_SMTP_PASSWORD") or None,
            security=security,
            public_url=(env.get("TNE_PUBLIC_URL") or cls.public_url).rstrip("/"),
        )


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
