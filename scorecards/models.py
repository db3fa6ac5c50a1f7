"""Shared standards of quality. For now: the recorded call, the piece of work that
team call reviews present and scorecards (a later issue) score."""

from django.conf import settings
from django.db import models
from django.utils import timezone


class RecordedCall(models.Model):
    person = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="recorded_calls",
        help_text="Whose call it is.",
    )
    url = models.URLField("recording link", max_length=500)
    title = models.CharField(max_length=200)
    call_date = models.DateField()
    timestamps = models.TextField(
        blank=True,
        max_length=2000,
        help_text="Moments worth a look, one per line, e.g. “04:10 first pricing question”.",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-call_date", "-id"]

    def __str__(self):
        return f"{self.title} ({self.call_date:%d %b %Y})"
