"""Feedback requests reach people through the outbox: "you were asked" with the
request, one reminder the day before it is due, nothing for those who answered or
declined, and never anyone's answers or who gave them."""

from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.periodic import PERIODIC_TASKS
from feedback import notifications as feedback_reminders
from feedback import services as feedback_services
from notifications import outbox
from notifications.models import (
    Notification,
    NotificationKind,
    NotificationPreference,
    NotificationStatus,
)
from tests.support.factories import UserFactory

MONDAY = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ANSWER = "You paused after the price and let the buyer speak first"


def ask(org, *responders, due_on=date(2026, 3, 6), **kwargs):
    return feedback_services.feedback_request_create(
        requester=org.rep, responders=list(responders), due_on=due_on, **kwargs
    )


def rows(kind):
    return list(
        Notification.objects.filter(kind=kind)
        .order_by("recipient__email")
        .values_list("recipient__email", "feedback_request_id")
    )


@pytest.mark.django_db
def test_asking_tells_each_person_asked_in_the_same_transaction(org):
    with time_machine.travel(MONDAY, tick=False):
        asked = ask(org, org.peer, org.manager)
    assert rows(NotificationKind.FEEDBACK_ASKED) == [
        ("manager@example.com", asked.pk),
        ("peer@example.com", asked.pk),
    ]


@pytest.mark.django_db
def test_a_refused_request_leaves_no_notification(org):
    with time_machine.travel(MONDAY, tick=False), pytest.raises(ValidationError):
        ask(org, org.peer, org.rep)  # asking oneself is refused
    assert not Notification.objects.exists()


@pytest.mark.django_db
def test_the_email_names_the_requester_the_date_and_the_link_and_nothing_else(org, settings):
    settings.SITE_URL = "https://tandem.example"
    with time_machine.travel(MONDAY, tick=False):
        asked = ask(org, org.peer, topic="Discovery calls")
        outbox.drain()
    [email] = mail.outbox
    assert email.to == ["peer@example.com"]
    assert email.subject == "Rita Rep asks for your feedback, by 6 Mar"
    assert "developmental feedback on “Discovery calls”, by Friday 6 March" in email.body
    assert f"https://tandem.example/feedback/requests/{asked.pk}/" in email.body
    assert asked.question not in email.body  # the question stays on the page


@pytest.mark.django_db
def test_one_reminder_the_day_before_only_to_those_still_waiting(org):
    newcomer = UserFactory(display_name="Nina New", manager=org.manager)
    with time_machine.travel(MONDAY, tick=False):
        asked = ask(org, org.peer, org.manager, newcomer)
        feedback_services.feedback_request_answer(
            request=asked, responder=org.manager, observation=ANSWER
        )
        feedback_services.feedback_request_decline(request=asked, responder=newcomer)
        assert feedback_reminders.due_queue() == 0  # due Friday: too early
    with time_machine.travel(MONDAY + timedelta(days=3), tick=False):  # Thursday
        assert feedback_reminders.due_queue() == 1
        feedback_reminders.due_queue()  # a second run records nothing twice
    with time_machine.travel(MONDAY + timedelta(days=4), tick=False):  # Friday
        feedback_reminders.due_queue()
    assert rows(NotificationKind.FEEDBACK_DUE) == [("peer@example.com", asked.pk)]


@pytest.mark.django_db
def test_long_overdue_requests_are_not_nagged_about(org):
    with time_machine.travel(MONDAY, tick=False):
        ask(org, org.peer, due_on=date(2026, 3, 3))
        Notification.objects.all().delete()
    with time_machine.travel(MONDAY + timedelta(days=30), tick=False):
        assert feedback_reminders.due_queue() == 0


@pytest.mark.django_db
def test_deactivated_people_are_not_reminded(org):
    with time_machine.travel(MONDAY, tick=False):
        ask(org, org.peer)
    org.peer.is_active = False
    org.peer.save(update_fields=["is_active"])
    with time_machine.travel(MONDAY + timedelta(days=3), tick=False):
        assert feedback_reminders.due_queue() == 0


@pytest.mark.django_db
def test_a_reminder_for_an_answered_request_is_skipped_at_send_time(org):
    with time_machine.travel(MONDAY + timedelta(days=3), tick=False):
        asked = ask(org, org.peer)
        feedback_reminders.due_queue()
        feedback_services.feedback_request_answer(
            request=asked, responder=org.peer, observation=ANSWER
        )
        outbox.drain()
    assert set(Notification.objects.values_list("status", flat=True)) == {
        NotificationStatus.SKIPPED
    }
    assert mail.outbox == []


@pytest.mark.django_db
def test_the_feedback_email_preference_keeps_it_in_app_only(org):
    NotificationPreference.objects.create(person=org.peer, email_feedback=False)
    with time_machine.travel(MONDAY, tick=False):
        ask(org, org.peer)
        outbox.drain()
    assert mail.outbox == []
    assert Notification.objects.get().status == NotificationStatus.SKIPPED


@pytest.mark.django_db
def test_anonymous_requests_name_no_author_anywhere(org):
    """The manager asks three reports anonymously; the notifications go to those
    asked and never say who answered."""
    third = UserFactory(display_name="Tia Third", manager=org.manager)
    with time_machine.travel(MONDAY, tick=False):
        asked = feedback_services.feedback_request_create(
            requester=org.manager,
            responders=[org.rep, org.peer, third],
            due_on=date(2026, 3, 6),
            anonymous=True,
        )
        outbox.drain()
        feedback_services.feedback_request_answer(
            request=asked, responder=org.rep, observation=ANSWER
        )
    with time_machine.travel(MONDAY + timedelta(days=3), tick=False):
        feedback_reminders.due_queue()
        outbox.drain()
    reminded = [m.to[0] for m in mail.outbox if m.subject.startswith("Reminder")]
    assert sorted(reminded) == ["peer@example.com", third.email]
    assert {m.to[0] for m in mail.outbox} == {"rep@example.com", "peer@example.com", third.email}
    assert not Notification.objects.filter(recipient=org.manager).exists()
    assert all("anonymous" in m.body and ANSWER not in m.body for m in mail.outbox)


@pytest.mark.django_db
def test_the_notifications_page_links_to_the_request(client, org):
    with time_machine.travel(MONDAY, tick=False):
        asked = ask(org, org.peer)
    client.force_login(org.peer)
    page = client.get("/me/notifications/").content.decode()
    assert "Feedback asked of you: Rita Rep, by 6 Mar" in page
    assert f'href="/feedback/requests/{asked.pk}/"' in page


@pytest.mark.django_db
def test_feedback_lines_cost_no_extra_query(client, org):
    client.force_login(org.peer)
    with time_machine.travel(MONDAY, tick=False):
        ask(org, org.peer)
        with CaptureQueriesContext(connection) as few:
            client.get("/me/notifications/")
        for _ in range(12):
            ask(org, org.peer)
        with CaptureQueriesContext(connection) as many:
            client.get("/me/notifications/")
    assert len(few) == len(many)


def test_the_reminder_sweep_is_scheduled_hourly():
    spec = next(s for s in PERIODIC_TASKS if s.task == "cadence.queue_feedback_reminders")
    assert spec.crontab == {"minute": "35"}


@pytest.mark.django_db
def test_the_sender_is_nudged_once_the_request_commits(org, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        ask(org, org.peer, due_on=date.today() + timedelta(days=5))
    assert len(callbacks) == 1  # eager in tests: the drain ran and sent the email
    assert [m.to for m in mail.outbox] == [["peer@example.com"]]


@pytest.mark.django_db
def test_a_broker_that_is_down_does_not_fail_the_request(
    org, monkeypatch, django_capture_on_commit_callbacks
):
    from notifications import tasks

    def down():
        raise ConnectionError("broker unreachable")

    monkeypatch.setattr(tasks.send_notifications, "delay", down)
    with django_capture_on_commit_callbacks(execute=True):
        asked = ask(org, org.peer, due_on=date.today() + timedelta(days=5))
    # The request and its notification stand; the minute-ly drain will send it.
    assert Notification.objects.get().feedback_request == asked
