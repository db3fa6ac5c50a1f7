"""Skills across the organisation (dashboards/org_skills.py, `/hr/skills/`, the API and
the CSV): per current focus area and calendar month in the reader's time zone, the
average of the coaches' and peers' scores on its criteria for the people it is for,
beside their self-assessments — worked out by hand below. Calibrations and other
criteria never count; a team's focus area counts its members only (the lead aside);
a month over fewer than five people, or an area for fewer than five, shows nothing;
the cost is eight queries whatever the size. HR and programme admins only (the
authorization matrix holds the 404s)."""

import csv
import io
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from dashboards.org_skills import month_starts, organisation_skills
from people.models import AuditEvent
from people.services_teams import team_create, team_member_add
from scorecards import services as scorecards
from scorecards.services import CriterionSpec
from tests.support.dashboards_team import score
from tests.support.factories import FocusAreaFactory, RecordedCallFactory, UserFactory

pytestmark = pytest.mark.django_db
TODAY = datetime(2026, 3, 18, 12, 0, tzinfo=UTC)  # a Wednesday; Berlin is UTC+1
BERLIN = ZoneInfo("Europe/Berlin")
JSON = {"HTTP_ACCEPT": "application/json"}
CRITERIA = [
    CriterionSpec("Open questions", "Asks open questions first."),
    CriterionSpec("Listening", "Plays the buyer's words back."),
    CriterionSpec("Pricing", "Names the price plainly."),
]


def scored(coach, rep, template, when, *, coach_gave=None, own=None, close=True):
    """A call of `rep`'s scored at `when`: by their coach and/or by themselves; the
    coach then closes the round (`close`), which a round must be — or every rater
    done — before any of it counts."""
    with time_machine.travel(when, tick=False):
        call = RecordedCallFactory(person=rep, call_date=when.date())
        scoring = scorecards.coach_scoring_open(actor=coach, work=call, template=template)
        if own:
            score(rep, scoring, own)
        if coach_gave:
            score(coach, scoring, coach_gave)
        if close:
            scorecards.round_close(actor=coach, scoring=scoring)
    return scoring


@pytest.fixture
def world(org):
    """Mia coaches six reps. Template A, B, C (scale 1–4); the organisation-wide focus
    area "Ask first" measures A and B.

    February (Berlin): reps 0–4 self-assess A3 B3 C1 and are scored A2 B1 C4, then
    rep 0 again A4 B3 (C4): others (2+1)×5 + 4+3 = 22 over 12 → 1.83, self 3.
    March: reps 0–3 scored A3 B3 — four people: too few to show.
    Calibration of rep 5's call in February, all 1s by two raters: never counted."""
    with time_machine.travel(datetime(2025, 12, 1, tzinfo=UTC), tick=False):
        reps = [UserFactory(display_name=f"Rep {n}", manager=org.manager) for n in range(6)]
        template = scorecards.template_create(actor=org.admin, name="Discovery", criteria=CRITERIA)
        a, b, _ = (c.criterion for c in template.versions.get().criteria.order_by("position"))
        area = FocusAreaFactory(name="Ask first", starts_on=date(2026, 2, 1), ends_on=None)
        area.criteria.set([a, b])
    feb = datetime(2026, 2, 10, 9, tzinfo=UTC)
    for n, rep in enumerate(reps[:5]):
        scored(org.manager, rep, template, feb + timedelta(hours=n), own=[3, 3, 1],
               coach_gave=[2, 1, 4])  # fmt: skip
    scored(org.manager, reps[0], template, feb + timedelta(days=1), coach_gave=[4, 3, 4])
    for n, rep in enumerate(reps[:4]):
        scored(org.manager, rep, template, datetime(2026, 3, 3 + n, 9, tzinfo=UTC),
               coach_gave=[3, 3, 4])  # fmt: skip
    with time_machine.travel(feb, tick=False):
        call = RecordedCallFactory(person=reps[5], call_date=feb.date())
        calibration = scorecards.calibration_open(
            actor=org.admin, work=call, template=template, raters=[org.manager, org.head],
            title="February calibration",
        )  # fmt: skip
        for rater in (org.manager, org.head):
            score(rater, calibration, [1, 1, 1])
    return type("World", (), {"org": org, "reps": reps, "template": template, "area": area})


def skills_of(tz=BERLIN):
    with time_machine.travel(TODAY, tick=False):
        return organisation_skills(today=TODAY.astimezone(tz).date(), tz=tz)


def months_of(found, name="Ask first"):
    area = next(a for a in found.areas if a.area.name == name)
    return area, {m.month: m for m in area.months}


def test_six_calendar_months_ending_with_this_one():
    assert month_starts(date(2026, 3, 18)) == [
        date(2025, 10, 1), date(2025, 11, 1), date(2025, 12, 1),
        date(2026, 1, 1), date(2026, 2, 1), date(2026, 3, 1),
    ]  # fmt: skip


def test_a_months_averages_worked_out_by_hand(world):
    area, months = months_of(skills_of())
    assert not area.suppressed and area.scale_max == 4 and area.teams == []
    feb, mar = months[date(2026, 2, 1)], months[date(2026, 3, 1)]
    assert (feb.people, feb.others, feb.self_people, feb.self, feb.gap) == (5, 1.83, 5, 3.0, 1.17)
    assert (mar.people, mar.others, mar.self_people, mar.self) == (4, None, 0, None)
    assert months[date(2026, 1, 1)].people == 0
    assert area.change is None  # one month shown: nothing to compare


def test_change_runs_from_the_first_shown_month_to_the_last(world):
    rep = UserFactory(display_name="Rep 6", manager=world.org.manager)
    scored(world.org.manager, rep, world.template, datetime(2026, 3, 12, 9, tzinfo=UTC),
           coach_gave=[4, 4, 1])  # fmt: skip
    area, months = months_of(skills_of())
    # March: four reps A3 B3 and Rep 6 A4 B4 → 32 over 10.
    assert months[date(2026, 3, 1)].others == 3.2
    assert (area.change.first, area.change.last, area.change.points) == (
        date(2026, 2, 1),
        date(2026, 3, 1),
        1.37,
    )


def test_a_round_still_being_scored_counts_only_once_it_is_over(world):
    """Rep 6's coach scored in March but Rep 6 has not yet: nothing of it counts —
    the March month stays the four reps' — until Rep 6 scores too."""
    rep = UserFactory(display_name="Rep 6", manager=world.org.manager)
    when = datetime(2026, 3, 12, 9, tzinfo=UTC)
    scoring = scored(world.org.manager, rep, world.template, when, coach_gave=[4, 4, 1],
                     close=False)  # fmt: skip
    _, months = months_of(skills_of())
    assert (months[date(2026, 3, 1)].people, months[date(2026, 3, 1)].self_people) == (4, 0)
    with time_machine.travel(when + timedelta(hours=1), tick=False):
        score(rep, scoring, [2, 2, 2])
    _, months = months_of(skills_of())
    assert (months[date(2026, 3, 1)].people, months[date(2026, 3, 1)].self_people) == (5, 1)
    assert months[date(2026, 3, 1)].others == 3.2


def test_the_month_is_the_readers(world):
    """A score given at 23:30 UTC on 28 February is March in Berlin, February in UTC."""
    rep = UserFactory(display_name="Rep 6", manager=world.org.manager)
    scored(world.org.manager, rep, world.template, datetime(2026, 2, 28, 23, 30, tzinfo=UTC),
           coach_gave=[4, 4, 1])  # fmt: skip
    _, berlin = months_of(skills_of(BERLIN))
    _, utc = months_of(skills_of(UTC))
    assert (berlin[date(2026, 2, 1)].people, berlin[date(2026, 3, 1)].people) == (5, 5)
    assert (utc[date(2026, 2, 1)].people, utc[date(2026, 3, 1)].people) == (6, 4)


def test_a_teams_focus_area_counts_its_members_only_and_hides_under_five(world):
    """ "Reach the buyer" is Team A's: reps 0–3 and Mia, its lead, who does not count —
    four people, so nothing shows. With rep 4 in the team, five: February shows the
    four members scored then (reps 0–3), too few; add rep 5's — not a member — and
    nothing changes."""
    org, reps = world.org, world.reps
    with time_machine.travel(datetime(2025, 12, 1, tzinfo=UTC), tick=False):
        team = team_create(name="Team A", lead=org.manager)
        for rep in reps[:4]:
            team_member_add(team=team, person=rep)
        area = FocusAreaFactory(name="Reach the buyer", starts_on=date(2026, 1, 1), ends_on=None)
        area.teams.set([team])
        area.criteria.set(list(world.area.criteria.all()))
    found, _ = months_of(skills_of(), "Reach the buyer")
    assert (found.people, found.suppressed, found.months) == (4, True, [])
    with time_machine.travel(datetime(2025, 12, 2, tzinfo=UTC), tick=False):
        team_member_add(team=team, person=reps[4])
    found, months = months_of(skills_of(), "Reach the buyer")
    assert (found.people, found.suppressed, [t.name for t in found.teams]) == (5, False, ["Team A"])
    assert (months[date(2026, 2, 1)].people, months[date(2026, 2, 1)].others) == (5, 1.83)
    assert skills_of().areas[0].area.name == "Ask first"  # the organisation's first


def test_no_current_focus_area_with_criteria_no_areas(org):
    FocusAreaFactory(name="Without criteria", starts_on=date(2026, 1, 1), ends_on=None)
    FocusAreaFactory(name="Over", starts_on=date(2025, 1, 1), ends_on=date(2025, 12, 31))
    assert skills_of().areas == []


def test_the_page_shows_the_numbers_and_says_what_it_hides(client, world):
    client.force_login(world.org.hr)
    with time_machine.travel(TODAY, tick=False):
        body = client.get("/hr/skills/").content.decode()
    assert "<h1>Skills across the organisation</h1>" in body
    assert "For everyone" in body and "on a scale of 1 to 4" in body
    assert "<td>5</td><td>1.83</td><td>3</td><td>+1.17</td>" in body
    assert 'Feb 2026 <span class="muted small">focus from 1 Feb</span>' in body  # its start
    assert '<td>4</td><td><span class="muted small">too few to show</span></td>' in body
    assert 'role="img"' in body  # the chart
    for rep in world.reps:
        assert rep.display_name not in body


def test_the_page_without_focus_areas_says_how_to_start(client, org):
    client.force_login(org.admin)
    body = client.get("/hr/skills/").content.decode()
    assert "No current focus area names scorecard criteria" in body
    assert "/programme/focus-areas/" in body


def test_the_api_gives_the_same_numbers(client, world):
    client.force_login(world.org.admin)
    with time_machine.travel(TODAY, tick=False):
        data = client.get("/api/v1/health/skills/", **JSON).json()
    assert datetime.fromisoformat(data["as_of"]) == TODAY
    assert data["months"][0] == "2025-10-01" and data["months"][-1] == "2026-03-01"
    area = data["areas"][0]
    assert (area["name"], area["teams"], area["suppressed"], area["change"]) == (
        "Ask first",
        [],
        False,
        None,
    )
    feb, mar = area["months"][4], area["months"][5]
    assert feb == {"month": "2026-02-01", "people": 5, "others": 1.83, "self_people": 5,
                   "self": 3.0, "gap": 1.17}  # fmt: skip
    assert (mar["people"], mar["others"]) == (4, None)


def test_the_csv_matches_the_page_and_is_audited(client, world):
    client.force_login(world.org.hr)
    with time_machine.travel(TODAY, tick=False):
        response = client.get("/hr/skills/export.csv")
    assert response["Content-Disposition"] == (
        'attachment; filename="skills-organisation-2026-03-18-1300.csv"'
    )
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:4] == ["focus area", "for", "people", "month"]
    by_month = {row[3]: row[4:] for row in rows[1:]}
    assert by_month["2026-02"] == ["5", "1.83", "5", "3.0"]
    assert by_month["2026-03"] == ["4", "too few to show", "0", ""]
    event = AuditEvent.objects.get(verb="dashboards.export")
    assert (event.actor, event.data) == (world.org.hr, {"table": "skills", "rows": 6})


def test_seven_queries_or_eight_with_a_teams_area_whatever_the_size(world):
    """Seven for organisation-wide areas alone (the last, the 1:1s of those scored in
    two months, for the lift); one more (how many people each team's
    area is for) once a team has one — then the same for one such area or two, and for
    ten people more or fifty."""

    def cost():
        with CaptureQueriesContext(connection) as q:
            skills_of()
        return len(q)

    def grow(team, n):
        january = datetime(2026, 1, 5, 9, tzinfo=UTC)
        for k in range(n):
            person = UserFactory(manager=world.org.manager)
            with time_machine.travel(datetime(2025, 12, 1, tzinfo=UTC), tick=False):
                team_member_add(team=team, person=person)
            when = january + timedelta(hours=k)
            scored(world.org.manager, person, world.template, when, coach_gave=[2, 2, 2])

    costs = [cost()]
    with time_machine.travel(datetime(2025, 12, 1, tzinfo=UTC), tick=False):
        team = team_create(name="Big team", lead=world.org.manager)
        second = FocusAreaFactory(name="Second", starts_on=date(2026, 1, 1), ends_on=None)
        second.teams.set([team])
        second.criteria.set(list(world.area.criteria.all()))
    grow(team, 10)
    costs.append(cost())
    with time_machine.travel(datetime(2025, 12, 1, tzinfo=UTC), tick=False):
        third = FocusAreaFactory(name="Third", starts_on=date(2026, 1, 1), ends_on=None)
        third.teams.set([team])
        third.criteria.set(list(world.area.criteria.all()))
    grow(team, 40)
    costs.append(cost())
    assert costs == [7, 8, 8]
    assert [a.people for a in skills_of().areas[1:]] == [50, 50]


@pytest.mark.parametrize(
    ("reader", "path", "pinned"),
    [
        ("hr", "/hr/skills/", 11),  # and the header's unread count
        ("hr", "/api/v1/health/skills/", 10),
        ("head", "/team/skills/", 11),
        ("head", "/api/v1/dashboards/skills/", 10),
    ],
)
def test_the_page_costs_the_same_for_few_or_many(client, world, reader, path, pinned):
    """Pinned: the three every signed-in request sends and `organisation_skills`' seven."""

    def cost():
        cache.clear()  # the slot's numbers are kept: work them out again
        client.force_login(getattr(world.org, reader))
        with time_machine.travel(TODAY, tick=False), CaptureQueriesContext(connection) as q:
            assert client.get(path).status_code == 200
        return len(q)

    small = cost()
    for _ in range(20):
        UserFactory(manager=world.org.manager)
    assert (small, cost()) == (pinned, pinned)


def test_the_numbers_are_kept_for_their_slot_and_exact_as_of_its_start(client, world):
    """Worked out once a five-minute slot, counting the scores submitted before it
    started, and kept: a score given at 12:02 shows from the 12:05 slot — even if the
    12:00 slot's numbers must be worked out again — and the page, the API and the CSV
    of one slot agree."""
    client.force_login(world.org.hr)

    def march_people(at):
        with time_machine.travel(at, tick=False):
            data = client.get("/api/v1/health/skills/", **JSON).json()
        assert datetime.fromisoformat(data["as_of"]) == at.replace(minute=at.minute // 5 * 5)
        return data["areas"][0]["months"][5]["people"]

    assert march_people(TODAY + timedelta(minutes=1)) == 4
    rep = UserFactory(display_name="Rep 6", manager=world.org.manager)
    scored(world.org.manager, rep, world.template, TODAY + timedelta(minutes=2),
           coach_gave=[4, 4, 1])  # fmt: skip
    with time_machine.travel(TODAY + timedelta(minutes=3), tick=False):
        with CaptureQueriesContext(connection) as q:
            body = client.get("/hr/skills/").content.decode()
        # the session, the person, their roles, the header's unread count: nothing
        # worked out
        assert len(q) <= 4
    assert '<td>4</td><td><span class="muted small">too few' in body and "As of 13:00" in body
    cache.clear()
    assert march_people(TODAY + timedelta(minutes=4)) == 4  # as of 12:00, worked out again
    assert march_people(TODAY + timedelta(minutes=5)) == 5


def skills_below(client, reader):
    """The skills of the people below `reader`, on TODAY: the API's data and the page."""
    client.force_login(reader)
    with time_machine.travel(TODAY, tick=False):
        data = client.get("/api/v1/dashboards/skills/", **JSON).json()
        return data, client.get("/team/skills/").content.decode()


def test_a_manager_reads_the_people_below_them_only(client, world):
    """Omar scores Olga's call in February (A4 B4). Mia's view holds her six reps'
    February as before; the head's, everyone below her: six people, 30 over 14."""
    org = world.org
    scored(org.other_manager, org.other_rep, world.template,
           datetime(2026, 2, 12, 9, tzinfo=UTC), coach_gave=[4, 4, 1])  # fmt: skip
    seen = {}
    for reader in (org.manager, org.head, org.other_manager):
        data, body = skills_below(client, reader)
        area = data["areas"][0]
        february = area["months"][4] if area["months"] else {}
        seen[reader.display_name] = (area["people"], area["suppressed"],
                                     february.get("people"), february.get("others"))  # fmt: skip
        assert "<h1>Skills across the people you lead</h1>" in body
        assert "/hr/skills/export.csv" not in body and "/hr/skills/lift.csv" not in body
    assert seen == {
        "Mia Manager": (8, False, 5, 1.83),  # Rita, Pavel and the six reps
        "Hana Head": (13, False, 6, round(30 / 14, 2)),
        "Omar Other": (1, True, None, None),  # one person: too few to show
    }


def test_a_manager_sees_no_area_meant_for_none_of_their_people(client, world):
    """ "Ask first", the only current area, becomes Team B's (Olga, led by Omar): Omar
    and the head, above Olga, see it (too few to show); Mia, none of whose people it is
    for, gets no card "for the 0 people you lead" but is told why there is none. HR,
    who may fix its teams, still sees it."""
    org = world.org
    with time_machine.travel(datetime(2025, 12, 1, tzinfo=UTC), tick=False):
        team = team_create(name="Team B", lead=org.other_manager)
        team_member_add(team=team, person=org.other_rep)
        world.area.teams.set([team])
    shown = {}
    for reader in (org.manager, org.other_manager, org.head):
        data, body = skills_below(client, reader)
        shown[reader.display_name] = [(a["people"], a["suppressed"]) for a in data["areas"]]
        assert ('<h2 id="area-' in body) == bool(data["areas"])  # the page as the API
    assert shown == {"Mia Manager": [], "Omar Other": [(1, True)], "Hana Head": [(1, True)]}
    _, body = skills_below(client, org.manager)
    assert "No current focus area with scorecard criteria is for the people you lead" in body
    assert [a.people for a in skills_of().areas] == [1]  # HR's view keeps it


def test_my_team_links_to_the_managers_view(client, world):
    client.force_login(world.org.manager)
    assert 'href="/team/skills/"' in client.get("/team/").content.decode()


def test_cadence_health_and_the_programme_page_link_to_it(client, org):
    client.force_login(org.admin)
    for path in ("/hr/", "/programme/"):
        assert 'href="/hr/skills/"' in client.get(path).content.decode(), path
