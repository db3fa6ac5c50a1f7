"""Pages of the programme rollout (included by cadence/urls.py)."""

urlpatterns: list = []
