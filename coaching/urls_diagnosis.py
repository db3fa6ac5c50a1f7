"""Pages of the diagnosis part of coaching (included by coaching/urls.py)."""

urlpatterns: list = []
