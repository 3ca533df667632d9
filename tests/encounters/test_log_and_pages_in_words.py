"""Pages a person reads are words: no Python repr, no internal code (issue 16 items 5, 9, 10)."""
import html
import io
import json
import re

import pytest
from django.urls import reverse

from campaigns.models import Invite, Membership, Ship, ShipTemplate
from encounters import charts, log
from encounters.templatetags.words import damage_lines, percentile, stats_summary
from encounters.viewers import viewer_for
from rulesets.core import registry
from tests.encounters.test_leaks import demo_campaign, play, start

#: every registered rule system: the contract's promise that pages are words holds for each
SYSTEMS = [module.split(".")[1] for module in registry.ENGINE_MODULES]

#: what a Python repr or an engine code looks like on a page
REPRS = [re.compile(p) for p in (r"\['", r"\{'", r"\bactor=", r"\b[sc]\d+\.\w", r"\bweapon=", r"\bmount=",
                                 r"\bTrue\b", r"\bFalse\b", r"\bNone\b", r"(?<!\d)(?:\d*[02-9])?[123]th\b", r"<built-in")]


def text_of(page: str) -> str:
    """What a reader sees: the page without tags, scripts and attribute values."""
    body = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def assert_words(page: str, where: str) -> None:
    text = text_of(page)
    for pattern in REPRS:
        found = pattern.search(text)
        assert not found, f"{where}: {found.group(0)!r} in …{text[max(0, found.start() - 80):found.end() + 80]}…"


@pytest.mark.django_db
@pytest.mark.parametrize("key", SYSTEMS)
def test_the_players_page_says_whose_turn_the_order_and_the_latest_result_in_words(client, gm, player, key):
    campaign = demo_campaign(key, gm, player)
    encounter = start(campaign, gm)
    play(encounter, gm, 12)
    client.force_login(player)
    page = client.get(encounter.get_absolute_url()).content.decode()
    assert 'id="turn"' in page and 'id="active"' in page
    assert 'id="latest"' in page and 'class="headline"' in page
    if key != "dropfleet":  # Dropfleet's players' page has no order of play yet: the rest holds for it too
        assert 'class="order"' in page  # the order of play
    own = Ship.objects.filter(campaign=campaign, crew__player=player).first()
    assert own.name in page
    assert_words(page, f"the {key} players' page")
    for ship in Ship.objects.filter(campaign=campaign):
        assert ship.name in page or "contact" in page  # every ship as known, an unknown contact unnamed


@pytest.mark.django_db
@pytest.mark.parametrize("key", SYSTEMS)
def test_the_gm_and_the_player_read_the_log_without_codes(client, gm, player, key):
    campaign = demo_campaign(key, gm, player)
    encounter = start(campaign, gm)
    play(encounter, gm, 30)
    for user in (player, gm):
        client.force_login(user)
        page = client.get(encounter.get_absolute_url() + "?log=all").content.decode()
        log = page[page.index('id="log"'):]
        assert_words(log, f"the log as the {user.username} reads it")
        assert "RULES-NOTES" not in text_of(log)
        assert 'title="In the source: ' in log  # a rule cited in English, its source's heading on hover
        if key == "cepheus":
            assert "Tabella" not in text_of(log)


def test_a_ships_carried_damage_reads_as_sentences():
    lines = damage_lines({"hull": 8, "systems": {"m_drive": 3}, "mounts": {"t1": 1}, "destroyed": True})
    assert lines == ["Hull: 8 points lost", "Systems hit: M drive (3 hits)", "Mounts hit: turret 1 (1 hit)",
                     "Destroyed"]


@pytest.mark.django_db
def test_the_ship_page_names_crew_in_the_damage_it_carries(client, gm, player):
    campaign = demo_campaign("cepheus", gm, player)
    ship = Ship.objects.filter(campaign=campaign, crew__player=player).first()
    member = ship.crew.first()
    ship.damage = {"hull": 8, "systems": {"m_drive": 3}, "crew": {f"c{member.pk}": {"damage": 5}}}
    ship.save()
    client.force_login(player)
    page = client.get(reverse("campaigns:ship", args=[campaign.pk, ship.pk])).content.decode()
    assert "Hull: 8 points lost" in html.unescape(page) and f"{member.name}: 5 damage" in html.unescape(page)
    assert "M-Drive: 3 hits" in html.unescape(page)  # Cepheus names its systems (damage_words)
    assert_words(page, "the ship page")


@pytest.mark.django_db
def test_the_ship_page_names_the_weapon_and_turret_of_the_ammunition_spent(client, gm, player):
    """Issue 27: "Ammunition spent: turret 2, weapon 1: 1" reads "Ammunition spent: 1 missile from the
    missile rack in turret 2" (Cepheus names its weapons from the ship's stats)."""
    campaign = demo_campaign("cepheus", gm, player)
    ship = Ship.objects.get(campaign=campaign, name="Lantern of Ashby")  # turret 2: missile rack, beam laser
    ship.damage = {"ammo": {"t2.0": 1, "t1.1": 2}, "mounts": {"t1": 2}}
    ship.save()
    client.force_login(gm)
    page = html.unescape(client.get(reverse("campaigns:ship", args=[campaign.pk, ship.pk])).content.decode())
    assert "Ammunition spent: 1 missile from the missile rack in turret 2" in page
    assert "Ammunition spent: 2 sand canisters from the sandcaster in turret 1" in page
    assert "Turret 1 (pulse laser, sandcaster): 2 hits" in page
    assert "weapon 1" not in page and "t2.0" not in text_of(page)
    assert_words(page, "the ship page")


def test_percentiles_read_as_ordinals():
    assert [percentile(x) for x in (0.22, 0.01, 0.12, 0.03)] == [
        "22nd percentile", "1st percentile", "12th percentile", "3rd percentile"]


def test_long_sweep_labels_are_slanted_not_overlapping():
    """Star Wars D6 sweeps by distance: seven labels such as "12 hexes apart" do not fit side by side."""
    point = {"trials": 10, "sides": {"A": {"win_interval": (0.1, 0.3), "win_rate": 0.2}}}
    long = [{**point, "label": f"{n} hexes apart"} for n in (2, 4, 6, 8, 10, 12, 15)]
    short = [{**point, "label": label} for label in ("Close", "Far")]
    assert "rotate(-35" in charts.win_probability(long, "A")
    assert "rotate(" not in charts.win_probability(short, "A")


@pytest.mark.django_db
def test_a_simulation_of_damaged_ships_says_so_and_offers_them_repaired(client, gm, player):
    campaign = demo_campaign("cepheus", gm, player)
    hurt = Ship.objects.filter(campaign=campaign).first()
    hurt.damage = {"hull": 3}
    hurt.save()
    client.force_login(gm)
    url = reverse("encounters:simulation_new", args=[campaign.pk])
    page = html.unescape(client.get(url).content.decode())
    assert "carries damage from earlier fights" in page and hurt.name in page
    assert "Simulate the ships as repaired" in page
    fleets = [str(f.pk) for f in campaign.fleets.all()]
    data = {"name": "Repaired", "fleets": fleets, "sweep": "range", "trials_per_point": "10", "chunk_size": "10",
            "repaired": "on"}
    from campaigns.rulesets import forms_for

    options = forms_for("cepheus").SetupOptionsForm(prefix="opt")
    for field in options:  # the starting options as the form offers them
        value = field.value()
        if value not in (None, False, ""):
            data[field.html_name] = "on" if value is True else value
    from encounters.models import SimulationRun
    from encounters import simulations

    sent = []
    simulations.dispatch, original = (lambda task, row, *args: sent.append(row.pk)), simulations.dispatch
    try:
        response = client.post(url, data)
        assert response.status_code == 302, (response.context["form"].errors, response.context["options"].errors)
        client.post(url, {**data, "name": "As they are", "repaired": ""})
    finally:
        simulations.dispatch = original
    repaired, as_they_are = SimulationRun.objects.get(name="Repaired"), SimulationRun.objects.get(name="As they are")
    assert all(not s.get("damage") for s in repaired.setup["ships"])
    assert any(s.get("damage") for s in as_they_are.setup["ships"])
    detail = html.unescape(client.get(as_they_are.get_absolute_url()).content.decode())
    assert "started with the damage" in detail and "as repaired" in detail
    assert "started with the damage" not in html.unescape(client.get(repaired.get_absolute_url()).content.decode())


@pytest.mark.django_db
def test_the_template_picker_shows_stats_and_the_invite_link_has_a_copy_button(as_gm, campaign, gm):
    assert stats_summary({"tonnage": 200, "armour": 1, "auto_repair": False, "turrets": [{}, {}]}) == \
        "tonnage 200, armour 1, 2 turrets"
    Invite.create(campaign, gm, single_use=True, days=7)
    page = as_gm.get(campaign.get_absolute_url()).content.decode()
    assert "Toy frigate — hull 10" in html.unescape(page)
    assert 'data-copy="#invite-' in page and "js/copy.js" in page


@pytest.fixture
def as_admin(client, django_user_model):
    admin = django_user_model.objects.create_superuser("root", "root@example.com", "root-password-123")
    client.force_login(admin)
    return client


@pytest.mark.django_db
def test_the_admin_template_form_uses_the_rulesets_labels_and_help(as_admin):
    page = as_admin.get(reverse("admin:campaigns_shiptemplate_add") + "?ruleset=cepheus").content.decode()
    assert "Stats-tonnage" not in page and "Tonnage (displacement tons)" in page
    assert "Hull and Structure are derived" in page


@pytest.mark.django_db
def test_reimporting_templates_says_what_happened(as_admin):
    ShipTemplate.objects.create(ruleset="toy", name="Lancer", stats={"hull": 3})
    ShipTemplate.objects.create(ruleset="toy", name="Barge", stats={"hull": 5})
    from campaigns import exchange

    data = exchange.export_templates("toy")
    data["templates"] = [{"name": "Lancer", "stats": {"hull": 3}, "notes": ""},
                         {"name": "Barge", "stats": {"hull": 7}, "notes": ""},
                         {"name": "Skiff", "stats": {"hull": 2}, "notes": ""}]
    f = io.BytesIO(json.dumps(data).encode())
    f.name = "t.json"
    response = as_admin.post(reverse("admin:campaigns_shiptemplate_import"), {"file": f}, follow=True)
    text = html.unescape(response.content.decode())
    assert "added 1 new template (Skiff)" in text
    assert "updated 1 existing template with the file's stats (Barge)" in text
    assert "left 1 template as it was: the library already had it with the same stats (Lancer)" in text


@pytest.mark.django_db
def test_in_a_boarding_fight_the_players_page_names_the_person_who_acts(client, gm, player):
    """Void d20: once boarders fight in the corridors, the turn line names the person whose
    step it is, as the player knows them, and the ship whose crew they are."""
    campaign = demo_campaign("void_d20", gm, player)
    client.force_login(player)
    for seed in range(20):  # the demo duel, until a fight in which the bots board
        encounter = start(campaign, gm)
        encounter.seed = f"boarding {seed}"
        encounter.save()
        now = log.current(encounter)
        while not now.state.over and not (now.state.scale == "personal" and now.state.phase == "turn"):
            play(encounter, gm, 1)
            now = log.current(encounter)
        if not now.state.over:
            break
    else:
        pytest.fail("no demo duel of 20 ended in a boarding fight")
    view = encounter.engine.view(now.state, viewer_for(player, encounter, Membership.PLAYER))
    page = client.get(encounter.get_absolute_url()).content.decode()
    turn_line = text_of(page[page.index('id="active"'):page.index("</p>", page.index('id="active"'))])
    assert view["acting_person"] and view["acting_person"] in turn_line and " of " in turn_line
    assert_words(page, "the Void d20 players' page in a boarding fight")


def test_missiles_in_flight_count_turns_in_words():
    """Issue 27: "1 turn(s) to impact" reads "1 turn to impact", "2 turns to impact"."""
    from django.template.loader import get_template

    from encounters.views import ruleset_partials

    board = get_template(f"{ruleset_partials('cepheus')}#board")
    view = {"ships": [], "missiles": [
        {"missile": "m1", "kind": "smart", "count": 2, "what": "2 smart missiles", "from": "Lantern", "target": "Raider",
         "to_hit": 8, "rounds": 1},
        {"incoming": 3, "what": "3 missiles", "target": "Lantern", "rounds": 2}]}
    words = " ".join(text_of(board.render({"view": view, "is_gm": True})).split())
    assert "2 smart missiles from Lantern at Raider: hits on 8+, 1 turn to impact" in words
    assert "3 missiles incoming at Lantern — 2 turns to impact" in words
    assert "(s)" not in words
