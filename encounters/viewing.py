"""What a viewer reads of an encounter's log: the one place that decides it.

Every page that shows steps (the runner, the players' live page and its poll fragment,
the whole log, the live stream's payload, the replay, the analysis) renders
:func:`log_for`'s entries, never the raw ``Applied`` steps, and what a viewer may read of a
step, a line or a roll is one test, :func:`readable`, so it is decided here and once:

* GM-only steps, GM-only lines and GM-only rolls never reach a player, nor the
  struck-through rolls a reroll replaced unless the roll itself was public;
* a line marked for one side (``LogEntry.side``: what happens inside that side's ship) reaches
  only the GM and the players of that side; the viewer's sides travel with :class:`Names`;
* enemy crew are named by ship and position for a player ("Corsair's gunner"), in
  every line, roll and table row: :class:`Names`, applied to all text alike;
* steps are numbered by their place among the steps in effect, so an undo never
  makes the numbers jump and the replay counts the same steps;
* a step with nothing to read (a crew member who is done) is left out;
* each step reads as one line (its first), the rest and its rolls grouped under it,
  the rules cited once per step in English (the source's heading on hover).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.utils.translation import get_language, gettext, pgettext

from rulesets.core.citation import Citation, read as read_citation
from rulesets.core.messages import Message, english, render

# ---------------------------------------------------------------- names


#: languages whose nouns keep their capitals inside a sentence ("Bravos Schütze", not "schütze")
KEEPS_NOUN_CAPITALS = {"de"}


class Names:
    """How a viewer names the people in the log: enemy crew by ship and position."""

    def __init__(self, aliases: dict[str, str], sides: frozenset[str] | None = None):
        self.aliases = aliases
        #: the sides this viewer plays (None: the GM, who reads every side's lines)
        self.sides = sides
        names = sorted(aliases, key=len, reverse=True)
        self._pattern = re.compile("|".join(rf"(?<!\w){re.escape(n)}(?!\w)" for n in names)) if names else None

    def __call__(self, text) -> str:
        """``text`` (words or a message, rendered in the reader's language) with the names replaced."""
        text = render(text)
        if not text or self._pattern is None:
            return text
        return self._pattern.sub(lambda m: self.aliases[m.group(0)], text)

    @property
    def hidden(self) -> list[str]:
        """The names this viewer never reads."""
        return list(self.aliases)

    @classmethod
    def everyone(cls) -> "Names":
        return cls({})

    @classmethod
    def for_viewer(cls, setup: dict, viewer, positions: dict[str, str] | None = None) -> "Names":
        """Crew of the ships on sides the viewer's ships are not on, as "<ship>'s <position>"."""
        if viewer.is_gm:
            return cls.everyone()
        positions = positions or {}
        ships = setup.get("ships", [])
        own_sides = sides_of(setup, viewer)
        own_names = {c.get("name") for s in ships if s.get("side") in own_sides for c in s.get("crew", [])}
        # A crew member named like a ship, a fleet or a side keeps the name: the view decides those.
        own_names |= {s.get(k) for s in ships for k in ("name", "fleet", "side")}
        aliases: dict[str, str] = {}
        for ship in ships:
            if ship.get("side") in own_sides:
                continue
            crew = [c for c in ship.get("crew", []) if c.get("name")]
            # a position inside a sentence: "Corsair's gunner" (German keeps its nouns' capitals)
            keep_case = (get_language() or "").split("-")[0] in KEEPS_NOUN_CAPITALS
            labels = [str(positions.get(c.get("position", ""), c.get("position") or gettext("crew")))
                      for c in crew]
            labels = labels if keep_case else [label.lower() for label in labels]
            for c, label in zip(crew, labels):
                if c["name"] in own_names:
                    continue  # the same name serves on the viewer's side: it is not the enemy's secret
                same = [i for i, lab in enumerate(labels) if lab == label]
                ship_name = ship.get("name") or gettext("the enemy")
                if len(same) > 1:
                    aliases[c["name"]] = gettext("%(ship)s's %(position)s %(number)s") % {
                        "ship": ship_name, "position": label, "number": same.index(crew.index(c)) + 1}
                else:
                    aliases[c["name"]] = gettext("%(ship)s's %(position)s") % {"ship": ship_name, "position": label}
        return cls(aliases, frozenset(own_sides))


def sides_of(setup: dict, viewer) -> set[str]:
    """The sides of the ships the viewer sees as their own (a player's; none for the public)."""
    return {s.get("side") for s in setup.get("ships", []) if s.get("id") in viewer.ships and s.get("side")}


def positions_of(ruleset_key: str) -> dict[str, str]:
    """A rule system's crew positions in words ({"gunner": "Gunner"})."""
    from campaigns.rulesets import forms_for

    try:
        return {str(k): str(v) for k, v in forms_for(ruleset_key).POSITIONS}
    except (AttributeError, ImportError, KeyError, TypeError, ValueError):
        return {}


def names_for(encounter, viewer) -> Names:
    return Names.for_viewer(encounter.setup, viewer, positions_of(encounter.ruleset))


# ---------------------------------------------------------------- who may read what: the one filter


def readable(part, *, is_gm: bool, sides: frozenset[str] | set[str] | None = None) -> bool:
    """Whether a viewer may read ``part`` of the log: a step, a line or a roll.

    The GM reads everything; a player reads what is not GM-only (a step the GM revealed is
    no longer GM-only) and, of a part marked for one side (``side``: what happens inside that
    side's ship), only their own side's -- ``sides`` are the sides the viewer plays (none: a
    viewer with no ship reads no side's inner lines).  Every view of the log a player can
    reach -- the runner, the players' page and its poll fragment, the whole log, the live
    stream's payload, the replay -- reads the log through this one test (through :func:`log_for`).
    """
    if is_gm:
        return True
    if getattr(part, "gm_only", False):
        return False
    side = getattr(part, "side", "")
    return not side or side in (sides or ())


def readable_steps(applied, *, is_gm: bool) -> list:
    """The steps of ``applied`` this viewer may read, in order."""
    return [a for a in applied if readable(a, is_gm=is_gm)]


# ---------------------------------------------------------------- what a step reads as

_MISS = re.compile(r"\b(miss(es|ed)?|fails?|failed|cannot|no sensor lock|no effect|no damage|falls short)\b", re.I)
_HIT = re.compile(r"\b(hits?|destroy(s|ed)?|succeeds?|success|captured|boards)\b", re.I)


#: the tones a message may say it has (its ``tone`` parameter)
TONES = ("good", "bad", "")


def tone_of(words) -> str:
    """"good", "bad" or "" for a line: a hit or success, a miss or failure, or neither.

    ``words``: a log line's message (``LogEntry.message``) or plain words.  A message that says
    its tone -- a ``tone`` parameter, "good", "bad" or "" (neither) -- has that tone, in every
    language; any other message, and plain words (a log stored before messages), is read by its
    English words, never by the words a reader sees (which may be in another language).
    """
    if isinstance(words, Message) and "tone" in words.params:
        tone = words.params["tone"]
        return tone if tone in TONES else ""
    text = english(words)
    if _MISS.search(text):
        return "bad"
    if _HIT.search(text):
        return "good"
    return ""


@dataclass
class Line:
    text: str
    tone: str = ""
    gm_only: bool = False
    #: the side whose players alone (with the GM) read it; "" for everyone
    side: str = ""


@dataclass
class Face:
    value: int
    #: "wild" (the Wild Die), "again" (a Wild Die rolled again after a 6), "" otherwise
    kind: str = ""

    @property
    def title(self) -> str:
        """What the die is, on hover ("the Wild Die: a 6, rolled again"), in the reader's language."""
        if self.kind == "wild":
            return gettext("the Wild Die: a 6, rolled again") if self.value == 6 else gettext("the Wild Die")
        if self.kind == "again":
            return (gettext("the Wild Die rolled again: a 6, rolled again") if self.value == 6
                    else gettext("the Wild Die rolled again"))
        return ""


@dataclass
class RollView:
    purpose: str
    expression: str
    faces: list[Face]
    modifiers: list[tuple[str, str]]
    total: int
    target: int | None
    outcome: str  # "success", "failure" or ""
    table: str
    row: str
    gm_only: bool = False
    wild_exploded: int = 0

    @property
    def outcome_words(self) -> str:
        """The outcome in the reader's language ("" for a roll with no target)."""
        return {"success": pgettext("roll outcome", "success"),
                "failure": pgettext("roll outcome", "failure")}.get(self.outcome, "")

    @property
    def tone(self) -> str:
        return {"success": "good", "failure": "bad"}.get(self.outcome, "")


@dataclass
class StepView:
    number: int
    seq: int
    headline: Line
    lines: list[Line]
    rolls: list[RollView]
    rerolled: list[RollView]
    rules: list[RuleView]
    gm_only: bool = False
    dropped: str = ""
    has_rolls: bool = False  # the step rolled dice (the GM may reroll it)
    screened: bool = False  # some of its dice were rolled behind the GM's screen (this viewer reads no faces)
    extra: dict = field(default_factory=dict)

    @property
    def screen_only(self) -> bool:
        """Every roll of the step is behind the GM's screen (an NPC's dice): the usual case, no tag."""
        return bool(self.rolls) and all(r.gm_only for r in self.rolls)

    @property
    def roll_tags(self) -> bool:
        """Whether the GM's page tags a roll "GM only": in a public step whose dice are partly
        open, where the tag tells which faces the players saw -- not on every NPC roll."""
        return not self.gm_only and not self.screen_only

    @property
    def tone(self) -> str:
        if self.dropped:
            return ""
        return self.headline.tone or next((r.tone for r in self.rolls if r.tone), "")


_WILD_CODE = re.compile(r"^(\d+)D")


def _faces(roll) -> tuple[list[Face], int]:
    """The faces, with the Wild Die and its rerolls marked (Star Wars D6 writes "(Wild Die)")."""
    faces = [Face(f) for f in roll.faces]
    if "Wild Die" not in roll.expression:
        return faces, 0
    code = _WILD_CODE.match(roll.expression)
    if not code:
        return faces, 0
    n = int(code.group(1))
    if n < 1 or n > len(faces):
        return faces, 0
    faces[n - 1].kind = "wild"
    for f in faces[n:]:
        f.kind = "again"
    return faces, len(faces) - n


@dataclass(frozen=True)
class RuleView:
    """A rule cited, as the reader reads it: its heading in their language (the source's own
    heading for a reader of the source's language), the source's heading (on hover), and
    "house rule" or "ruling" in words when it is one."""

    words: str
    original: str = ""
    kind: str = ""


def rule_words(c: Citation) -> str:
    """A cited rule's heading in the reader's language: the source text's own heading for a
    reader of the source's language, else the English heading translated (its catalogue entry's
    context is "<system>.rule")."""
    from rulesets.core import registry

    language = (get_language() or "")[:2]
    try:
        source = registry.get(c.system).source_language if c.system else ""
    except KeyError:
        source = ""
    if c.original and source and language == source:
        return c.original
    return pgettext(f"{c.system}.rule", c.english) if c.system else c.english


def rule_view(c: Citation) -> RuleView:
    kind = pgettext("rule kind", "house rule") if c.house_rule else pgettext("rule kind", "ruling") if c.ruling else ""
    return RuleView(rule_words(c), c.original, kind)


def roll_view(roll, names: Names) -> RollView:
    faces, exploded = _faces(roll)
    mods = [(names(src), f"{'+' if v >= 0 else '−'}{abs(v)}") for src, v in roll.modifiers]
    outcome = "" if roll.target is None else ("success" if roll.total >= roll.target else "failure")
    if isinstance(roll.table, Message):
        table = roll.table  # words (the table read, in the reader's language), not a citation
    else:
        table = rule_words(read_citation(roll.table)) if roll.table else ""
    return RollView(names(roll.purpose), roll.expression.replace(" (Wild Die)", ""), faces, mods, roll.total,
                    roll.target, outcome, names(table), names(roll.row), roll.gm_only, exploded)


def step_view(applied, number: int, *, is_gm: bool, names: Names, system: str = "") -> StepView | None:
    """One step as the viewer reads it, or None when it has nothing to show them."""
    if not readable(applied, is_gm=is_gm):
        return None
    log = [e for e in applied.log if readable(e, is_gm=is_gm, sides=names.sides)]
    shown = [r for r in applied.rolls if readable(r, is_gm=is_gm, sides=names.sides)]
    lines = [Line(names(e.message), tone_of(e.message), e.gm_only, getattr(e, "side", "")) for e in log]
    rolls = [roll_view(r, names) for r in shown]
    rerolled = [roll_view(r, names) for old in applied.rerolled for r in old
                if readable(r, is_gm=is_gm, sides=names.sides)]
    if not lines and not rolls and not applied.dropped:
        return None
    cited: list[Citation] = []
    for rule in [e.rule for e in log] + [r.rule for r in shown]:
        c = read_citation(rule, system)
        if c and c not in cited and c.english not in {x.english for x in cited}:
            cited.append(c)
    if lines:
        headline, rest = lines[0], lines[1:]
    elif rolls:
        r = rolls[0]
        outcome = r.outcome_words or r.total
        headline = Line(gettext("%(purpose)s: %(outcome)s") % {"purpose": r.purpose, "outcome": outcome}, r.tone)
        rest = []
    else:
        headline, rest = Line(applied.dropped, ""), []
    return StepView(number, applied.seq, headline, rest, rolls, rerolled, [rule_view(c) for c in cited], applied.gm_only,
                    applied.dropped, has_rolls=bool(applied.rolls),
                    # dice behind the GM's screen (another side's inner rolls are not announced at all)
                    screened=any(r.gm_only for r in applied.rolls if r not in shown))


def log_for(now, *, is_gm: bool, names: Names, system: str = "", limit: int | None = None) -> list[StepView]:
    """The steps of ``now`` (a :class:`encounters.log.Current`) the viewer reads, newest first.

    Numbered by their place among every step in effect (``now.count``), GM-only ones included,
    so a number means the same step to everyone at the table and never jumps after an undo.
    """
    offset = now.count - len(now.applied)
    out = []
    # Newest first, and only as many as asked: the runner shows the latest few of the window.
    for i in range(len(now.applied) - 1, -1, -1):
        applied = now.applied[i]
        if not readable(applied, is_gm=is_gm):
            continue
        view = step_view(applied, offset + i + 1, is_gm=is_gm, names=names, system=system)
        if view is not None:
            out.append(view)
            if limit and len(out) == limit:
                break
    return out


# ---------------------------------------------------------------- whose turn, the order, the ships


def turn_and_order(engine, state, view: dict, viewer) -> dict:
    """Whose turn it is and the order of play, named as this viewer's view names the ships.

    The acting ship comes from ``engine.actor_ship`` (and the acting person, where people fight,
    from the view's ``acting_person``); the order from the GM's view's
    ``order`` (ship names or sides, whichever the system lists), each ship renamed as the
    viewer knows it ("Unknown contact" stays unknown).  Nothing here is more than the
    viewer's own view already tells, plus the order everyone at the table hears.
    """
    from rulesets.core.engine import Viewer

    known = {s.get("id"): s for s in view.get("ships", [])}
    own = set(viewer.ships) if not viewer.is_gm else set()
    out: dict = {"ship": None, "own": False, "order": [], "person": ""}
    if not getattr(state, "over", False):
        actor = engine.actor_ship(state)
        if actor in known:
            out["ship"] = known[actor].get("name")
            out["side"] = known[actor].get("side")
            out["own"] = actor in own
            # a fight between people (boarders in the corridors): who acts, as this viewer knows them
            out["person"] = view.get("acting_person") or ""
    gm = engine.view(state, Viewer.gm()) if not viewer.is_gm else view
    by_name = {s.get("name"): s.get("id") for s in gm.get("ships", [])}
    for entry in gm.get("order") or []:
        ship_id = by_name.get(entry)
        if ship_id is not None:
            if ship_id in known:
                out["order"].append({"name": known[ship_id].get("name"), "own": ship_id in own})
        else:
            out["order"].append({"name": str(entry), "own": False})
    return out
