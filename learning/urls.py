"""Pages of the learning app: experiments, the learnings library and the playbook
modules."""

from django.urls import path

from . import views

app_name = "learning"

urlpatterns = [
    path("experiments/", views.experiment_list, name="experiment_list"),
    path("experiments/<int:pk>/", views.experiment_detail, name="experiment_detail"),
    path("experiments/<int:pk>/start/", views.experiment_start, name="experiment_start"),
    path("experiments/<int:pk>/finish/", views.experiment_finish, name="experiment_finish"),
    path("experiments/<int:pk>/drop/", views.experiment_drop, name="experiment_drop"),
    path("library/", views.library, name="library"),
    path("library/new/", views.learning_new, name="learning_new"),
    path("library/<int:pk>/", views.learning_detail, name="learning_detail"),
    path("library/<int:pk>/edit/", views.learning_edit, name="learning_edit"),
    path("library/<int:pk>/unpublish/", views.learning_unpublish, name="learning_unpublish"),
    path("playbooks/", views.playbook_list, name="playbook_list"),
    path("teams/<int:pk>/playbooks/", views.team_playbooks, name="team_playbooks"),
]
