"""Small template helpers for the encounter runner."""
import hashlib
import threading
from collections import OrderedDict

from django import template
from django.template.loader import get_template
from django.urls import get_script_prefix, reverse
from django.utils.safestring import mark_safe

register = template.Library()


@register.filter
def get_item(mapping, key):
    """``mapping[key]``, or None: a dict looked up by a variable (``fields|get_item:ship.id``)."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None


# ---------------------------------------------------------------- URLs reversed once

#: reversed URLs kept by this process (the runner asks for the same few hundred on every render)
URLS = 4096
_urls: OrderedDict[tuple, str] = OrderedDict()
_urls_lock = threading.Lock()


@register.simple_tag
def url_of(name, *args):
    """``{% url name args %}``, each URL reversed once per process.

    A GM's step renders about a hundred forms (each log step's reroll, undo, fork and reveal,
    each action, each ship's override), and reversing a URL costs several times what printing
    a variable does.  URLs depend only on the URLconf (fixed while the process runs) and the
    script prefix (part of the key).
    """
    key = (get_script_prefix(), name, args)
    with _urls_lock:
        url = _urls.get(key)
        if url is not None:
            return url
    url = reverse(name, args=args)
    with _urls_lock:
        _urls[key] = url
        while len(_urls) > URLS:
            _urls.popitem(last=False)
    return url


# ---------------------------------------------------------------- the log's steps, rendered once

#: rendered step bodies kept by this process (a few KiB each; the oldest go first)
STEP_BODIES = 4000
_bodies: OrderedDict[str, str] = OrderedDict()
_bodies_lock = threading.Lock()


@register.simple_tag(takes_context=True)
def step_body(context, step):
    """What one log step reads (``encounters/log.html#step_body``), rendered once per content.

    A step's dice, lines and citations never change once written; the runner shows the
    latest fifteen on every render, so each is rendered the first time and then taken from
    here.  The key is the step as this viewer reads it (its whole ``StepView``: a reroll,
    a reveal or an undo changes it), whether the reader is the GM, and whether its dice are
    shown open.  The GM's controls on a step (forms with the session's token and the head)
    are not part of it: the template renders them every time.
    """
    is_gm = bool(context.get("is_gm"))
    loop = context.get("forloop") or {}
    # Its dice are open when the page asks (the latest result) or it is the newest step.
    opened = bool(context.get("open_rolls") or loop.get("first"))
    key = hashlib.sha1(f"{bool(is_gm)}|{bool(opened)}|{step!r}".encode()).hexdigest()
    with _bodies_lock:
        html = _bodies.get(key)
        if html is not None:
            _bodies.move_to_end(key)
            return html
    html = mark_safe(get_template("encounters/log.html#step_body").render(
        {"s": step, "is_gm": is_gm, "opened": opened}))
    with _bodies_lock:
        _bodies[key] = html
        while len(_bodies) > STEP_BODIES:
            _bodies.popitem(last=False)
    return html
