"""Someone who has reported to a manager for less than the 14 days of the coverage
rule, with no 1:1 yet, is new there, not late: My team says so in grey instead of
"over 14 days" in red, lists them apart from "Not had a 1:1 in 14 days" with their
first 1:1 or a link to plan one, and the API says `new_here` instead of
`not_covered`. Someone who has reported longer without a 1:1 is still not covered."""

from datetime import timedelta

import pytest
from django.utils import timezone

from people.models import ReportingLine
from people.services import reporting_line_change
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db


def since(person, days: int) -> None:
    started = timezone.now() - timedelta(days=days)
    ReportingLine.objects.filter(report=person, ended_at__isnull=True).update(started_at=started)


def test_a_new_report_is_new_here_and_one_of_longer_standing_is_not_covered(client, org):
    since(org.rep, 20)  # Rita: three weeks with Mia, no 1:1
    since(org.peer, 3)  # Pavel: moved to Mia three days ago
    client.force_login(org.manager)

    page = client.get("/team/").content.decode()
    listed = page[
        page.index('id="uncovered-heading"') : page.index(
            "</section>", page.index('id="uncovered-heading"')
        )
    ]
    assert "Rita Rep" in listed.split("New to you")[0]
    assert "New to you in the last 14 days, no 1:1 yet" in listed
    assert "Pavel Peer" in listed.split("New to you")[1] and "plan one" in listed
    assert "· new, reports to you since" in page

    people = {p["display_name"]: p for p in client.get("/api/v1/dashboards/team/").json()["people"]}
    assert people["Rita Rep"]["not_covered"] and not people["Rita Rep"]["new_here"]
    assert people["Pavel Peer"]["new_here"] and not people["Pavel Peer"]["not_covered"]
    assert people["Pavel Peer"]["reports_since"] is not None


def test_on_a_new_teams_first_day_nobody_is_late(client, org):
    client.force_login(org.manager)  # the org was made today
    page = client.get("/team/").content.decode()
    assert "over 14 days" not in page
    assert 'Not had a 1:1 in 14 days <span class="count">0</span>' in page
    assert "Everyone reporting to you" not in page  # nobody has been here 14 days


def test_seen_from_above_the_words_name_the_manager(client, org):
    since(org.rep, 20)
    client.force_login(org.head)
    page = client.get(f"/team/managers/{org.manager.pk}/").content.decode()
    assert "New to Mia in the last 14 days" in page and "reports to Mia since" in page
    assert "plan one" not in page  # only the manager plans their own 1:1s


def test_moving_to_a_new_manager_makes_someone_new_there(client, org):
    since(org.rep, 60)
    reporting_line_change(person=org.rep, manager=org.other_manager)
    UserFactory(manager=org.other_manager)
    client.force_login(org.other_manager)
    people = {p["display_name"]: p for p in client.get("/api/v1/dashboards/team/").json()["people"]}
    assert people["Rita Rep"]["new_here"]
