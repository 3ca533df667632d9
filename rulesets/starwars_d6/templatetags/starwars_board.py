"""``{% starwars_board view board_actions as b %}``: the board view in SVG pixels."""
from django import template

from rulesets.starwars_d6.board import layout

register = template.Library()


@register.simple_tag
def starwars_board(view, board_actions=None):
    reach = {(r["col"], r["row"]): r for r in view["board"].get("reach") or []}
    targets = {}
    for a in board_actions or []:
        hex_ = (int(a["params"]["col"]), int(a["params"]["row"]))
        left = reach.get(hex_, {})
        targets[hex_] = {"action": a["action"].to_str(), "label": a["label"],
                         "left": left.get("left"), "free": left.get("free")}
    return layout(view["board"], view["ships"], targets)
