from django.urls import path

from . import views, views_pick

urlpatterns = [
    # Before allauth's own URLs, so this one answers /accounts/login/.
    path("accounts/login/", views.SignInView.as_view(), name="account_login"),
    path("me/profile/", views.profile, name="profile"),
    path("me/data/", views.my_data, name="my_data"),
    path("me/data/download/", views.my_data_download, name="my_data_download"),
    path("me/api-token/", views.api_token, name="api_token"),
    path("me/api-token/new/", views.api_token_create, name="api_token_create"),
    path("me/api-token/revoke/", views.api_token_revoke, name="api_token_revoke"),
    path("people/pick/<slug:source>/", views_pick.people_pick, name="people_pick"),
]
