"""Which proxies the app believes: the one setting behind X-Forwarded-For and X-Forwarded-Proto.

``BEHIND_TLS_PROXY`` names the proxies in front of the app: comma-separated addresses or
networks (``10.0.0.2``, ``172.18.0.0/16``); ``1`` means a proxy on this host (``127.0.0.1``
and ``::1``); unset, empty or ``0``: no proxy.  Only a connection from a named proxy may set
the client's address (``X-Forwarded-For``) and scheme (``X-Forwarded-Proto``); from anywhere
else the headers are ignored, so a client cannot pick the address that login throttling
and the password-reset limit count.  Pure Python: ``config/serve.py`` reads it before
Django starts, ``config/settings.py`` as it loads.
"""
from __future__ import annotations

import ipaddress
import os

LOCAL = ("127.0.0.1", "::1")


def trusted_proxies(value: str | None = None) -> list[str]:
    """The named proxies, checked: each an address or a network.  Raises ValueError on a bad one."""
    raw = (os.environ.get("BEHIND_TLS_PROXY", "") if value is None else value).strip()
    if raw.lower() in {"", "0", "false", "no", "off"}:
        return []
    if raw.lower() in {"1", "true", "yes", "on"}:
        return list(LOCAL)
    out = []
    for item in (part.strip() for part in raw.split(",")):
        if not item:
            continue
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise ValueError(f"BEHIND_TLS_PROXY: {item!r} is not an address or a network "
                             "(give the proxies' addresses, comma-separated, or 1 for a proxy on this host).")
        out.append(item)
    return out
