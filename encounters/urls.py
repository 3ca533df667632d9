from django.urls import path

from . import play, simulations, stream, views

app_name = "encounters"

urlpatterns = [
    path("campaigns/<int:campaign_pk>/encounters/new/", views.encounter_new, name="new"),
    path("encounters/<int:pk>/", views.encounter_detail, name="detail"),
    path("encounters/<int:pk>/step/", views.encounter_step, name="step"),
    path("encounters/<int:pk>/undo/", views.encounter_undo, name="undo"),
    path("encounters/<int:pk>/steps/<int:seq>/reroll/", views.encounter_reroll, name="reroll"),
    path("encounters/<int:pk>/steps/<int:seq>/reveal/", views.encounter_reveal, name="reveal"),
    path("encounters/<int:pk>/status/", views.encounter_status, name="status"),
    path("encounters/<int:pk>/poll/", views.encounter_poll, name="poll"),
    path("encounters/<int:pk>/stream/", stream.encounter_stream, name="stream"),
    path("encounters/<int:pk>/auto/", views.encounter_auto, name="auto"),
    path("encounters/<int:pk>/turn/", views.encounter_turn, name="turn"),
    path("encounters/<int:pk>/play/", play.player_step, name="play"),
    path("encounters/<int:pk>/play/turn/", play.player_turn, name="play_turn"),
    path("encounters/<int:pk>/proposal/", play.proposal_decide, name="proposal"),
    path("encounters/<int:pk>/players/", play.players_setting, name="players_setting"),
    path("encounters/<int:pk>/replay/", views.encounter_replay, name="replay"),
    path("encounters/<int:pk>/steps/<int:seq>/fork/", views.encounter_fork, name="fork"),
    path("encounters/<int:pk>/analyses/", views.analysis_start, name="analysis_start"),
    path("encounters/<int:pk>/analyses/<int:analysis_pk>/", views.analysis_detail, name="analysis"),
    path("campaigns/<int:campaign_pk>/simulations/new/", simulations.simulation_new, name="simulation_new"),
    path("encounters/<int:pk>/simulate/", simulations.simulation_from_encounter, name="simulation_from_encounter"),
    path("simulations/<int:pk>/", simulations.simulation_detail, name="simulation"),
    path("simulations/<int:pk>/cancel/", simulations.simulation_cancel, name="simulation_cancel"),
    path("simulations/<int:pk>/results.<str:fmt>", simulations.simulation_download, name="simulation_download"),
]
