"""Our sign-in page, under allauth's own route name and outside the people namespace:
allauth and the settings reverse `account_login`, and this route must answer
/accounts/login/ before allauth's (config/urls.py includes it first)."""

from django.urls import path

from . import views

urlpatterns = [
    path("accounts/login/", views.SignInView.as_view(), name="account_login"),
]
