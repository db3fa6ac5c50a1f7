"""Pages of the peers app: pairs, their notes and habits, requests for a peer."""

from django.urls import path

from . import views

app_name = "peers"

urlpatterns = [
    path("peers/", views.pair_list, name="pair_list"),
    path("peers/new/", views.pair_new, name="pair_new"),
    path("peers/overview/", views.pair_overview, name="pair_overview"),
    path("peers/ask/", views.peer_request_set, name="peer_request_set"),
    path("peers/ask/withdraw/", views.peer_request_withdraw, name="peer_request_withdraw"),
    path("peers/<int:pk>/", views.pair_detail, name="pair_detail"),
    path("peers/<int:pk>/accept/", views.pair_accept, name="pair_accept"),
    path("peers/<int:pk>/decline/", views.pair_decline, name="pair_decline"),
    path("peers/<int:pk>/leave/", views.pair_leave, name="pair_leave"),
    path("peers/<int:pk>/end/", views.pair_end, name="pair_end"),
    path("peers/<int:pk>/agreement/", views.pair_agreement, name="pair_agreement"),
    path("peers/<int:pk>/notes/", views.pair_note_add, name="pair_note_add"),
    path("peers/<int:pk>/habits/", views.pair_habit_add, name="pair_habit_add"),
    path("peers/habits/<int:pk>/retire/", views.habit_retire, name="habit_retire"),
    path("peers/habits/<int:pk>/check-in/", views.habit_check_in, name="habit_check_in"),
]
