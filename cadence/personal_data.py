"""The cadence engine's part of a person's data (see `people.privacy`).

The download: their notifications (kinds, times and what they point at — rows hold
references, never words), their email preferences, whether they have a calendar
feed (never its secret address), the plans they run or are coached in.

Erasure: the calendar feed (its token is a key) and the preferences go; plans and
notifications stay, as the history the dashboards count."""

from django.db.models import Q

from notifications.models import Notification, NotificationPreference
from people.models import User
from people.privacy import Erasure, erasure_part, export_section, ref, when

from .models import CadencePlan, CalendarFeed

PREFERENCE_FIELDS = (
    "email_upcoming",
    "email_missed",
    "email_escalation",
    "email_digest",
    "email_feedback",
    "email_pair_invited",
    "email_peer_asked",
    "email_session_changed",
    "email_invitations",
)


@export_section("notifications")
def notifications(person: User) -> list:
    return [
        {
            "kind": n.kind,
            "status": n.status,
            "session_id": n.session_id,
            "feedback_request_id": n.feedback_request_id,
            "pair_id": n.pair_id,
            "period": n.period or None,
            "created_at": when(n.created_at),
            "sent_at": when(n.sent_at),
            "read_at": when(n.read_at),
        }
        for n in Notification.objects.visible_to(person)
    ]


@export_section("settings")
def settings(person: User) -> dict:
    preference = NotificationPreference.objects.filter(person=person).first()
    feed = CalendarFeed.objects.filter(person=person).first()
    return {
        "email": (
            {
                **{name: getattr(preference, name) for name in PREFERENCE_FIELDS},
                "quiet_from": when(preference.quiet_from),
                "quiet_until": when(preference.quiet_until),
            }
            if preference
            else None
        ),
        "calendar_feed_created_at": when(feed.created_at) if feed else None,
    }


@export_section("cadence_plans")
def cadence_plans(person: User) -> list:
    plans = CadencePlan.objects.filter(Q(coach=person) | Q(coachee=person)).select_related(
        "coach", "coachee"
    )
    return [
        {
            "id": plan.pk,
            "kind": plan.kind,
            "coach": ref(plan.coach),
            "coachee": ref(plan.coachee),
            "created_at": when(plan.created_at),
            "ended_at": when(plan.ended_at),
        }
        for plan in plans
    ]


@erasure_part
def erase(person: User) -> Erasure:
    return Erasure(
        delete=[
            CalendarFeed.objects.filter(person=person),
            NotificationPreference.objects.filter(person=person),
        ],
        keep=[
            CadencePlan.objects.filter(Q(coach=person) | Q(coachee=person)),
            Notification.objects.filter(recipient=person),
        ],
    )
