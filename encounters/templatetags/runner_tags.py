"""Small template helpers for the encounter runner."""
import hashlib
import threading
from collections import OrderedDict
from functools import lru_cache

from django import template
from django.template.loader import get_template
from django.urls import get_script_prefix, reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

register = template.Library()


@register.filter
def get_item(mapping, key):
    """``mapping[key]``, or None: a dict looked up by a variable (``fields|get_item:ship.id``)."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None


# ---------------------------------------------------------------- URLs reversed once

@register.simple_tag
def url_of(name, *args):
    """``{% url name args %}``, each URL reversed once per process.

    A GM's step renders about a hundred forms (each log step's reroll, undo, fork and reveal,
    each action, each ship's override), and reversing a URL costs several times what printing
    a variable does.  URLs depend only on the URLconf (fixed while the process runs) and the
    script prefix (part of the key).
    """
    return _reversed(get_script_prefix(), name, args)


@lru_cache(maxsize=4096)  # the runner asks for the same few hundred on every render
def _reversed(prefix: str, name: str, args: tuple) -> str:
    return reverse(name, args=args)


# ---------------------------------------------------------------- parts rendered once per content

#: rendered parts kept by this process (a few KiB each; the least recently used go first)
RENDERED = 4000
_rendered: OrderedDict[str, str] = OrderedDict()
_rendered_lock = threading.Lock()


def render_once(template_name: str, context: dict) -> str:
    """``template_name`` rendered with ``context`` (plain data only), once per content.

    For the parts of a page that are a pure function of their data and are shown again and
    again unchanged: a log step, a ship card.  The key is the template and the context's
    ``repr`` (plain dicts, lists and frozen dataclasses print their whole content) and the
    active language (the words are translated as it renders), so a
    part whose data changed is rendered again and an unchanged one is not.  No request,
    session or token may be in ``context``: what is kept is shared by every viewer with
    the same data.
    """
    # the reader's language is part of the content: a part's words are translated when rendered
    key = hashlib.sha1(f"{template_name}|{get_language()}|{context!r}".encode()).hexdigest()
    with _rendered_lock:
        html = _rendered.get(key)
        if html is not None:
            _rendered.move_to_end(key)
            return html
    html = mark_safe(get_template(template_name).render(context))
    with _rendered_lock:
        _rendered[key] = html
        while len(_rendered) > RENDERED:
            _rendered.popitem(last=False)
    return html


@register.simple_tag
def once(template_name, **context):
    """``{% once "page.html#part" name=value ... %}``: the part rendered with only these names,
    once per content (:func:`render_once`); the values must be plain data."""
    return render_once(template_name, context)


@register.simple_tag(takes_context=True)
def step_body(context, step):
    """What one log step reads (``encounters/log.html#step_body``), rendered once per content.

    A step's dice, lines and citations never change once written; the runner shows the
    latest fifteen on every render, so each is rendered the first time and then taken from
    :func:`render_once`.  The content is the step as this viewer reads it (its whole
    ``StepView``: a reroll, a reveal or an undo changes it), whether the reader is the GM,
    and whether its dice are shown open.  The GM's controls on a step (a form with the
    session's token and the head) are not part of it: the template renders them every time.
    """
    loop = context.get("forloop") or {}
    # Its dice are open when the page asks (the latest result) or it is the newest step.
    opened = bool(context.get("open_rolls") or loop.get("first"))
    return render_once("encounters/log.html#step_body",
                       {"s": step, "is_gm": bool(context.get("is_gm")), "opened": opened})


@register.simple_tag
def ship_card(partials, ship):
    """A ship's card (the rule system's ``ship-card`` partial), rendered once per content.

    A card reads only ``ship``, the ship as this viewer sees it (the system's ``view``): a
    step changes one or two ships, and the runner and the players' pages show every card on
    every render.  docs/adding-a-ruleset.md says so to a system's author.
    """
    return render_once(f"{partials}#ship-card", {"ship": ship})
