"""The sentence a simulation's results open with: who wins how often across the sweep, and how even it is.

How even a sweep point is comes from the gap between the two sides' win rates, in
percentage points (draws count for neither side):

========================  =====================  ====================================
gap (percentage points)   word                   e.g. first side's wins : second's
========================  =====================  ====================================
under 10                  even                   52 : 45, 48 : 40
10 to under 30            a slight edge          60 : 38
30 to under 60            a clear favourite      75 : 25
60 or more                lopsided               94 : 6
========================  =====================  ====================================

The words read the rates as measured; with few battles a point's rate carries a wide
95% interval (the results table shows it) and its word may change from run to run.
docs/running-encounters.md ("Simulations") says the same for GMs.
"""
from __future__ import annotations

from django.utils.translation import gettext as _

#: (upper bound of the gap in percentage points, key): the first bound the gap is under decides
BANDS = ((10, "even"), (30, "edge"), (60, "clear"))
LOPSIDED = "lopsided"
#: the order of the words, from even to lopsided
ORDER = ("even", "edge", "clear", "lopsided")
#: rates of a group of points that differ by at most this many points read as "about N%"
ABOUT = 4
#: draws are mentioned once some point has at least this share of them
DRAWS_WORTH_SAYING = 0.05


def balance(gap_points: float) -> str:
    """The key of the word for a gap between the two sides' win rates, in percentage points."""
    for bound, key in BANDS:
        if gap_points < bound:
            return key
    return LOPSIDED


def word(key: str) -> str:
    return {"even": _("even"), "edge": _("a slight edge"), "clear": _("a clear favourite"),
            "lopsided": _("lopsided")}[key]


def thresholds() -> str:
    """The bands in words, for the page under the verdict."""
    return _("How even: the gap between the two sides' win rates. Under 10 points is even, 10 to 30 a slight "
             "edge, 30 to 60 a clear favourite, 60 or more lopsided.")


def _pct(rate: float) -> int:
    return round(rate * 100)


def _spread(rates: list[float]) -> str:
    """Win rates of a group of points in words: "62%", "about 95%", "52–60%"."""
    values = [_pct(r) for r in rates]
    lo, hi = min(values), max(values)
    if lo == hi:
        return f"{lo}%"
    if hi - lo <= ABOUT:
        return _("about %(rate)s%%") % {"rate": round(sum(values) / len(values))}
    return f"{lo}–{hi}%"


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return _("%(first)s and %(last)s") % {"first": ", ".join(items[:-1]), "last": items[-1]}


def _scope(labels: list[str]) -> str:
    if len(labels) == 2:
        return _("at both points (%(first)s and %(last)s)") % {"first": labels[0], "last": labels[1]}
    return _("at every point from %(first)s to %(last)s") % {"first": labels[0], "last": labels[-1]}


def verdict(results: list[dict], sides: list[str]) -> dict | None:
    """``{"sentence", "key", "points": [{"label", "key", "favourite", "gap"}]}`` or None.

    ``key`` is the word of the whole sweep when every point has the same one, else None.
    Points with no battles finished (a cancelled run) are left out.
    """
    if len(sides) != 2:
        return None
    a, b = sides
    points = []
    for r in results:
        if not r.get("trials"):
            continue
        ra, rb = r["sides"][a]["win_rate"], r["sides"][b]["win_rate"]
        key = balance(abs(ra - rb) * 100)
        points.append({"label": r["label"], "key": key, "gap": abs(ra - rb) * 100,
                       "favourite": None if key == "even" else (a if ra > rb else b),
                       "rates": {a: ra, b: rb}, "draws": r.get("draw_rate", 0.0)})
    if not points:
        return None
    keys = {p["key"] for p in points}
    favourites = {p["favourite"] for p in points}
    labels = [p["label"] for p in points]

    if len(points) == 1:
        p = points[0]
        if p["favourite"] is None:
            sentence = _("The sides are even: %(a)s wins %(ra)s of the battles, %(b)s %(rb)s.") % {
                "a": a, "ra": _spread([p["rates"][a]]), "b": b, "rb": _spread([p["rates"][b]])}
        else:
            fav, other = p["favourite"], (b if p["favourite"] == a else a)
            sentence = _("%(side)s wins %(rate)s of the battles (%(other)s %(other_rate)s): %(word)s.") % {
                "side": fav, "rate": _spread([p["rates"][fav]]), "other": other,
                "other_rate": _spread([p["rates"][other]]), "word": word(p["key"])}
    elif favourites == {None}:
        sentence = _("The sides are even %(scope)s: %(a)s wins %(ra)s of the battles, %(b)s %(rb)s.") % {
            "scope": _scope(labels), "a": a, "ra": _spread([p["rates"][a] for p in points]),
            "b": b, "rb": _spread([p["rates"][b] for p in points])}
    elif len(favourites) == 1:
        fav = favourites.pop()
        if len(keys) == 1:
            how = word(points[0]["key"])
        else:
            low = min(points, key=lambda p: p["gap"])
            high = max(points, key=lambda p: p["gap"])
            how = _("from %(low)s at %(low_point)s to %(high)s at %(high_point)s") % {
                "low": word(low["key"]), "low_point": low["label"], "high": word(high["key"]),
                "high_point": high["label"]}
        sentence = _("%(side)s wins %(rate)s of the battles %(scope)s: %(how)s.") % {
            "side": fav, "rate": _spread([p["rates"][fav] for p in points]), "scope": _scope(labels), "how": how}
    else:
        groups = []
        for side in (a, b):
            mine = [p for p in points if p["favourite"] == side]
            if mine:
                groups.append(_("%(side)s is ahead at %(points)s (%(rate)s)") % {
                    "side": side, "points": _join([p["label"] for p in mine]),
                    "rate": _spread([p["rates"][side] for p in mine])})
        even = [p["label"] for p in points if p["favourite"] is None]
        if even:
            groups.append(_("the sides are even at %(points)s") % {"points": _join(even)})
        sentence = _("Who wins depends on the point: %(groups)s.") % {"groups": "; ".join(groups)}

    if max(p["draws"] for p in points) >= DRAWS_WORTH_SAYING:
        sentence += " " + _("Draws: %(rate)s of the battles.") % {"rate": _spread([p["draws"] for p in points])}
    return {"sentence": sentence, "key": keys.pop() if len(keys) == 1 else None, "points": points}
