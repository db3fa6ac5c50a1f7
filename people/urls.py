from django.urls import path

from . import views, views_audit, views_imports, views_people, views_pick, views_teams

app_name = "people"

urlpatterns = [
    path("me/profile/", views.profile, name="profile"),
    path("me/data/", views.my_data, name="my_data"),
    path("me/data/download/", views.my_data_download, name="my_data_download"),
    path("me/api-token/", views.api_token, name="api_token"),
    path("me/api-token/new/", views.api_token_create, name="api_token_create"),
    path("me/api-token/revoke/", views.api_token_revoke, name="api_token_revoke"),
    path("programme/first-admin/", views.first_programme_admin, name="first_programme_admin"),
    path("programme/imports/", views_imports.import_list, name="people_import_list"),
    path(
        "programme/imports/example.csv",
        views_imports.import_example,
        name="people_import_example",
    ),
    path("programme/imports/<int:pk>/", views_imports.import_detail, name="people_import_detail"),
    path(
        "programme/imports/<int:pk>/apply/", views_imports.import_apply, name="people_import_apply"
    ),
    path(
        "programme/imports/<int:pk>/discard/",
        views_imports.import_discard,
        name="people_import_discard",
    ),
    path("people/pick/<slug:source>/", views_pick.people_pick, name="people_pick"),
    path("programme/teams/", views_teams.team_list, name="team_list"),
    path("programme/teams/new/", views_teams.team_new, name="team_new"),
    path("programme/teams/<int:pk>/", views_teams.team_detail, name="team_detail"),
    path(
        "programme/teams/<int:pk>/members/add/",
        views_teams.team_member_add_view,
        name="team_member_add",
    ),
    path(
        "programme/teams/<int:pk>/members/<int:person_pk>/remove/",
        views_teams.team_member_remove_view,
        name="team_member_remove",
    ),
    path("programme/audit/", views_audit.audit_log, name="audit_log"),
    path("programme/people/", views_people.person_list, name="programme_people"),
    path("programme/people/new/", views_people.person_new, name="programme_person_new"),
    path(
        "programme/people/welcome/",
        views_people.people_welcome_view,
        name="programme_people_welcome",
    ),
    path("programme/people/<int:pk>/", views_people.person_detail, name="programme_person"),
    path(
        "programme/people/<int:pk>/manager/",
        views_people.person_manager,
        name="programme_person_manager",
    ),
    path(
        "programme/people/<int:pk>/appointments/",
        views_people.person_appointments,
        name="programme_person_appointments",
    ),
    path(
        "programme/people/<int:pk>/deactivate/",
        views_people.person_deactivate_view,
        name="programme_person_deactivate",
    ),
    path(
        "programme/people/<int:pk>/welcome/",
        views_people.person_welcome_view,
        name="programme_person_welcome",
    ),
    path(
        "programme/people/<int:pk>/reactivate/",
        views_people.person_reactivate_view,
        name="programme_person_reactivate",
    ),
]
