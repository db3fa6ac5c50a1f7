"""Pages of the diagnosis part of coaching (included by coaching/urls.py)."""

from django.urls import path

from . import views_diagnosis

urlpatterns: list = [
    path("people/<int:pk>/diagnosis/", views_diagnosis.diagnosis_new, name="diagnosis_new"),
]
