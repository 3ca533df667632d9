"""Server-side SVG charts for simulation and analysis results: no JavaScript, no vendored library.

Labels sit on the marks themselves (values and sweep labels on the axis), so a chart
reads without a legend.
"""
from __future__ import annotations

import math

from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

WIDTH, HEIGHT = 640, 280
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 20, 56


def win_probability(results: list[dict], side: str) -> str:
    """Win probability of ``side`` per sweep point, with its 95% interval as a band."""
    n = len(results)
    if not n:
        return ""
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i):
        return LEFT + (plot_w * (i + 0.5) / n)

    def y(p):
        return TOP + plot_h * (1 - p)

    # Long sweep labels (Star Wars D6: "Close (3 hexes)") would run into each other side by side:
    # slant them, and make room below the plot for them.
    slant = _label_width(max((r["label"] for r in results), key=len)) > plot_w / n - 6
    height = HEIGHT
    if slant:
        height = HEIGHT + int(min(120, _label_width(max((r["label"] for r in results), key=len)) * 0.6))
    # (words outside the f-strings: xgettext does not read inside them)
    aria = _("Win probability of %(side)s by sweep point") % {"side": side}
    interval = _("%(level)s interval") % {"level": "95%"}
    parts = [f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img" aria-label="{escape(aria)}">']
    for p in (0, 0.25, 0.5, 0.75, 1):
        parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(p):.1f}" y2="{y(p):.1f}" class="grid"/>'
                     f'<text x="{LEFT - 6}" y="{y(p) + 4:.1f}" text-anchor="end" class="axis">{int(p * 100)}%</text>')
    lows = [r["sides"][side]["win_interval"][0] for r in results]
    highs = [r["sides"][side]["win_interval"][1] for r in results]
    rates = [r["sides"][side]["win_rate"] for r in results]
    band = " ".join(f"{x(i):.1f},{y(h):.1f}" for i, h in enumerate(highs))
    band += " " + " ".join(f"{x(i):.1f},{y(lo):.1f}" for i, lo in reversed(list(enumerate(lows))))
    if n > 1:
        parts.append(f'<polygon points="{band}" class="band"><title>{escape(interval)}</title></polygon>')
        line = " ".join(f"{x(i):.1f},{y(p):.1f}" for i, p in enumerate(rates))
        parts.append(f'<polyline points="{line}" class="line"/>')
    tips = [ngettext("%(point)s: %(rate)s (95%% %(low)s–%(high)s, %(count)s battle)",
                     "%(point)s: %(rate)s (95%% %(low)s–%(high)s, %(count)s battles)", r["trials"]) % {
        "point": r["label"], "rate": f"{rates[i]:.1%}", "low": f"{lows[i]:.1%}", "high": f"{highs[i]:.1%}",
        "count": r["trials"]} for i, r in enumerate(results)]
    for i, r in enumerate(results):
        lo, hi = lows[i], highs[i]
        parts.append(
            f'<line x1="{x(i):.1f}" x2="{x(i):.1f}" y1="{y(lo):.1f}" y2="{y(hi):.1f}" class="whisker"/>'
            f'<circle cx="{x(i):.1f}" cy="{y(rates[i]):.1f}" r="4" class="dot">'
            f'<title>{escape(tips[i])}</title></circle>'
            f'<text x="{x(i):.1f}" y="{y(rates[i]) - 9:.1f}" text-anchor="middle" class="value">{rates[i]:.0%}</text>'
            + (f'<text x="{x(i):.1f}" y="{HEIGHT - BOTTOM + 14}" text-anchor="end" class="axis" '
               f'transform="rotate(-35 {x(i):.1f} {HEIGHT - BOTTOM + 14})">{escape(r["label"])}</text>' if slant else
               f'<text x="{x(i):.1f}" y="{HEIGHT - BOTTOM + 18}" text-anchor="middle" class="axis">{escape(r["label"])}</text>'))
    caption = _("%(side)s wins (dot), 95%% interval (band)") % {"side": side}
    parts.append(f'<text x="{LEFT}" y="{height - 8}" class="caption">{escape(caption)}</text>')
    parts.append("</svg>")
    return mark_safe("".join(parts))


#: the rounds histograms are drawn small, several side by side: their own size, so that the
#: page shows them near 1:1 (a 640-wide chart in a 300 px column drew its 12 px labels at 6 px)
HIST_WIDTH, HIST_HEIGHT = 360, 240
HIST_LEFT, HIST_RIGHT, HIST_TOP, HIST_BOTTOM = 40, 10, 40, 44


def rounds_histogram(result: dict, first: int | None = None, last: int | None = None, top: int | None = None) -> str:
    """How many battles ended in each round, for one sweep point.

    ``first``/``last`` (rounds) and ``top`` (battles) let the histograms of a sweep share
    their axes, so that they compare at a glance.  Labels are 13 units in a 360-unit-wide
    chart: drawn at 300 px or more (the page's narrowest column) that is 11 px or more.
    """
    counts = {int(k): v for k, v in result.get("rounds", {}).items()}
    if not counts:
        return ""
    first = min(counts) if first is None else first
    last = max(counts) if last is None else last
    rounds = list(range(first, last + 1))
    top = max(counts.values()) if top is None else top
    plot_w, plot_h = HIST_WIDTH - HIST_LEFT - HIST_RIGHT, HIST_HEIGHT - HIST_TOP - HIST_BOTTOM
    base = HIST_TOP + plot_h
    bar_w = plot_w / len(rounds)
    # a round number every `every` bars, so that the numbers never touch (two digits are ~16 units)
    every = max(1, math.ceil((_label_width(str(last), 13) + 6) / bar_w))
    label = result["label"]
    # (words outside the f-strings: xgettext does not read inside them)
    aria = _("How many battles ended in each round, %(point)s") % {"point": label}
    caption = _("round the battle ended (bars: battles)")
    parts = [f'<svg class="chart histogram" viewBox="0 0 {HIST_WIDTH} {HIST_HEIGHT}" role="img" '
             f'aria-label="{escape(aria)}">',
             f'<text x="{HIST_LEFT}" y="18" class="title">{escape(label)}</text>']
    for value in (0, top):
        y = base - plot_h * value / top
        parts.append(f'<line x1="{HIST_LEFT}" x2="{HIST_WIDTH - HIST_RIGHT}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>'
                     f'<text x="{HIST_LEFT - 5}" y="{y + 4:.1f}" text-anchor="end" class="axis">{value}</text>')
    for i, rnd in enumerate(rounds):
        c = counts.get(rnd, 0)
        h = plot_h * c / top
        bx = HIST_LEFT + i * bar_w
        tip = ngettext("round %(round)s: %(count)s battle ended", "round %(round)s: %(count)s battles ended", c) % {
            "round": rnd, "count": c}
        parts.append(f'<rect x="{bx + 1:.1f}" y="{base - h:.1f}" width="{max(1.0, bar_w - 2):.1f}" '
                     f'height="{h:.1f}" class="bar"><title>{escape(tip)}</title></rect>')
        if (rnd - first) % every == 0:
            parts.append(f'<text x="{bx + bar_w / 2:.1f}" y="{base + 16}" text-anchor="middle" class="axis">{rnd}</text>')
        if c and _label_width(str(c), 13) + 4 <= bar_w:
            parts.append(f'<text x="{bx + bar_w / 2:.1f}" y="{base - h - 4:.1f}" text-anchor="middle" class="value">{c}</text>')
    parts.append(f'<text x="{HIST_LEFT + plot_w / 2:.1f}" y="{HIST_HEIGHT - 8}" text-anchor="middle" class="caption">'
                 f'{escape(caption)}</text>')
    parts.append("</svg>")
    return mark_safe("".join(parts))


def odds_through_fight(points: list[dict], caption: str) -> str:
    """A chance through a fight: one point per rolled step, the turning points marked.

    ``points``: ``{"label", "value" (0..1), "mark" (a turning point), "title"}`` in the
    order of the fight, the first being the chance before any die was rolled.  ``caption``
    names the chart for screen readers; the page writes it under the chart.
    """
    n = len(points)
    if n < 2:
        return ""
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i):
        return LEFT + plot_w * i / (n - 1)

    def y(p):
        return TOP + plot_h * (1 - p)

    parts = [f'<svg class="chart odds" viewBox="0 0 {WIDTH} {HEIGHT - 24}" role="img" aria-label="{escape(caption)}">']
    for p in (0, 0.25, 0.5, 0.75, 1):
        parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(p):.1f}" y2="{y(p):.1f}" class="grid"/>'
                     f'<text x="{LEFT - 6}" y="{y(p) + 4:.1f}" text-anchor="end" class="axis">{int(p * 100)}%</text>')
    # a step line: the chance holds between rolls and moves at each one
    path = [f"{x(0):.1f},{y(points[0]['value']):.1f}"]
    for i in range(1, n):
        path.append(f"{x(i):.1f},{y(points[i - 1]['value']):.1f}")
        path.append(f"{x(i):.1f},{y(points[i]['value']):.1f}")
    parts.append(f'<polyline points="{" ".join(path)}" class="line"/>')
    labelled = _spaced([i for i, p in enumerate(points) if p.get("mark")] + [0, n - 1] + list(range(n)),
                       [x(i) for i in range(n)], [_label_width(str(p["label"])) + 6 for p in points])
    for i, p in enumerate(points):
        cls = "dot mark" if p.get("mark") else "dot"
        parts.append(f'<circle cx="{x(i):.1f}" cy="{y(p["value"]):.1f}" r="{5 if p.get("mark") else 2.5}" class="{cls}">'
                     f'<title>{escape(p.get("title") or p["label"])}</title></circle>')
        if p.get("mark"):
            above = p["value"] < 0.85
            parts.append(f'<text x="{x(i):.1f}" y="{y(p["value"]) + (-10 if above else 18):.1f}" text-anchor="middle" '
                         f'class="value">{p["value"]:.0%}</text>')
        if i in labelled:
            parts.append(f'<text x="{x(i):.1f}" y="{HEIGHT - BOTTOM + 18}" text-anchor="middle" '
                         f'class="axis{" strong" if p.get("mark") else ""}">{escape(str(p["label"]))}</text>')
    parts.append("</svg>")
    return mark_safe("".join(parts))


def _spaced(order: list[int], xs: list[float], widths: list[float]) -> set[int]:
    """The indices whose labels fit without touching, taken in ``order`` (the important first)."""
    placed: set[int] = set()
    for i in order:
        if i in placed:
            continue
        if all(abs(xs[i] - xs[j]) >= (widths[i] + widths[j]) / 2 for j in placed):
            placed.add(i)
    return placed


def _label_width(text: str, size: float = 12) -> float:
    """About how wide an axis label is drawn, in the chart's units (``size``-unit type)."""
    return 0.55 * size * len(text)
