"""The re-roll analysis page in words: what happened, how the replays compare, the rolls that moved the odds.

The numbers come from :func:`rulesets.core.analysis.analyse`; this module only says them.
A fight the rules ended is compared by its winner (or draw); a fight the GM stopped is
compared at the round it stopped, by who was ahead there and the strength each side had
left (see the analysis module's docstring).  Analyses stored before the stopped-fight
comparison existed (no ``strength`` key) are read as well as they can be.
"""
from __future__ import annotations

from django.utils.translation import gettext as _

from rulesets.core.analysis import moved_the_odds

from . import charts


def pct(share: float) -> str:
    return f"{round(share * 100)}%"


def round_words(n: int) -> str:
    """A round number as a person says it: round 0 is before the first round."""
    return _("before the first round") if int(n) < 1 else _("in round %(n)s") % {"n": n}


def _headline(r: dict) -> list[str]:
    real = r["real"]
    if r.get("stopped"):
        lines = [_("The fight was stopped %(when)s, before either side had won.") % {
                     "when": round_words(r["stop_round"])},
                 _("Each replay was stopped there too (or sooner, where a side was wiped out), so the replays are "
                   "compared with the real fight at that point, not at an end they never reached.")]
        if r["leader"]:
            lines.append(_("When it stopped, %(side)s was ahead. In the replays %(side)s was ahead at that point "
                           "%(share)s of the time.") % {"side": r["leader"], "share": pct(r["happened_share"])})
        else:
            lines.append(_("When it stopped, neither side was ahead. The replays stood as even at that point "
                           "%(share)s of the time.") % {"share": pct(r["happened_share"])})
        if r.get("won_share"):
            lines.append(_("In %(share)s of the replays a side had already won by then.") % {
                "share": pct(r["won_share"])})
        return lines
    if real["winner"]:
        line = _("%(side)s won. In the replays %(side)s also won %(share)s of the time.") % {
            "side": real["winner"], "share": pct(r["winner_share"])}
        if r["draw_share"]:
            line += " " + _("%(share)s were draws.") % {"share": pct(r["draw_share"])}
        return [line]
    return [_("The fight ended in a draw; %(share)s of the replays were draws too.") % {"share": pct(r["draw_share"])}]


def _comparison(row: dict) -> str:
    """Where a side's real strength left sits among the replays', in words."""
    less, same, more = row["less"], row["same"], row["more"]
    if same == 1:
        return _("the same as in every replay")
    parts = []
    if less:
        parts.append(_("more than in %(share)s") % {"share": pct(less)})
    if same:
        parts.append(_("the same as in %(share)s") % {"share": pct(same)})
    if more:
        parts.append(_("less than in %(share)s") % {"share": pct(more)})
    listed = parts[0] if len(parts) == 1 else _("%(first)s and %(last)s") % {
        "first": ", ".join(parts[:-1]), "last": parts[-1]}
    return _("%(shares)s of the replays") % {"shares": listed}


def _sides(r: dict) -> list[dict]:
    real = r["real"]["strength"]
    if "strength" in r:
        return [{"side": side, "real": pct(v["real"]), "mean": pct(v["mean"]), "where": _comparison(v)}
                for side, v in r["strength"].items()]
    # stored before: a percentile only ("where the real fight sits", ties counted as below)
    from .templatetags.words import percentile

    return [{"side": side, "real": pct(real.get(side, 0)), "mean": pct(r["mean_strength"].get(side, 0)),
             "where": _("at the %(percentile)s of the replays") % {"percentile": percentile(share)}}
            for side, share in r.get("strength_percentile", {}).items()]


def _what_is_followed(r: dict) -> str:
    """The chance the turning points follow, in words ("Blue's chance of winning")."""
    if r.get("stopped"):
        when = round_words(r["stop_round"])
        if r["leader"]:
            return _("%(side)s's chance of being ahead %(when)s") % {"side": r["leader"], "when": when}
        return _("The chance of the sides standing even %(when)s") % {"when": when}
    if r["real"]["winner"]:
        return _("%(side)s's chance of winning") % {"side": r["real"]["winner"]}
    return _("The chance of a draw")


def analysis_context(analysis, steps: dict) -> dict:
    """What the template shows of a finished analysis.  ``steps``: the log's steps by seq."""
    r = analysis.results
    followed = _what_is_followed(r)
    turning = []
    for t in r.get("turning_points", []):
        if not moved_the_odds(t):
            continue  # stored before only rolls that moved the odds were kept
        step = steps.get(t["seq"])
        turning.append({"step": step, "moved": _("%(what)s went from %(before)s to %(after)s.") % {
            "what": followed, "before": pct(t["before"]), "after": pct(t["after"])}})
    marked = {t["seq"] for t in r.get("turning_points", []) if moved_the_odds(t)}
    points = []
    swings = r.get("swings", [])
    if swings:
        points.append({"label": _("start"), "value": swings[0]["before"],
                       "title": _("before the first roll: %(share)s") % {"share": pct(swings[0]["before"])}})
        for s in swings:
            step = steps.get(s["seq"])
            label = str(step.number) if step else "·"
            points.append({"label": label, "value": s["after"], "mark": s["seq"] in marked,
                           "title": _("after step %(step)s: %(share)s") % {"step": label, "share": pct(s["after"])}})
    caption = _("%(what)s after each roll, by step; the turning points are marked") % {"what": followed}
    chart = charts.odds_through_fight(points, caption) if len(points) > 1 else ""
    return {"headline": _headline(r), "sides": _sides(r), "followed": followed, "turning_points": turning,
            "odds_chart": chart, "odds_caption": caption, "replays": r["replays"]}
