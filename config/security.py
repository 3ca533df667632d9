"""A Content-Security-Policy header on every response.

Scripts and styles come from this site only (htmx, live.js, app.css); no inline
script runs and nothing is evaluated from a string: htmx's ``allowEval`` is off
(templates/base.html), and the boards' clickable hexes and places answer Enter and
Space through live.js, not through an htmx trigger filter.  Inline ``style``
attributes are allowed (fleet colours, the SVG charts).
"""
from __future__ import annotations

from asgiref.sync import iscoroutinefunction
from django.utils.decorators import sync_and_async_middleware

POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])


@sync_and_async_middleware
def ContentSecurityPolicyMiddleware(get_response):
    """Sync or async, like the rest of the stack, so live streams stay on the event loop."""
    if iscoroutinefunction(get_response):
        async def middleware(request):
            response = await get_response(request)
            response.headers.setdefault("Content-Security-Policy", POLICY)
            return response
    else:
        def middleware(request):
            response = get_response(request)
            response.headers.setdefault("Content-Security-Policy", POLICY)
            return response
    return middleware
