"""Where a notification may go (issue 31): an apprise URL or a Web Push endpoint is refused when
its host resolves to a private, loopback, link-local or otherwise non-public address, unless the
server allows it (``ROLLING_NOTIFY_ALLOW_PRIVATE=1``): otherwise anyone with an account could make
the server call into its own network (18xx.games guards against the same).

The check runs when the URL is set and again before each delivery (a name may resolve elsewhere
later). Services whose apprise URL names no host of its own (``discord://WEBHOOK_ID/TOKEN``: the
plugin calls the service's public address) are not resolved.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from ..service import WebError

#: apprise schemes whose URL names an id, not a host: the plugin calls its service's own address
#: (every other scheme, ``json://``, ``matrix://``, ``mailto://``, ``https://``..., is resolved)
FIXED_HOSTS = frozenset({"discord", "slack", "tgram", "msteams", "pover", "pbul", "join", "pushed"})


class Refused(WebError):
    """A notification URL that may not be used (400), saying why."""

    name = "NotificationRefused"


def public_host(host: str | None, allow_private: bool) -> None:
    """Check that ``host`` resolves to public addresses only.

    Raises:
        Refused: no host, a name that does not resolve, or a non-public address (unless
            ``allow_private``).
    """
    if not host:
        raise Refused("the URL names no host")
    if allow_private:
        return
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError):
        raise Refused(f"the host {host!r} cannot be resolved") from None
    for info in infos:
        addr = ipaddress.ip_address(info[4][0].split("%")[0])
        if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
            addr = addr.ipv4_mapped
        if not addr.is_global:
            raise Refused(f"the host {host!r} is a private or loopback address ({addr}); this server does not send "
                          "notifications there (ROLLING_NOTIFY_ALLOW_PRIVATE=1 allows it)")


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
