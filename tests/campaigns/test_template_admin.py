"""The admin curates the template library with each ruleset's own stats form."""
import io
import json

import pytest
from django.urls import reverse

from campaigns.models import ShipTemplate

pytestmark = pytest.mark.django_db


@pytest.fixture
def as_admin(client, django_user_model):
    admin = django_user_model.objects.create_superuser("root", "root@example.com", "root-password-123")
    client.force_login(admin)
    return client


def test_the_add_form_carries_the_rulesets_stat_fields(as_admin):
    page = as_admin.get(reverse("admin:campaigns_shiptemplate_add") + "?ruleset=toy").content.decode()
    assert 'name="stats-hull"' in page


def test_a_template_saved_in_the_admin_stores_typed_stats(as_admin):
    response = as_admin.post(reverse("admin:campaigns_shiptemplate_add") + "?ruleset=toy",
                             {"ruleset": "toy", "name": "Lancer", "notes": "", "stats-hull": "12"})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert ShipTemplate.objects.get(name="Lancer").stats == {"hull": 12}


def test_a_malformed_stat_in_the_admin_is_shown_by_its_field_and_not_saved(as_admin):
    response = as_admin.post(reverse("admin:campaigns_shiptemplate_add") + "?ruleset=toy",
                             {"ruleset": "toy", "name": "Lancer", "notes": "", "stats-hull": "0"})
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["stats-hull"] == ["Ensure this value is greater than or equal to 1."]
    assert not ShipTemplate.objects.filter(name="Lancer").exists()


def test_the_library_is_searchable_and_filtered_by_ruleset(as_admin):
    ShipTemplate.objects.create(ruleset="toy", name="Lancer", stats={"hull": 3})
    ShipTemplate.objects.create(ruleset="toy", name="Barge", stats={"hull": 3})
    page = as_admin.get(reverse("admin:campaigns_shiptemplate_changelist") + "?q=lanc&ruleset__exact=toy").content.decode()
    assert "Lancer" in page and "Barge" not in page


def test_templates_export_and_import_in_the_admin(as_admin):
    t = ShipTemplate.objects.create(ruleset="toy", name="Lancer", stats={"hull": 3})
    response = as_admin.post(reverse("admin:campaigns_shiptemplate_changelist"),
                             {"action": "export_selected", "_selected_action": [t.pk]})
    data = json.loads(response.content)
    assert data["kind"] == "templates" and data["templates"][0]["name"] == "Lancer"
    data["templates"][0]["name"] = "Lancer Mk II"
    f = io.BytesIO(json.dumps(data).encode())
    f.name = "t.json"
    response = as_admin.post(reverse("admin:campaigns_shiptemplate_import"), {"file": f})
    assert response.status_code == 302
    assert ShipTemplate.objects.filter(name="Lancer Mk II").exists()


def test_a_gm_who_is_not_staff_cannot_reach_the_admin(as_gm):
    response = as_gm.get(reverse("admin:campaigns_shiptemplate_changelist"))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_a_star_wars_template_is_curated_with_dice_codes_and_weapon_lines(as_admin):
    post = {"ruleset": "starwars_d6", "name": "Gnat", "notes": "", "stats-name": "Gnat", "stats-scale": "starfighter",
            "stats-speed": "9", "stats-maneuverability": "2D+1", "stats-hull": "3X", "stats-shields": "1D",
            "stats-hyperdrive": "", "stats-weapons": "laser, 2D, 4D, linked 2\nphaser, 1D, 1D"}
    url = reverse("admin:campaigns_shiptemplate_add") + "?ruleset=starwars_d6"
    response = as_admin.post(url, post)
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert errors["stats-hull"] == ["'3X' is not a dice code like 4D+2."]
    assert any(e.startswith("Line 2:") and "phaser" in e for e in errors["stats-weapons"])
    post.update({"stats-hull": "3d", "stats-weapons": "laser, 2D, 4D, linked 2"})
    response = as_admin.post(url, post)
    assert response.status_code == 302, response.content.decode()[:2000]
    stats = ShipTemplate.objects.get(name="Gnat").stats
    assert stats["hull"] == "3D" and stats["weapons"] == [
        {"type": "laser", "fire_control": "2D", "damage": "4D", "linked": 2, "id": "w1"}]
