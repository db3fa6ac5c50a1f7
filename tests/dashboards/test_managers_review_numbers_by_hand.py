"""The monthly manager review on Hana's "My team" (she manages managers): one row per
manager below her with numbers counted by hand from the fixed data set in
tests/support/dashboards_team.py; the same rows from the API; and each row opening
that manager's own dashboard read-only, with the same numbers and without their inbox."""

import pytest

from scorecards.models import RoundContext, ScoringRound
from scorecards.services import round_decline
from tests.support.dashboards_team import api, page, squash, world  # noqa: F401 - `world` is a fixture

pytestmark = pytest.mark.django_db


def row_text(html: str, name: str) -> str:
    """The text of the managers-below table row that starts with `name`."""
    table = html.split('<table class="managers">')[1].split("</table>")[0]
    row = next(r for r in table.split("<tr>") if f">{name}</a>" in r)
    return squash(row).strip()


def test_each_manager_below_gets_a_row_with_their_coaching_numbers(client, world):  # noqa: F811
    client.force_login(world.org.head)
    html = page(client, "/team/")
    assert "Managers below you 2 " in squash(html)
    # Mia: as on her own page (8 due, 3 held, ...). Omar: Olga's 1:1 on 8 March held,
    # on 15 March missed; Olga covered; no commitments; no plan.
    assert row_text(html, "Mia Manager").startswith("Mia Manager")
    assert "38% 3/8 100% 33% 1 25% 1/4 50% 1/2 1 longest 2 2 forecast or pipeline call 2" in (
        row_text(html, "Mia Manager")
    )
    assert "50% 1/2 100% 0% 0 — 0/0 100% 1/1 0 0" in row_text(html, "Omar Other")
    # Nobody has rated either manager's sessions: no usefulness count has started.
    for name in ("Mia Manager", "Omar Other"):
        assert row_text(html, name).endswith("nothing counted yet"), name
    assert f'href="/team/managers/{world.org.manager.pk}/"' in html
    assert f'href="/team/managers/{world.org.other_manager.pk}/"' in html


def test_the_api_gives_the_same_rows(client, world):  # noqa: F811
    client.force_login(world.org.head)
    data = api(client, "/api/v1/dashboards/managers/")
    assert data["window"]["weeks"] == 8
    rows = {r["manager"]["display_name"]: r for r in data["managers"]}
    assert list(rows) == ["Mia Manager", "Omar Other"]
    omar = rows["Omar Other"]
    assert omar["counts"] == {
        "due": 2,
        "held": 1,
        "on_time": 1,
        "held_but_empty": 0,
        "missed": 1,
        "cancelled": 0,
        "unresolved": 0,
        "reps": 1,
        "covered": 1,
        "commitments_made": 0,
        "commitments_done": 0,
        "cancellations": {},
    }
    assert (omar["adherence"], omar["close_rate"], omar["coverage"]) == (0.5, None, 1.0)
    assert [(w["week_start"], w["held"], w["due"]) for w in omar["weeks"]][-3:] == [
        ("2026-03-02", 1, 1),  # Sunday 8 March
        ("2026-03-09", 0, 1),  # Sunday 15 March
        ("2026-03-16", 0, 0),
    ]
    mia = rows["Mia Manager"]
    assert (mia["counts"]["due"], mia["counts"]["held"], mia["plans_with_consecutive_misses"]) == (
        8,
        3,
        1,
    )
    # Numbers only, for the people above: no words, however many ratings.
    assert all(r["usefulness"]["comments"] == [] for r in rows.values())
    # The team endpoint of the head carries the same rows.
    mine = api(client, "/api/v1/dashboards/team/")
    assert mine["managers_below"] == data["managers"]


def test_her_own_coaching_row_counts_what_she_led(client, world):  # noqa: F811
    client.force_login(world.org.head)
    coaching = api(client, "/api/v1/dashboards/team/")["coaching"]
    # Hana led nothing; her direct reports (Mia, Omar, HR, the admin) had no 1:1.
    assert coaching["counts"]["due"] == 0 and coaching["adherence"] is None
    assert (coaching["counts"]["reps"], coaching["counts"]["covered"]) == (4, 0)


def test_a_managers_dashboard_read_from_above_has_the_same_numbers(client, world):  # noqa: F811
    org = world.org
    client.force_login(org.manager)
    own = api(client, "/api/v1/dashboards/team/")
    client.force_login(org.head)
    above = api(client, f"/api/v1/dashboards/team/{org.manager.pk}/")
    assert (own["own"], above["own"]) == (True, False)
    for key in ("this_week", "commitments", "coaching", "people_below", "teams_led"):
        assert above[key] == own[key], key

    # The skill trends are read as Hana may see them: she is above Rita, so the same —
    # but for February's call, which Mia scored and Rita has not: blind to Hana until
    # Rita scores or declines it.
    def without_skill(rows):
        return [{k: v for k, v in row.items() if k != "skill"} for row in rows]

    assert without_skill(above["people"]) == without_skill(own["people"])
    assert above["people"] != own["people"]
    waiting = ScoringRound.objects.filter(context=RoundContext.COACH, work__person=org.rep)
    waiting = waiting.exclude(scorecards__rater=org.rep).get()
    round_decline(actor=org.rep, scoring=waiting)
    client.force_login(org.manager)
    own = api(client, "/api/v1/dashboards/team/")
    client.force_login(org.head)
    above = api(client, f"/api/v1/dashboards/team/{org.manager.pk}/")
    assert above["people"] == own["people"]
    assert own["inbox"]["count"] == 2 and above["inbox"] is None
    html = squash(page(client, f"/team/managers/{org.manager.pk}/"))
    assert "Mia Manager's team" in html and "read-only" in html
    assert "Feedback requests waiting" not in html and "Omar Other" not in html
    assert "Adherence 38% 3 held of 8 due" in html
    assert "Plan a session" not in html and "log it" not in html


def test_my_people_links_a_manager_without_scores_to_their_peoples_skills(client, world):  # noqa: F811
    """Hana's direct reports are managers, scored on no call of their own: instead of
    "no scores", their row opens their dashboard, where their people's trends are."""
    client.force_login(world.org.head)
    people = page(client, "/team/").split('class="people team-people"')[1].split("</table>")[0]
    for manager in (world.org.manager, world.org.other_manager):
        link = f'<a href="/team/managers/{manager.pk}/">their people\'s skills</a>'
        assert link in people, manager
    client.force_login(world.org.manager)  # Mia's people are reps: their own trends
    assert "their people's skills" not in page(client, "/team/")
