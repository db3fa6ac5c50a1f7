"""Team channels as the programme admin's Team channels page and the API show them:
each with its team, format, host (never the whole address) and record, a page at a
time, and the teams that could still get one. A fixed number of queries."""

from django.core.paginator import Page, Paginator
from django.shortcuts import get_object_or_404

from people.models import Team

from .models import TeamChannel

CHANNELS_PER_PAGE = 25


def channels():
    """Every channel with its team, by team name (one query)."""
    return TeamChannel.objects.select_related("team").order_by("team__name", "pk")


def channels_page(*, page_number: int = 1) -> Page:
    """A page of channels: the count and the page, two queries. A page past the end
    shows the last one."""
    page = Paginator(channels(), CHANNELS_PER_PAGE).get_page(page_number)
    page.object_list = list(page.object_list)
    return page


def teams_without_channel():
    """Teams that could be connected, by name."""
    return Team.objects.filter(channel__isnull=True).order_by("name", "pk")


def access_channel(*, pk: int) -> TeamChannel:
    return get_object_or_404(channels(), pk=pk)
