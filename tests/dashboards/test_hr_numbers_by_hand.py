"""Every number of the cadence-health pages equals a hand count on the fixed
organisation of tests/support/dashboards_hr.py — on the page, through the API and in
the CSV exports — and what anyone wrote in a session never appears."""

import csv
import io
from datetime import timedelta

import pytest
import time_machine

from cadence.health import Scope, health
from tests.support.dashboards_hr import NOW, PLANTED, build
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db
WEEKS = "?weeks=4"


@pytest.fixture
def world(org):
    return build(org)


@pytest.fixture
def hr(client, org):
    client.force_login(org.hr)
    with time_machine.travel(NOW, tick=False):
        yield client


def page(client, path):
    response = client.get(path)
    assert response.status_code == 200
    body = response.content.decode()
    assert PLANTED not in body
    return body


def rows(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    text = b"".join(response.streaming_content if response.streaming else [response.content])
    assert PLANTED.encode() not in text
    return list(csv.reader(io.StringIO(text.decode())))


def test_the_fixture_matches_the_hand_count(world):
    got = health(Scope.organisation(), since=NOW - timedelta(weeks=4), until=NOW, now=NOW)
    assert (got.due, got.held, got.on_time, got.held_but_empty, got.missed, got.cancelled) == (
        10, 7, 6, 1, 2, 1,
    )  # fmt: skip
    assert (got.reps, got.covered, got.commitments_made, got.commitments_done) == (11, 4, 2, 1)


def test_the_overview_shows_each_metric_against_the_window_before(world, hr):
    body = page(hr, f"/hr/{WEEKS}")
    # Adherence 7/10 against 3/4; on time 6/7 against 3/3; coverage 4/11 against 3/11;
    # held but empty 1/7 against 0/3 (lower is better); commitments kept 1/2 against 1/1.
    for expected in (
        "70%</span>",
        "down 5 points from 75% — worse",
        "86%</span>",
        "down 14 points from 100% — worse",
        "36%</span>",
        "up 9 points from 27% — better",
        "14%</span>",
        "up 14 points from 0% — worse",
        "50%</span>",
        "down 50 points from 100% — worse",
        "Due sessions: 10 · held 7 · missed 2 · cancelled 1 · not yet logged 0.",
    ):
        assert expected in body, expected
    # Cancellations by reason, this window and the one before.
    assert '<th scope="row">Forecast or pipeline call</th><td>1</td><td>0</td>' in body
    assert '<th scope="row">Illness</th><td>0</td><td>1</td>' in body


def test_the_header_counts_each_active_person_once(world, org, hr):
    # Hana leads four, Mia five, Omar two: twelve people, three of them managers. Mia's
    # former report has left — neither counted, nor making anyone else count twice.
    UserFactory(manager=org.manager, is_active=False)
    body = page(hr, f"/hr/{WEEKS}")
    assert '<p class="meta">12 people · 3 managers · 2 teams</p>' in body


def test_the_heatmap_shows_each_teams_weeks_and_hides_a_team_under_five(world, hr):
    body = page(hr, f"/hr/{WEEKS}")
    assert "Teams below Hana Head" in body
    # Team A: Ruth's 1:1 (week of 23 Feb) held; Rita's held and Raj's missed (2 Mar);
    # three of five held with the review (9 Mar); nothing due yet this week. Over the
    # rolling window five of eight were held: 63%.
    team_a = body[body.index(">Team A</a>") :].split("</tr>")[0]
    cells = [cell.split(">", 1)[1].split("<")[0] for cell in team_a.split("<td")[1:]]
    assert cells == ["63%", "100%", "50%", "60%", ""]
    assert 'class="heat-none"' in team_a
    team_b = body[body.index(">Team B</a>") :].split("</tr>")[0]
    assert "too few to show" in team_b and "%" not in team_b


def test_the_attention_list_names_coaches_and_teams_never_the_people_coached(world, hr):
    body = page(hr, f"/hr/{WEEKS}")
    section = body[body.index("Needs attention") : body.index("Programme rollout")]
    # Raj's plan: missed twice in a row after a cancellation.
    assert "<strong>Mia Manager</strong>: 1 plan (1:1), the longest run 2" in section
    # Mia's direct reports with a held 1:1 in 14 days: 3 of 5 four weeks ago, 2 of 5 now.
    assert "<strong>Mia Manager</strong>: 60% → 40% of 5 people" in section
    # Team B never held a call review; team A held one eight days ago.
    assert ">Team B</a>: never held" in section and ">Team A</a>" not in section
    raj = world.reps[3]
    assert raj.display_name not in section


def test_a_teams_page_shows_its_own_numbers(world, hr):
    body = page(hr, f"/hr/teams/{world.team_a.pk}/{WEEKS}")
    # Team A: 8 due (the review and its members' 1:1s), 5 held; before: 4 due, 3 held.
    assert "63%</span>" in body and "down 12 points from 75% — worse" in body
    assert "Due sessions: 8 · held 5 · missed 2 · cancelled 1 · not yet logged 0." in body
    small = page(hr, f"/hr/teams/{world.team_b.pk}/{WEEKS}")
    assert "Too few to show." in small and "Due sessions" not in small


def test_the_api_gives_the_same_numbers(world, hr):
    org = hr.get(f"/api/v1/health/organisation/{WEEKS}").json()
    assert org["people"] == 11 and org["suppressed"] is False
    assert org["counts"]["due"] == 10 and org["counts"]["held"] == 7
    adherence = next(m for m in org["metrics"] if m["key"] == "adherence")
    assert adherence == {
        "key": "adherence",
        "label": "Adherence",
        "definition": "held ÷ due",
        "now": pytest.approx(0.7),
        "before": pytest.approx(0.75),
        "change": -5,
        "verdict": "worse",
    }
    assert [(w["due"], w["held"]) for w in org["weeks"]] == [(1, 1), (2, 1), (7, 5), (0, 0)]

    listed = hr.get(f"/api/v1/health/teams/{WEEKS}").json()
    assert listed["count"] == 2 and listed["next"] is None
    teams = {row["team"]["name"]: row for row in listed["results"]}
    assert teams["Team A"]["adherence"] == pytest.approx(5 / 8)
    assert [w["adherence"] for w in teams["Team A"]["weeks"]] == [1.0, 0.5, 0.6, None]
    assert teams["Team B"] == {
        "team": {"id": world.team_b.pk, "name": "Team B"},
        "lead": {"id": world.org.other_manager.pk, "display_name": "Omar Other"},
        "head": {"id": world.org.head.pk, "display_name": "Hana Head"},
        "people": 2,
        "suppressed": True,
        "adherence": None,
        "weeks": None,
    }
    small = hr.get(f"/api/v1/health/teams/{world.team_b.pk}/{WEEKS}").json()
    assert small["suppressed"] is True
    assert small["counts"] is None and small["metrics"] == [] and small["weeks"] is None

    attention = hr.get(f"/api/v1/health/attention/{WEEKS}").json()
    runs = attention["missed_runs"]
    assert [(r["coach"]["display_name"], r["plans"], r["longest"]) for r in runs] == [
        ("Mia Manager", 1, 2)
    ]
    assert attention["coverage_drops"][0]["points"] == 20
    assert [q["team"]["name"] for q in attention["quiet_teams"]] == ["Team B"]
    assert PLANTED not in str([org, teams, small, attention])


def test_the_csv_exports_give_the_same_numbers(world, hr):
    metrics = rows(hr, f"/hr/export/metrics.csv{WEEKS}")
    assert metrics[0] == [
        "metric",
        "definition",
        "this window",
        "previous window",
        "change (points)",
    ]
    assert metrics[1] == ["Adherence", "held ÷ due", "70%", "75%", "-5"]
    assert ["Coverage", "people with a held 1:1 in the last 14 days", "36%", "27%", "9"] in metrics
    heat = rows(hr, f"/hr/export/heatmap.csv{WEEKS}")
    assert heat[0][:4] == ["manager of managers", "team", "people", "adherence (window)"]
    assert heat[1] == ["Hana Head", "Team A", "5", "63%", "100%", "50%", "60%", "—"]
    assert heat[2] == ["Hana Head", "Team B", "too few to show", "too few to show", "", "", "", ""]
    attention = rows(hr, f"/hr/export/attention.csv{WEEKS}")
    assert ["no call review", "Team B", "never held", ""] in attention
    weeks = rows(hr, f"/hr/teams/{world.team_a.pk}/export/weeks.csv{WEEKS}")
    assert weeks[1:] == [
        ["2026-02-23", "1", "1", "0", "0", "100%"],
        ["2026-03-02", "2", "1", "1", "0", "50%"],
        ["2026-03-09", "5", "3", "1", "1", "60%"],
        ["2026-03-16", "0", "0", "0", "0", "—"],
    ]
    small = rows(hr, f"/hr/teams/{world.team_b.pk}/export/metrics.csv{WEEKS}")
    assert small == [["note", "people"], ["too few to show", "2"]]
