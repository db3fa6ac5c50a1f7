"""Pages of the learning part of coaching (included by coaching/urls.py)."""

urlpatterns: list = []
