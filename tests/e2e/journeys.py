"""What the coaching journeys share: Sofia and Aisha, signing out, and the 1:1 they open."""

import datetime as dt

from django.utils import timezone
from playwright.sync_api import Page, expect

from coaching.models import CoachingSession, ParticipantRole, SessionKind, SessionStatus
from coaching.services import session_reschedule
from people.models import User
from tests.support.factories import one_on_one

SOFIA = "sofia.alvarez@example.com"  # manager, Enterprise East


AISHA = "aisha.bello@example.com"  # rep in Sofia's team


def upcoming_one_on_one(coach: User, coachee: User) -> CoachingSession:
    """A 1:1 an hour from now that is the coachee's next one. Demo history (when
    seeded) plans each rep's next weekly 1:1 too; should that slot fall within the
    hour, move it a day on so "Next 1:1" points at ours either way."""
    start = timezone.now() + dt.timedelta(hours=1)
    earlier = (
        CoachingSession.objects.filter(
            kind=SessionKind.ONE_ON_ONE,
            status=SessionStatus.SCHEDULED,
            participants__person=coachee,
            participants__role=ParticipantRole.COACHEE,
            scheduled_start__gte=timezone.now() - dt.timedelta(minutes=5),
            scheduled_start__lte=start + dt.timedelta(minutes=5),
        )
        .with_people()
        .distinct()
    )
    for other in earlier:
        session_reschedule(
            session=other, actor=other.coach, start=other.scheduled_start + dt.timedelta(days=1)
        )
    return one_on_one(coach, coachee, start=start)


def sign_out(page: Page) -> None:
    with page.expect_navigation():
        page.get_by_role("navigation", name="Account").get_by_role(
            "button", name="Sign out"
        ).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Sign in")
