"""Programme admins correct an install plan's start date on the admin site; plans are
started from the team's page, so the admin adds none, and the lead's ticks are read
only there."""

from datetime import timedelta

import pytest

from cadence.models import Rollout
from cadence.services_rollout import rollout_tick
from tests.support.cadence_rollout import rollout_fixture, team_fixture  # noqa: F401, F811 - fixtures

pytestmark = pytest.mark.django_db


def test_a_programme_admin_corrects_a_start_date(client, org, rollout):
    rollout_tick(rollout=rollout, actor=org.manager, item="recordings_on")
    client.force_login(org.admin)
    path = f"/admin/cadence/rollout/{rollout.pk}/change/"
    page = client.get(path).content.decode()
    assert "Recordings turned on" in page or "recordings_on" in page
    earlier = rollout.starts_on - timedelta(days=7)
    response = client.post(path, {"starts_on": earlier.isoformat(), **_inline_management()})
    assert response.status_code == 302, response.content.decode()[:2000]
    rollout.refresh_from_db()
    assert rollout.starts_on == earlier
    assert client.get("/admin/cadence/rollout/add/").status_code == 403


def _inline_management():
    prefix = "ticks"
    return {
        f"{prefix}-TOTAL_FORMS": "1",
        f"{prefix}-INITIAL_FORMS": "1",
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
        f"{prefix}-0-id": str(Rollout.objects.get().ticks.get().pk),
        f"{prefix}-0-rollout": str(Rollout.objects.get().pk),
    }


@pytest.mark.parametrize("who", ["hr", "manager"])
def test_nobody_else_opens_it(client, org, rollout, who):
    client.force_login(getattr(org, who))
    response = client.get(f"/admin/cadence/rollout/{rollout.pk}/change/")
    assert response.status_code == 404  # the admin site is invisible to them
