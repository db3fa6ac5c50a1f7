"""Cadence health is worked out once per five-minute slot and read from then on: a
second request in the slot sends no aggregate query, the page and its downloads agree,
a change shows in the next slot, the page says as of when, and beat's warm-up computes
the default window in every time zone HR and programme admins read in, what the
zones share worked out once."""

import csv
import io
from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from coaching.models import CoachingSession, SessionStatus
from core.periodic import PERIODIC_TASKS
from dashboards import snapshots
from dashboards.tasks import warm_snapshots
from tests.support.dashboards_hr import NOW, build, days_ago

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(org):
    return build(org)


# What /hr/ reads live beside the kept snapshot, for each reader: the session, the user,
# the roles; the header's unread count; what waits for them (`dashboards.waiting`: 5,
# no escalations without reports). The API reads the first three only.
OWN = 3 + 1 + 5


def queries_for(client, path, **params):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path, params)
    assert response.status_code == 200
    return len(queries), response.content.decode()


def test_the_slot_starts_on_the_five_minutes():
    assert snapshots.slot_start(NOW + timedelta(minutes=7, seconds=31)) == NOW + timedelta(
        minutes=5
    )
    assert snapshots.slot_start(NOW) == NOW


def test_a_second_request_in_the_slot_reads_the_snapshot(client, world):
    client.force_login(world.org.hr)
    with time_machine.travel(NOW + timedelta(minutes=1), tick=False):
        first, page = queries_for(client, "/hr/", weeks=4)
        again, same = queries_for(client, "/hr/", weeks=4)
        api, _ = queries_for(client, "/api/v1/health/teams/", weeks=4)
    assert first > 20 and again == OWN and api == 3  # nothing computed again
    main = lambda html: html[html.index("<main") :]  # noqa: E731 - the CSRF token differs
    assert main(same) == main(page)
    assert "As of 13:00" in page  # 12:00 UTC in Berlin, the HR person's time zone


def test_a_download_gives_the_numbers_of_the_page_it_came_from(client, world):
    client.force_login(world.org.hr)
    with time_machine.travel(NOW, tick=False):
        page = client.get("/hr/", {"weeks": 4}).content.decode()
        # Raj's missed 1:1 is logged held after all, inside the slot.
        CoachingSession.objects.filter(status=SessionStatus.MISSED).update(
            status=SessionStatus.HELD, held_at=days_ago(3), missed_at=None
        )
        download = client.get("/hr/export/metrics.csv", {"weeks": 4}).content.decode()
    rows = list(csv.reader(io.StringIO(download)))
    assert "70%</span>" in page
    assert rows[1][:3] == ["Adherence", "held ÷ due", "70%"]  # as on the page


def test_the_next_slot_shows_what_changed(client, world):
    client.force_login(world.org.hr)
    with time_machine.travel(NOW, tick=False):
        assert "70%</span>" in client.get("/hr/", {"weeks": 4}).content.decode()
        CoachingSession.objects.filter(status=SessionStatus.MISSED).update(
            status=SessionStatus.HELD, held_at=days_ago(3), missed_at=None
        )
    with time_machine.travel(NOW + timedelta(minutes=5), tick=False):
        page = client.get("/hr/", {"weeks": 4}).content.decode()
    assert "90%</span>" in page  # 9 of 10 held now
    assert "As of 13:05" in page


def test_beat_warms_the_default_window_in_every_readers_time_zone(client, world):
    org = world.org
    org.admin.time_zone = "America/Chicago"
    org.admin.save(update_fields=["time_zone"])
    with time_machine.travel(NOW + timedelta(seconds=20), tick=False):
        assert warm_snapshots.delay().get() == ["America/Chicago", "Europe/Berlin"]
        for reader in (org.hr, org.admin):
            client.force_login(reader)
            count, _ = queries_for(client, "/hr/")
            assert count == OWN, reader
    assert "dashboards.warm_snapshots" in {spec.task for spec in PERIODIC_TASKS}


def test_an_answer_reads_only_its_part_and_parts_read_together_agree(world):
    """The snapshot is kept as its parts, written together: the organisation's numbers
    come back without the heatmap and the install plans (about 1 MB each at 10,000
    people), and if any part asked for has gone from the cache, every part is worked
    out afresh — parts read together never come from two computations."""
    from zoneinfo import ZoneInfo

    from django.core.cache import cache

    berlin = ZoneInfo("Europe/Berlin")

    def read(*names):
        return snapshots.organisation_parts(*names, weeks=4, tz=berlin)

    def adherence(health):
        return health.numbers.adherence

    def drop(*names):  # as the cache may let parts go
        cache.delete_many(
            [snapshots._key("organisation", n, 4, str(berlin), NOW.isoformat()) for n in names]  # noqa: SLF001
        )

    with time_machine.travel(NOW, tick=False):
        first = read("health", "heatmap")
        assert snapshots.organisation(weeks=4, tz=berlin).heatmap == first["heatmap"]
        # Raj's missed 1:1 is logged held after all, inside the slot.
        CoachingSession.objects.filter(status=SessionStatus.MISSED).update(
            status=SessionStatus.HELD, held_at=days_ago(3), missed_at=None
        )
        # The heatmap and the install plans gone, the numbers still come from the
        # cache alone, as of the slot: an answer reads only its own part.
        drop("heatmap", "rollout")
        with CaptureQueriesContext(connection) as queries:
            kept = read("health")
        assert len(queries) == 0 and adherence(kept["health"]) == adherence(first["health"])
        # Asked for a part that is gone, every part is worked out afresh together: the
        # numbers read afterwards agree with the new heatmap.
        again = read("heatmap")
        assert again["heatmap"] != first["heatmap"]
        assert adherence(read("health")["health"]) == 0.9 != adherence(first["health"])


def test_warming_several_zones_works_out_what_they_share_once(world):
    """The window's numbers, every team's, the attention list and the head counts are
    the same in every time zone: beat's warming works them out once for all zones,
    and each zone's snapshot is the one it would have computed alone."""
    from zoneinfo import ZoneInfo

    from django.core.cache import cache

    org = world.org
    org.admin.time_zone = "America/Chicago"
    org.admin.save(update_fields=["time_zone"])
    zones = [ZoneInfo("America/Chicago"), ZoneInfo("Europe/Berlin")]
    with time_machine.travel(NOW + timedelta(seconds=20), tick=False):
        with CaptureQueriesContext(connection) as one_zone:
            snapshots.organisation(weeks=snapshots.DEFAULT_WEEKS, tz=zones[0])
        alone = {}
        for tz in zones:  # each computed on its own, then forgotten
            cache.clear()
            alone[tz] = snapshots.organisation(weeks=snapshots.DEFAULT_WEEKS, tz=tz)
        cache.clear()
        with CaptureQueriesContext(connection) as warming:
            assert snapshots.warm() == ["America/Chicago", "Europe/Berlin"]
        shared = snapshots.zone_free(weeks=snapshots.DEFAULT_WEEKS)
        for tz in zones:
            warmed = snapshots.organisation(weeks=snapshots.DEFAULT_WEEKS, tz=tz)
            assert warmed == alone[tz], tz
            assert warmed.attention == shared.attention and warmed.people == shared.people
    # Two zones cost one zone's queries plus the second zone's own: its calendar
    # weeks (the organisation's and every team's) and its install plans.
    with (
        time_machine.travel(NOW + timedelta(seconds=20), tick=False),
        CaptureQueriesContext(connection) as zone_free,
    ):
        snapshots.zone_free(weeks=snapshots.DEFAULT_WEEKS)
    own = len(one_zone) - len(zone_free)
    assert len(warming) == 1 + len(zone_free) + 2 * own  # 1: the readers' time zones
    assert len(zone_free) > own > 0


# --- One computation a slot: readers meanwhile get the slot before -----------------


def computing_elsewhere(*what) -> None:
    """As another process does while it computes a slot (beat, at the start of each)."""
    from django.core.cache import cache

    cache.add(snapshots._key(*what), True, timeout=snapshots.COMPUTING_SECONDS)  # noqa: SLF001


def log_raj_held():
    CoachingSession.objects.filter(status=SessionStatus.MISSED).update(
        status=SessionStatus.HELD, held_at=days_ago(3), missed_at=None
    )


def test_while_another_process_computes_the_slot_readers_get_the_slot_before(client, world):
    """Beat is computing 13:05's snapshot: HR's page, its downloads and the API answer
    from 13:00's at once, and say so, instead of each computing 13:05's again; once
    13:05's is there (or nobody is computing it), it is what they read."""
    from zoneinfo import ZoneInfo

    client.force_login(world.org.hr)
    team = world.team_a.pk
    with time_machine.travel(NOW + timedelta(minutes=1), tick=False):
        assert "70%</span>" in client.get("/hr/", {"weeks": 4}).content.decode()
        client.get(f"/hr/teams/{team}/", {"weeks": 4})
        log_raj_held()
    later = NOW + timedelta(minutes=5, seconds=10)
    slot = (later - timedelta(seconds=10)).isoformat()
    berlin = str(ZoneInfo("Europe/Berlin"))
    with time_machine.travel(later, tick=False):
        computing_elsewhere("organisation-computing", 4, berlin, slot)
        computing_elsewhere("team-computing", team, 4, berlin, slot)
        count, page = queries_for(client, "/hr/", weeks=4)
        assert count == OWN  # the reader's own: nothing computed
        assert "As of 13:00" in page and "70%</span>" in page
        download = client.get("/hr/export/metrics.csv", {"weeks": 4})
        assert "organisation-metrics-2026-03-18-1300.csv" in download["Content-Disposition"]
        assert list(csv.reader(io.StringIO(download.content.decode())))[1][2] == "70%"
        answer = client.get("/api/v1/health/organisation/", {"weeks": 4}).json()
        assert answer["window"]["until"].startswith("2026-03-18T13:00")  # in Berlin
        _, team_page = queries_for(client, f"/hr/teams/{team}/", weeks=4)
        assert "As of 13:00" in team_page
        team_download = client.get(f"/hr/teams/{team}/export/metrics.csv", {"weeks": 4})
        assert "-1300.csv" in team_download["Content-Disposition"]

        from django.core.cache import cache

        cache.clear()  # 13:05's computation done elsewhere and… gone: nobody computing
        page = client.get("/hr/", {"weeks": 4}).content.decode()
    assert "As of 13:05" in page and "90%</span>" in page


def test_with_nothing_earlier_kept_a_reader_computes_the_slot_itself(client, world):
    from zoneinfo import ZoneInfo

    client.force_login(world.org.hr)
    with time_machine.travel(NOW + timedelta(minutes=1), tick=False):
        computing_elsewhere(
            "organisation-computing", 4, str(ZoneInfo("Europe/Berlin")), NOW.isoformat()
        )
        page = client.get("/hr/", {"weeks": 4}).content.decode()
    assert "As of 13:00" in page and "70%</span>" in page


def test_a_computation_that_fails_leaves_the_slot_to_the_next_reader(world, monkeypatch):
    from zoneinfo import ZoneInfo

    from django.core.cache import cache

    from dashboards import org

    berlin = ZoneInfo("Europe/Berlin")

    def broken(**_):
        raise RuntimeError("database went away")

    with time_machine.travel(NOW, tick=False):
        with monkeypatch.context() as patch:
            patch.setattr(org, "organisation_health", broken)
            with pytest.raises(RuntimeError):
                snapshots.organisation_parts("health", weeks=4, tz=berlin)
        computing = snapshots._key("organisation-computing", 4, str(berlin), NOW.isoformat())  # noqa: SLF001
        assert cache.get(computing) is None
        assert snapshots.organisation_parts("health", weeks=4, tz=berlin)["as_of"] == NOW


def test_the_default_window_s_first_minute_is_left_to_beat(client, world):
    """Beat warms the default window as each slot starts: a reader in the slot's first
    minute reads the slot before rather than compute beside it; beat's own warming
    computes; past the first minute a reader computes the slot if beat has not."""
    client.force_login(world.org.hr)
    with time_machine.travel(NOW + timedelta(minutes=1), tick=False):
        assert "As of 13:00" in client.get("/hr/").content.decode()
        log_raj_held()
    with time_machine.travel(NOW + timedelta(minutes=5, seconds=30), tick=False):
        count, page = queries_for(client, "/hr/")
        assert count == OWN and "As of 13:00" in page  # nothing computed beside beat
        warm_snapshots.delay().get()
        assert "As of 13:05" in client.get("/hr/").content.decode()
    with time_machine.travel(NOW + timedelta(minutes=11), tick=False):  # beat missed 13:10
        assert "As of 13:10" in client.get("/hr/").content.decode()
