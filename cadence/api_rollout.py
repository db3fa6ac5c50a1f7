"""API of the programme rollout (registered by cadence/api_urls.py)."""


def register(router) -> None:
    """Add the rollout viewsets to the API router."""
