"""Pages of the pairs part of coaching (included by coaching/urls.py)."""

urlpatterns: list = []
