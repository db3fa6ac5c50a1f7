"""Every number on Mia's "My team" — the page and the API — equals a count made by
hand from the fixed data set in tests/support/dashboards_team.py (time-travelled to
Wednesday 18 March 2026, 12:00 UTC): this week, who has gone without a 1:1, streaks, commitments,
requests waiting on her, each person's skill trend and self-vs-others gap, and her
own coaching over the last 8 weeks."""

import pytest

from tests.support.dashboards_team import NOW, api, page, squash, world  # noqa: F401 - `world` is a fixture

pytestmark = pytest.mark.django_db


@pytest.fixture
def mine(client, world):  # noqa: F811
    client.force_login(world.org.manager)
    return squash(page(client, "/team/"))


@pytest.fixture
def data(client, world):  # noqa: F811
    client.force_login(world.org.manager)
    return api(client, "/api/v1/dashboards/team/")


def test_this_week_counts_the_sessions_she_leads_monday_to_monday(mine, data):
    # Monday 16 to Sunday 22 March in Berlin: s4 held, s5 missed, s6 cancelled
    # (forecast call), s7 started and not logged, s8 to come, s9 cancelled ahead.
    for label, n in [
        ("Held", 1),
        ("Due, still to log", 1),
        ("Missed", 1),
        ("Cancelled", 1),
        ("Still to come", 1),
    ]:
        assert f"{label} {n} " in mine, label
    assert "4 due so far" in mine and "of 6 you lead this week; 1 cancelled ahead" in mine
    assert "Cancelled: forecast or pipeline call 1." in mine
    week = data["this_week"]
    assert {k: week[k] for k in ("due", "held", "to_log", "missed", "cancelled", "to_come")} == {
        "due": 4,
        "held": 1,
        "to_log": 1,
        "missed": 1,
        "cancelled": 1,
        "to_come": 1,
    }
    assert week["cancelled_ahead"] == 1
    assert week["cancellations"] == [{"reason": "Forecast or pipeline call", "count": 1}]
    assert week["starts"] == "2026-03-16T00:00:00+01:00"
    assert week["ends"] == "2026-03-23T00:00:00+01:00"


def week_ids(data):
    return [(s["id"], s["state"]) for s in data["this_week"]["needs_action"]]


def test_what_needs_her_this_week_links_to_log_or_reschedule(client, world):  # noqa: F811
    client.force_login(world.org.manager)
    html = page(client, "/team/")
    assert f'href="/sessions/{world.s7.pk}/">log it</a>' in html
    assert 'href="/cadence/">reschedule</a>' in html
    data = api(client, "/api/v1/dashboards/team/")
    # In time order: s5 (missed: reschedule), s7 (started, not logged).
    assert week_ids(data) == [(world.s5.pk, "missed"), (world.s7.pk, "to_log")]


def test_pavel_has_gone_14_days_without_a_1_1_and_rita_has_not(mine, data, world):  # noqa: F811
    assert "Not had a 1:1 in 14 days 1 " in mine
    assert "Pavel Peer — last held 26 Feb" in mine
    people = {p["display_name"]: p for p in data["people"]}
    assert people["Pavel Peer"]["not_covered"] and not people["Rita Rep"]["not_covered"]
    assert people["Pavel Peer"]["last_held_at"].startswith("2026-02-26T13:00:00+01:00")
    assert people["Rita Rep"]["last_held_at"].startswith("2026-03-16T11:00:00+01:00")


def test_held_in_a_row_and_commitments_per_person(data):
    people = {p["display_name"]: p for p in data["people"]}
    rita, pavel = people["Rita Rep"], people["Pavel Peer"]
    # Rita: s4 and s3 held, then s2 cancelled. Pavel: s5 missed.
    assert (rita["held_in_a_row"], pavel["held_in_a_row"]) == (2, 0)
    # Rita: c2 (overdue since 16 March) and c4 open; Pavel: c3, overdue since 8 March.
    assert (rita["open_commitments"], rita["overdue_commitments"]) == (2, 1)
    assert (pavel["open_commitments"], pavel["overdue_commitments"]) == (1, 1)
    assert rita["goal"] == "Ask before telling"


def test_the_commitments_column_says_how_many_of_them_are_overdue(client, world):  # noqa: F811
    client.force_login(world.org.manager)
    html = page(client, "/team/")

    def cell(name):
        row = html[html.index(f">{name}</a>") :]
        return squash(row.split('data-label="Open commitments">')[1].split("</td>")[0]).strip()

    # Never "2 1 overdue": the count, then the overdue among them in brackets.
    assert (cell("Rita Rep"), cell("Pavel Peer")) == ("2 (1 overdue)", "1 (overdue)")


def test_commitments_in_total_and_the_longest_overdue_first(mine, data, world):  # noqa: F811
    assert "Open 3 Overdue 2 " in mine
    assert mine.index("Pavel Peer : Pavel's overdue promise") < mine.index(
        "Rita Rep : Rita's overdue promise"
    )
    assert "Rita's open promise" not in mine  # not overdue: counted, not listed
    commitments = data["commitments"]
    assert (commitments["open"], commitments["overdue"]) == (3, 2)
    assert [c["id"] for c in commitments["overdue_oldest"]] == [world.c3.pk, world.c2.pk]


def test_requests_waiting_on_her_are_counted_and_listed(mine, data):
    assert "Feedback requests waiting on me 2 " in mine
    panel = mine.split("Feedback requests waiting on me 2 ", 1)[1]
    # Omar's (due 17 March, overdue) first, then Rita's; the answered one is gone.
    assert panel.index("Omar Other") < panel.index("Rita Rep — developmental · by 21 Mar")
    assert "overdue" in panel.split("Omar Other")[1][:60]
    # "Waiting for you" has them too, first thing, in the same order.
    waiting = mine.split("Waiting for you", 1)[1].split("This week", 1)[0]
    assert waiting.index("Answer Omar Other’s feedback request, by 17 Mar, overdue") < (
        waiting.index("Answer Rita Rep’s feedback request, by 21 Mar")
    )
    inbox = data["inbox"]
    assert inbox["count"] == 2
    assert [w["requester"]["display_name"] for w in inbox["waiting"]] == ["Omar Other", "Rita Rep"]


def test_each_persons_skill_trend_on_the_focus_area_and_the_gap(mine, data):
    # Mia sees every submitted scorecard about Rita. Focus criteria A and B only:
    #   Jan: others (2 + 1) / 2 = 1.5, self (3 + 3) / 2 = 3
    #   Feb: others (2 + 3) / 2 = 2.5, no self
    #   Mar: others (3 + 3) / 2 = 3, self (4 + 3) / 2 = 3.5 → gap +0.5
    rita = next(p for p in data["people"] if p["display_name"] == "Rita Rep")
    skill = rita["skill"]
    assert skill["focus_area"]["name"] == "Ask first" and skill["scale_max"] == 4
    assert [(m["month"], m["others"], m["self"]) for m in skill["months"]] == [
        ("2025-10-01", None, None),
        ("2025-11-01", None, None),
        ("2025-12-01", None, None),
        ("2026-01-01", 1.5, 3.0),
        ("2026-02-01", 2.5, None),
        ("2026-03-01", 3.0, 3.5),
    ]
    assert (skill["latest"], skill["gap"], skill["gap_month"]) == (3.0, 0.5, "2026-03-01")
    pavel = next(p for p in data["people"] if p["display_name"] == "Pavel Peer")
    assert pavel["skill"]["latest"] is None and pavel["skill"]["gap"] is None
    # The page: the sparkline's number, the gap, and the table behind the sparklines.
    assert "3 / 4 Ask first" in mine and "+0.5 (Mar)" in mine
    assert "Rita Rep (4) — — — 1.5 2.5 3 +0.5" in mine
    assert "no scores in 6 months Ask first" in mine  # Pavel


def test_her_own_coaching_over_the_last_8_weeks(mine, data):
    # Due: s1 s2 s10 s3 s4 s5 s6 s7 = 8; held s1 s3 s4 (none moved; s4 empty);
    # missed s10 s5; cancelled s2 s6 (forecast); s7 unresolved. Commitments made in
    # her sessions since 21 January: c1 c2 c3 c4, one done. Rita covered, Pavel not.
    coaching = data["coaching"]
    assert coaching["counts"] == {
        "due": 8,
        "held": 3,
        "on_time": 3,
        "held_but_empty": 1,
        "missed": 2,
        "cancelled": 2,
        "unresolved": 1,
        "reps": 2,
        "covered": 1,
        "commitments_made": 4,
        "commitments_done": 1,
        "cancellations": {"forecast_call": 2},
    }
    assert coaching["adherence"] == pytest.approx(3 / 8)
    assert coaching["on_time_rate"] == 1.0
    assert coaching["held_but_empty_rate"] == pytest.approx(1 / 3)
    assert coaching["close_rate"] == pytest.approx(1 / 4)
    assert coaching["coverage"] == 0.5
    # Pavel's plan: s7 unresolved is skipped, s5 and s10 missed, s1 held → a run of 2.
    assert coaching["plans_with_consecutive_misses"] == 1
    assert coaching["longest_run_of_misses"] == 2
    for text in (
        "Adherence 38% 3 held of 8 due",
        "On time 100% 3 of 3 held",
        "Held but empty 33% 1 of 3 held",
        "Commitments done 25% 1 of 4 made",
        "1:1 in the last 14 days 50% 1 of 2 direct reports",
        "Plans with misses in a row 1 longest run 2",
        "2 missed, 2 cancelled (forecast or pipeline call 2), 1 still to log",
    ):
        assert text in mine, text


def test_her_adherence_week_by_week(data):
    # Calendar weeks in Berlin: s1 (26 Feb) held; s2 cancelled and s10 missed (week of
    # 2 March); s3 held (9 March); s4 held, s5 missed, s6 cancelled, s7 to log.
    weeks = [(w["week_start"], w["held"], w["due"]) for w in data["coaching"]["weeks"]]
    assert weeks == [
        ("2026-01-26", 0, 0),
        ("2026-02-02", 0, 0),
        ("2026-02-09", 0, 0),
        ("2026-02-16", 0, 0),
        ("2026-02-23", 1, 1),
        ("2026-03-02", 0, 2),
        ("2026-03-09", 1, 1),
        ("2026-03-16", 1, 4),
    ]


def test_a_shorter_window_changes_the_coaching_numbers_only(client, world):  # noqa: F811
    client.force_login(world.org.manager)
    data = api(client, "/api/v1/dashboards/team/?weeks=4")
    # Since 18 February: the same sessions (s1 is 20 days old).
    assert data["window"]["weeks"] == 4 and data["coaching"]["counts"]["due"] == 8
    assert len(data["coaching"]["weeks"]) == 4
    assert data["this_week"]["due"] == 4
    assert NOW.isoformat()[:10] == data["window"]["until"][:10]


def test_from_above_in_another_zone_the_page_says_whose_zone_is_whose(client, world):  # noqa: F811
    """Hana in New York reads Mia's page: "this week" is Mia's, Monday to Sunday in
    Berlin; every time is Hana's own, and the page says so where they meet."""
    head = world.org.head
    head.time_zone = "America/New_York"
    head.save(update_fields=["time_zone"])
    client.force_login(head)
    above = squash(page(client, f"/team/managers/{world.org.manager.pk}/"))
    assert (
        "Times are in your time zone (America/New_York); “this week” is Mia's, "
        "Monday to Sunday in Europe/Berlin."
    ) in above
    assert "This week Mon 16 Mar – Sun 22 Mar · Mia's week, Europe/Berlin" in above
    # Rita's next 1:1, 10:00 UTC, is 06:00 in New York, and labelled as the reader's.
    assert "Next 1:1 your time " in above and "Rita Rep Team A Thu 19 Mar, 06:00 " in above
    # In the same zone as the manager there is nothing to tell apart.
    head.time_zone = "Europe/Berlin"
    head.save(update_fields=["time_zone"])
    same = squash(page(client, f"/team/managers/{world.org.manager.pk}/"))
    assert "Times are in your time zone" not in same and "your time" not in same


def test_the_weeks_states_are_the_sessions_own_wording():
    from coaching.models import SessionState
    from dashboards.team import WEEK_STATES

    for state in SessionState:
        if state != SessionState.TO_COME:  # the panel counts those "Still to come"
            assert WEEK_STATES[state.value] == state.label
