from django.urls import path

from . import views_growth, views_hr, views_team

urlpatterns = [
    path("me/", views_growth.home_rep, name="home_rep"),
    path("team/", views_team.home_manager, name="home_manager"),
    path("hr/", views_hr.home_hr, name="home_hr"),
]
