"""Where a notification may go (issue 31): an apprise URL or a Web Push endpoint is refused when
its host resolves to a private, loopback, link-local or otherwise non-public address, unless the
server allows it (``ROLLING_NOTIFY_ALLOW_PRIVATE=1``): otherwise anyone with an account could make
the server call into its own network (18xx.games guards against the same).

The check runs when the URL is set and again before each delivery (a name may resolve elsewhere
later). Services whose apprise URL names no host of its own (``discord://WEBHOOK_ID/TOKEN``: the
plugin calls the service's public address) are not resolved.

A delivery runs inside :func:`pinned`: there each name is resolved once, every address it resolves
to is checked, and every later resolution of the name in that thread and the threads apprise sends
from (apprise's, requests', pywebpush's own) answers the checked addresses, so the connection goes
to what was checked. Without it a name could answer a public address to the check and a loopback
one to the connection a moment later (DNS rebinding). A name first resolved during the delivery (a
redirect) is checked the same way, and refused as a name that does not resolve.
"""

from __future__ import annotations

import contextlib
import contextvars
import ipaddress
import socket
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from ..service import WebError

#: apprise schemes whose URL names an id, not a host: the plugin calls its service's own address
#: (every other scheme, ``json://``, ``matrix://``, ``mailto://``, ``https://``..., is resolved)
FIXED_HOSTS = frozenset({"discord", "slack", "tgram", "msteams", "pover", "pbul", "join", "pushed"})


class Refused(WebError):
    """A notification URL that may not be used (400), saying why."""

    name = "NotificationRefused"


def _refusal(host: str, addresses: list[str]) -> Refused | None:
    """Why ``host``, resolving to ``addresses``, may not be called (None: every address is public)."""
    for text in addresses:
        addr = ipaddress.ip_address(text.split("%")[0])
        if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
            addr = addr.ipv4_mapped
        if not addr.is_global:
            return Refused(f"the host {host!r} is a private or loopback address ({addr}); this server does not send "
                           "notifications there (ROLLING_NOTIFY_ALLOW_PRIVATE=1 allows it)")
    return None


# -- resolving once: the addresses checked are the addresses called --------------------------------------

#: ``{host: [addresses]}`` inside :func:`pinned`: a context variable, so that it follows the work into
#: the threads apprise runs a delivery in (it copies the caller's context), and no other thread
_PINS: contextvars.ContextVar[dict[str, list[str]] | None] = contextvars.ContextVar("rolling_notify_pins", default=None)
_install = threading.Lock()
_users = 0  # threads inside pinned(): socket.getaddrinfo is _pinned_getaddrinfo while any is
_system: Any = socket.getaddrinfo  # the getaddrinfo _pinned_getaddrinfo stands in front of


def _resolve(host: str) -> list[str]:
    """The addresses of ``host`` (the system's resolver, once per host inside :func:`pinned`).

    Raises:
        Refused: the name does not resolve.
    """
    try:
        resolver = _system if _pins() is not None else socket.getaddrinfo  # (not the pinned one)
        infos = resolver(host, None, 0, 0, socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        raise Refused(f"the host {host!r} cannot be resolved") from None
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def _pins() -> dict[str, list[str]] | None:
    return _PINS.get()


def _pinned_getaddrinfo(host: Any, port: Any, family: int = 0, type: int = 0, proto: int = 0, flags: int = 0) -> Any:
    """``socket.getaddrinfo`` while a thread is inside :func:`pinned`: in its context a name answers
    the addresses it was checked with (checked now if new: a refused one is a resolver error);
    other threads resolve as ever."""
    pins = _pins()
    if pins is None or host is None:
        return _system(host, port, family, type, proto, flags)
    name = host.decode() if isinstance(host, bytes) else str(host)
    key = name.lower().strip("[]")
    addresses = pins.get(key)
    if addresses is None:
        try:
            addresses = _resolve(key)
            refused = _refusal(key, addresses)
        except Refused as e:
            refused = e
        if refused is not None:
            raise socket.gaierror(socket.EAI_NONAME, refused.message)
        pins[key] = addresses
    out = []
    for addr in addresses:
        try:
            out += _system(addr, port, family, type, proto, flags | socket.AI_NUMERICHOST)
        except socket.gaierror:  # (an address of another family than asked for)
            continue
    if not out:
        raise socket.gaierror(socket.EAI_NONAME, f"the host {name!r} has no address of the family asked for")
    return out


@contextlib.contextmanager
def pinned() -> Iterator[None]:
    """Within it, in this thread (and the threads its context is copied to), each name resolves once
    and is checked (:func:`public_host`), and every later resolution of it answers the addresses
    checked (the delivery of a notification). Nothing inside may reach the database: its host would
    be checked as well."""
    global _users, _system
    with _install:
        if _users == 0:
            _system = socket.getaddrinfo
            socket.getaddrinfo = _pinned_getaddrinfo
        _users += 1
    outer = _pins()
    token = _PINS.set({} if outer is None else outer)
    try:
        yield
    finally:
        _PINS.reset(token)
        with _install:
            _users -= 1
            if _users == 0:
                if socket.getaddrinfo is _pinned_getaddrinfo:
                    socket.getaddrinfo = _system


def public_host(host: str | None, allow_private: bool) -> None:
    """Check that ``host`` resolves to public addresses only (inside :func:`pinned`, the addresses
    checked are kept: the connection goes to them).

    Raises:
        Refused: no host, a name that does not resolve, or a non-public address (unless
            ``allow_private``).
    """
    if not host:
        raise Refused("the URL names no host")
    if allow_private:
        return
    pins = _pins()
    key = host.lower().strip("[]")
    addresses = pins.get(key) if pins is not None else None
    if addresses is None:
        addresses = _resolve(key)
    refused = _refusal(host, addresses)
    if refused is not None:
        raise refused
    if pins is not None:
        pins[key] = addresses


def check_url(url: str, allow_private: bool) -> str:
    """An apprise URL, stripped, once apprise can read it and its host is allowed.

    Raises:
        Refused: apprise does not know the URL, or :func:`public_host` refuses its host.
    """
    import apprise

    url = str(url).strip()
    if len(url) > 2000 or "\x00" in url:
        raise Refused("a notification URL is at most 2000 characters, and no NUL")
    if apprise.Apprise.instantiate(url) is None:
        raise Refused(f"apprise does not know the URL {url.split('://')[0]}://… (see its list of services)")
    parts = urlsplit(url)
    if parts.scheme.lower() in FIXED_HOSTS:
        return url
    public_host(parts.hostname, allow_private)
    return url


def check_endpoint(endpoint: str, allow_private: bool) -> str:
    """A Web Push endpoint once it is an https URL (or any, where private addresses are allowed)
    of an allowed host.

    Raises:
        Refused: not such a URL, or its host is refused.
    """
    if "\x00" in str(endpoint):
        raise Refused("a push endpoint holds no NUL")
    parts = urlsplit(str(endpoint))
    if parts.scheme != "https" and not (allow_private and parts.scheme == "http"):
        raise Refused("a push endpoint is an https URL")
    public_host(parts.hostname, allow_private)
    return str(endpoint)
