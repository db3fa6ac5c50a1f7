"""Scorecard pages: templates, calls, scoring rounds, calibrations."""

from django.urls import path  # noqa: F401 - routes are added as the pages land

from . import views  # noqa: F401

urlpatterns: list = []
