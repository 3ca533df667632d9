from django.urls import path

from . import views

app_name = "campaigns"

urlpatterns = [
    path("", views.campaign_list, name="list"),
    path("import/", views.campaign_import, name="import"),
    path("join/<str:token>/", views.join, name="join"),
    path("<int:pk>/", views.campaign_detail, name="detail"),
    path("<int:pk>/edit/", views.campaign_edit, name="edit"),
    path("<int:pk>/delete/", views.campaign_delete, name="delete"),
    path("<int:pk>/export/", views.campaign_export, name="export"),
    path("<int:pk>/transfer/", views.transfer_gm, name="transfer"),
    path("<int:pk>/invites/", views.invite_create, name="invite_create"),
    path("<int:pk>/invites/<int:invite_pk>/revoke/", views.invite_revoke, name="invite_revoke"),
    path("<int:pk>/members/<int:member_pk>/remove/", views.member_remove, name="member_remove"),
    path("<int:pk>/links/", views.link, name="link"),
    path("<int:pk>/fleets/", views.fleet_create, name="fleet_create"),
    path("<int:pk>/fleets/import/", views.fleet_import, name="fleet_import"),
    path("<int:pk>/fleets/<int:fleet_pk>/", views.fleet_edit, name="fleet_edit"),
    path("<int:pk>/fleets/<int:fleet_pk>/delete/", views.fleet_delete, name="fleet_delete"),
    path("<int:pk>/fleets/<int:fleet_pk>/export/", views.fleet_export, name="fleet_export"),
    path("<int:pk>/fleets/<int:fleet_pk>/ships/", views.ship_add, name="ship_add"),
    path("<int:pk>/ships/<int:ship_pk>/", views.ship_detail, name="ship"),
    path("<int:pk>/ships/<int:ship_pk>/clone/", views.ship_clone, name="ship_clone"),
    path("<int:pk>/ships/<int:ship_pk>/move/", views.ship_move, name="ship_move"),
    path("<int:pk>/ships/<int:ship_pk>/delete/", views.ship_delete, name="ship_delete"),
    path("<int:pk>/ships/<int:ship_pk>/repair/", views.ship_repair, name="ship_repair"),
    path("<int:pk>/ships/<int:ship_pk>/crew/", views.crew_add, name="crew_add"),
    path("<int:pk>/crew/<int:crew_pk>/", views.crew_edit, name="crew"),
    path("<int:pk>/crew/<int:crew_pk>/delete/", views.crew_delete, name="crew_delete"),
]
