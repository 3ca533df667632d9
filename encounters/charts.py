"""Server-side SVG charts for simulation results: no JavaScript, no vendored library.

Labels sit on the marks themselves (values and sweep labels on the axis), so a chart
reads without a legend.
"""
from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import mark_safe

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
    parts = [f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img" '
             f'aria-label="Win probability of {escape(side)} by sweep point">']
    for p in (0, 0.25, 0.5, 0.75, 1):
        parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(p):.1f}" y2="{y(p):.1f}" class="grid"/>'
                     f'<text x="{LEFT - 6}" y="{y(p) + 4:.1f}" text-anchor="end" class="axis">{int(p * 100)}%</text>')
    lows = [r["sides"][side]["win_interval"][0] for r in results]
    highs = [r["sides"][side]["win_interval"][1] for r in results]
    rates = [r["sides"][side]["win_rate"] for r in results]
    band = " ".join(f"{x(i):.1f},{y(h):.1f}" for i, h in enumerate(highs))
    band += " " + " ".join(f"{x(i):.1f},{y(lo):.1f}" for i, lo in reversed(list(enumerate(lows))))
    if n > 1:
        parts.append(f'<polygon points="{band}" class="band"><title>95% interval</title></polygon>')
        line = " ".join(f"{x(i):.1f},{y(p):.1f}" for i, p in enumerate(rates))
        parts.append(f'<polyline points="{line}" class="line"/>')
    for i, r in enumerate(results):
        lo, hi = lows[i], highs[i]
        parts.append(
            f'<line x1="{x(i):.1f}" x2="{x(i):.1f}" y1="{y(lo):.1f}" y2="{y(hi):.1f}" class="whisker"/>'
            f'<circle cx="{x(i):.1f}" cy="{y(rates[i]):.1f}" r="4" class="dot">'
            f'<title>{escape(r["label"])}: {rates[i]:.1%} (95% {lo:.1%}–{hi:.1%}, {r["trials"]} battles)</title></circle>'
            f'<text x="{x(i):.1f}" y="{y(rates[i]) - 9:.1f}" text-anchor="middle" class="value">{rates[i]:.0%}</text>'
            + (f'<text x="{x(i):.1f}" y="{HEIGHT - BOTTOM + 14}" text-anchor="end" class="axis" '
               f'transform="rotate(-35 {x(i):.1f} {HEIGHT - BOTTOM + 14})">{escape(r["label"])}</text>' if slant else
               f'<text x="{x(i):.1f}" y="{HEIGHT - BOTTOM + 18}" text-anchor="middle" class="axis">{escape(r["label"])}</text>'))
    parts.append(f'<text x="{LEFT}" y="{height - 8}" class="caption">{escape(side)} wins (dot), 95% interval (band)</text>')
    parts.append("</svg>")
    return mark_safe("".join(parts))


def rounds_histogram(result: dict) -> str:
    """How many battles were decided in each round, for one sweep point."""
    counts = {int(k): v for k, v in result.get("rounds", {}).items()}
    if not counts:
        return ""
    rounds = list(range(min(counts), max(counts) + 1))
    top = max(counts.values())
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    bar_w = plot_w / len(rounds)
    parts = [f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
             f'aria-label="Rounds to decision at {escape(result["label"])}">']
    for i, rnd in enumerate(rounds):
        c = counts.get(rnd, 0)
        h = plot_h * c / top
        bx = LEFT + i * bar_w
        parts.append(f'<rect x="{bx + 1:.1f}" y="{TOP + plot_h - h:.1f}" width="{max(1.0, bar_w - 2):.1f}" '
                     f'height="{h:.1f}" class="bar"><title>round {rnd}: {c} battles</title></rect>')
        if len(rounds) <= 25 or i % max(1, len(rounds) // 12) == 0:
            parts.append(f'<text x="{bx + bar_w / 2:.1f}" y="{HEIGHT - BOTTOM + 18}" text-anchor="middle" class="axis">{rnd}</text>')
        if c and len(rounds) <= 25:
            parts.append(f'<text x="{bx + bar_w / 2:.1f}" y="{TOP + plot_h - h - 4:.1f}" text-anchor="middle" class="value">{c}</text>')
    parts.append(f'<text x="{LEFT}" y="{HEIGHT - 8}" class="caption">battles decided per round, {escape(result["label"])}</text>')
    parts.append("</svg>")
    return mark_safe("".join(parts))


def _label_width(text: str) -> float:
    """About how wide an axis label is drawn, in the chart's units (12 px type)."""
    return 6.6 * len(text)
