from django.urls import include, path

from . import views, views_focus_areas, views_goals, views_notes, views_prompts, views_skills

app_name = "coaching"

urlpatterns = [
    path("sessions/", views.session_list, name="session_list"),
    path("sessions/new/", views.session_new, name="session_new"),
    path("sessions/<int:pk>/", views.session_detail, name="session_detail"),
    path("sessions/<int:pk>/prepare/", views.session_prepare, name="session_prepare"),
    path("sessions/<int:pk>/notes/", views.notes_save, name="session_notes_save"),
    path("sessions/<int:pk>/notes/live/", views_notes.notes_live, name="session_notes_live"),
    path("sessions/<int:pk>/private-note/", views.private_note_save, name="private_note_save"),
    path("sessions/<int:pk>/agenda/", views.agenda_add, name="agenda_add"),
    path("sessions/<int:pk>/commitments/", views.commitment_add, name="commitment_add"),
    path("sessions/<int:pk>/held/", views.session_held, name="session_held"),
    path("sessions/<int:pk>/rating/", views.session_rating, name="session_rating"),
    path("sessions/<int:pk>/call-scoring/", views.call_review_scoring, name="call_review_scoring"),
    path("sessions/<int:pk>/cancel/", views.session_cancel, name="session_cancel"),
    path("sessions/<int:pk>/reschedule/", views.session_reschedule, name="session_reschedule"),
    path("agenda/<int:pk>/toggle/", views.agenda_toggle, name="agenda_toggle"),
    path("agenda/<int:pk>/delete/", views.agenda_delete, name="agenda_delete"),
    path("commitments/", views.commitment_list, name="commitment_list"),
    path("commitments/<int:pk>/close/", views.commitment_close, name="commitment_close"),
    path("commitments/<int:pk>/reopen/", views.commitment_reopen, name="commitment_reopen"),
    path("people/<int:pk>/", views.person_detail, name="person_detail"),
    path("people/<int:pk>/goals/", views_goals.person_goal_add, name="person_goal_add"),
    path("people/<int:pk>/skills/", views_skills.person_skills, name="person_skills"),
    path("skills/", views_skills.skills_mine, name="skills_mine"),
    path("teams/<int:pk>/skills/", views_skills.team_skills, name="team_skills"),
    path("goals/", views_goals.goal_list, name="goal_list"),
    path("goals/<int:pk>/edit/", views_goals.goal_edit, name="goal_edit"),
    path("goals/<int:pk>/close/", views_goals.goal_close, name="goal_close"),
    path("goals/<int:pk>/reopen/", views_goals.goal_reopen, name="goal_reopen"),
    path("programme/focus-areas/", views_focus_areas.focus_area_list, name="focus_area_list"),
    path("programme/focus-areas/new/", views_focus_areas.focus_area_new, name="focus_area_new"),
    path(
        "programme/focus-areas/<int:pk>/",
        views_focus_areas.focus_area_edit,
        name="focus_area_edit",
    ),
    path(
        "programme/focus-areas/<int:pk>/end/",
        views_focus_areas.focus_area_end_today,
        name="focus_area_end",
    ),
    path("programme/questions/", views_prompts.prompt_list, name="prompt_list"),
    path("programme/questions/new/", views_prompts.prompt_new, name="prompt_new"),
    path("programme/questions/<int:pk>/", views_prompts.prompt_edit, name="prompt_edit"),
    path("programme/questions/<int:pk>/retire/", views_prompts.prompt_retire, name="prompt_retire"),
    path(
        "programme/questions/<int:pk>/restore/",
        views_prompts.prompt_restore,
        name="prompt_restore",
    ),
    path("", include("coaching.urls_diagnosis")),
]
