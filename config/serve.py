"""The web server: uvicorn on the ASGI app, believing forwarded headers only from named proxies.

    python -m config.serve [uvicorn options, e.g. --host 0.0.0.0 --port 8000 --workers 2]

uvicorn on its own believes ``X-Forwarded-For`` and ``X-Forwarded-Proto`` from 127.0.0.1,
so anything on the same host (or a proxy that passes a client's header on) could choose the
client address that login throttling counts.  This runs uvicorn with those headers believed
only from the proxies ``BEHIND_TLS_PROXY`` names (config/proxies.py), and not at all when
it names none.  ``./scripts/run``, the Dockerfile and docker-compose.yml all start it.
"""
from __future__ import annotations

import sys

APP = "config.asgi:application"
#: options this launcher decides; giving them too would undo the point of it
OWN = ("--proxy-headers", "--no-proxy-headers", "--forwarded-allow-ips")


def uvicorn_args(argv: list[str], proxies: list[str]) -> list[str]:
    given = [a for a in argv if a.split("=", 1)[0] in OWN]
    if given:
        raise SystemExit(f"config.serve: {given[0].split('=', 1)[0]} comes from BEHIND_TLS_PROXY; do not pass it.")
    trust = ["--proxy-headers", "--forwarded-allow-ips", ",".join(proxies)] if proxies else ["--no-proxy-headers"]
    return [APP, *trust, *argv]


def main(argv: list[str] | None = None) -> None:
    from uvicorn.main import main as uvicorn

    from config.proxies import trusted_proxies

    try:
        proxies = trusted_proxies()
    except ValueError as exc:
        raise SystemExit(str(exc))
    uvicorn.main(args=uvicorn_args(list(sys.argv[1:] if argv is None else argv), proxies), prog_name="config.serve")


if __name__ == "__main__":
    main()
