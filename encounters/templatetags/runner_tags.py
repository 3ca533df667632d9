"""Small template helpers for the encounter runner."""
from django import template

register = template.Library()


@register.filter
def get_item(mapping, key):
    """``mapping[key]``, or None: a dict looked up by a variable (``fields|get_item:ship.id``)."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None
