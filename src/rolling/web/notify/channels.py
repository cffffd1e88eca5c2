"""The channels of a notification (issue 31): email over SMTP (the server's settings), apprise URLs
(webhooks, Discord, Slack, Matrix, ...) and browser Web Push (VAPID). Each send is blocking I/O: the
notifier calls them from a worker thread, never from a request.
"""

from __future__ import annotations

import base64
import json
import smtplib
from email.message import EmailMessage
from typing import Any

from ..settings import Settings


class SendFailed(Exception):
    """A channel did not take the message (the notifier tries again later)."""


def email_configured(settings: Settings) -> bool:
    """Whether the server has a mail server (``ROLLING_SMTP_HOST``)."""
    return bool(settings.smtp_host)


def send_email(settings: Settings, to: str, subject: str, body: str) -> None:
    """Send a plain-text email through the server's SMTP settings.

    Raises:
        SendFailed: no mail server configured, or it refused or could not be reached.
    """
    if not settings.smtp_host:
        raise SendFailed("no mail server is configured (ROLLING_SMTP_HOST)")
    security = settings.smtp_security.lower()
    port = settings.smtp_port or {"ssl": 465, "starttls": 587}.get(security, 25)
    msg = EmailMessage()
    msg["From"] = settings.smtp_from
    msg["To"] = to
    msg["Subject"] = subject
    msg.set_content(body)
    try:
        cls = smtplib.SMTP_SSL if security == "ssl" else smtplib.SMTP
        with cls(settings.smtp_host, port, timeout=20) as smtp:
            if security == "starttls":
                smtp.starttls()
            if settings.smtp_user:
                smtp.login(settings.smtp_user, settings.smtp_password)
            smtp.send_message(msg)
    except (OSError, smtplib.SMTPException) as e:
        raise SendFailed(f"email to {to}: {e}") from None


def send_apprise(url: str, title: str, body: str) -> None:
    """Send through one apprise URL.

    Raises:
        SendFailed: apprise could not read the URL or the service did not take the message.
    """
    import apprise

    ap = apprise.Apprise()
    if not ap.add(url):
        raise SendFailed("apprise cannot read the URL")
    if not ap.notify(body=body, title=title):
        raise SendFailed(f"the service of {url.split('://')[0]}:// did not take the message")


def vapid_keys() -> tuple[str, str]:
    """A new VAPID key pair: ``(private key PEM, application server key)``, the second being the
    public key as an uncompressed point, base64url without padding (what browsers take)."""
    from cryptography.hazmat.primitives import serialization
    from py_vapid import Vapid

    v = Vapid()
    v.generate_keys()
    pem = v.private_pem().decode()
    raw = v.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return pem, base64.urlsafe_b64encode(raw).decode().rstrip("=")


def send_push(subscription: dict[str, Any], private_pem: str, subject: str, payload: dict[str, Any]) -> None:
    """Send a Web Push message (encrypted for the subscription, signed with the VAPID key).

    Raises:
        SendFailed: the push service refused it or could not be reached.
    """
    from py_vapid import Vapid
    from pywebpush import WebPushException, webpush

    try:
        webpush(subscription_info={"endpoint": subscription["endpoint"], "keys": subscription["keys"]},
                data=json.dumps(payload), vapid_private_key=Vapid.from_pem(private_pem.encode()),
                vapid_claims={"sub": subject}, timeout=20)
    except (WebPushException, OSError, KeyError, ValueError) as e:
        raise SendFailed(f"web push: {str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
