"""API of the learning part of coaching (registered by coaching/api_urls.py)."""


def register(router) -> None:
    """Add this area's viewsets to the API router."""
