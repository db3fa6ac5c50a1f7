"""Peer pairs in the browser: "Peers" in the main nav; forming a pair (programme
admins and leads), with each person's latest focus-area average where the former may
see scores; accepting, declining and leaving; notes, habits and check-ins on the
pair page. Bad input is a 400 with the reason on the page and nothing saved; the
lists cost the same queries whatever the number of pairs."""

from datetime import timedelta
from html import unescape

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from peers.models import Habit, HabitCheckIn, PairNote, PeerPair
from peers.services import habit_add, pair_accept, pair_leave
from scorecards import services as scorecard_services
from scorecards.services import CriterionSpec, ScoreInput
from tests.support.factories import FocusAreaFactory, UserFactory
from tests.support.peers_pairs import active_pair, form_pair, with_notes

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return unescape(response.content.decode())


def body(people, **extra):
    return {
        "members": [m.pk for m in people],
        "rationale": "complementary",
        "rationale_note": "Rita leads discovery; Pavel is learning it",
        "weekday": "1",
        "local_time": "10:00",
        "time_zone": "",
        "interval_weeks": "2",
        "duration_minutes": "30",
        "agreement_text": "Confidentiality, candour, respect.",
        **extra,
    }


def test_peers_is_in_the_main_nav_and_lists_my_pairs_by_status(client, org):
    waiting = form_pair(org.manager, org.rep, org.peer)
    ended = active_pair(org.admin, org.rep, org.other_rep)
    pair_leave(pair=ended, actor=org.other_rep)
    client.force_login(org.rep)
    assert 'href="/peers/"' in text(client.get("/me/"))
    page = text(client.get("/peers/"))
    assert "Waiting for your answer" in page and f'action="/peers/{waiting.pk}/accept/"' in page
    assert f'action="/peers/{waiting.pk}/decline/"' in page and "Confidentiality" in page
    assert "Ended" in page and f'href="/peers/{ended.pk}/"' in page
    assert "Form a pair" not in page and "All pairs" not in page


def test_leads_and_admins_see_form_a_pair_and_admins_the_overview(client, org):
    for who, form, overview in (("manager", True, False), ("admin", True, True)):
        client.force_login(getattr(org, who))
        page = text(client.get("/peers/"))
        assert ('href="/peers/new/"' in page) is form
        assert ('href="/peers/overview/"' in page) is overview


def test_a_lead_forms_a_pair_from_the_page(client, org):
    focus = FocusAreaFactory(name="Discovery")
    client.force_login(org.manager)
    page = text(client.get("/peers/new/"))
    assert "Rita Rep" in page and "Pavel Peer" in page and "Olga Outsider" not in page
    assert "Confidentiality: what we say" in page  # the template agreement, to adjust
    response = client.post("/peers/new/", body([org.rep, org.peer], focus_area=focus.pk))
    pair = PeerPair.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/peers/{pair.pk}/"
    assert (pair.created_by, pair.focus_area, pair.time_zone) == (
        org.manager,
        focus,
        "Europe/Berlin",
    )
    assert pair.agreement_text == "Confidentiality, candour, respect."
    assert {m.person for m in pair.members.all()} == {org.rep, org.peer}


def test_the_new_pair_page_is_404_for_people_who_do_not_form_pairs(client, org):
    for who in ("rep", "hr", "other_rep"):
        client.force_login(getattr(org, who))
        assert client.get("/peers/new/").status_code == 404
        assert client.post("/peers/new/", body([org.rep, org.peer])).status_code == 404
    assert not PeerPair.objects.exists()


def _scored(org, focus, person, ratings):
    template = scorecard_services.template_create(
        actor=org.admin,
        name=f"Discovery for {person.pk}",
        criteria=[CriterionSpec("Open questions", "Asks first."), CriterionSpec("Next", "Dated.")],
    )
    focus.criteria.add(*template.criteria.all())
    call = scorecard_services.recorded_call_create(
        actor=org.manager,
        person=person,
        title="Call",
        call_date=timezone.localdate(),
        url="https://calls.example.com/1",
    )
    scoring = scorecard_services.coach_scoring_open(actor=org.manager, work=call, template=template)
    criteria = list(scoring.version.criteria.order_by("position"))
    scorecard_services.scorecard_save(
        actor=org.manager,
        scoring=scoring,
        scores=[
            ScoreInput(criterion=c.pk, rating=r) for c, r in zip(criteria, ratings, strict=True)
        ],
        submit=True,
    )


def test_the_form_shows_each_persons_latest_focus_area_average_where_scores_are_seen(client, org):
    focus = FocusAreaFactory(name="Discovery")
    _scored(org, focus, org.rep, [4, 3])
    _scored(org, focus, org.peer, [2, 1])
    UserFactory(display_name="Nia New", manager=org.manager)
    client.force_login(org.manager)
    page = text(client.get(f"/peers/new/?focus_area={focus.pk}"))
    assert "Rita Rep — 3.5 from coaches and peers" in page
    assert "Pavel Peer — 1.5 from coaches and peers" in page
    assert "Nia New — no scores you can see on this focus area" in page
    plain = text(client.get("/peers/new/"))
    assert "from coaches and peers" not in plain
    assert client.get("/peers/new/?focus_area=abc").status_code == 200
    # A programme admin sees aggregates only, never someone's scores.
    client.force_login(org.admin)
    page = text(client.get(f"/peers/new/?focus_area={focus.pk}"))
    assert "Rita Rep — no scores you can see" in page and "3.5" not in page


def test_in_a_large_organisation_the_search_shows_the_same_averages(client, org, settings):
    settings.PEOPLE_PICKER_LIST_UP_TO = 1  # Mia's two reps are many
    focus = FocusAreaFactory(name="Discovery")
    _scored(org, focus, org.rep, [4, 3])
    client.force_login(org.manager)
    page = text(client.get(f"/peers/new/?focus_area={focus.pk}"))
    assert 'name="members_search"' in page
    # Before a search only Mia's own team is offered (her reports), as the source labels them.
    assert "Your team:" in page and "Rita Rep — 3.5 from coaches and peers" in page
    assert "Olga Outsider" not in page
    assert f"focus_area={focus.pk}" in page  # the search asks for the same averages
    search = {"name": "members", "id": "pair_members", "multiple": "1", "members_search": "r"}
    found = text(
        client.get(
            "/people/pick/pairable/", {**search, "focus_area": focus.pk, "members": org.peer.pk}
        )
    )
    assert "Pavel Peer — no scores you can see on this focus area" in found  # chosen
    assert "Rita Rep — 3.5 from coaches and peers" in found
    assert "Olga Outsider" not in found  # not on a team Mia leads, nor below her
    plain = text(client.get("/people/pick/pairable/", search))
    assert "Rita Rep" in plain and "from coaches and peers" not in plain
    # A pair formed from the search is formed as from the list.
    response = client.post("/peers/new/", body([org.rep, org.peer], focus_area=focus.pk))
    assert response.status_code == 302 and PeerPair.objects.count() == 1


@pytest.mark.parametrize("extra", [0, 12])
def test_the_pair_search_costs_the_same_whatever_it_finds(
    client, org, extra, django_assert_num_queries
):
    focus = FocusAreaFactory(name="Discovery")
    _scored(org, focus, org.rep, [4, 3])
    for n in range(extra):
        UserFactory(display_name=f"Rami Newcomer {n}", manager=org.manager)
    client.force_login(org.manager)
    search = {"name": "members", "id": "pair_members", "multiple": "1", "members_search": "r"}
    # session, user; may form pairs and whom (roles, people in reach, each asked by
    # the search's rule and the source's); the chosen, the matches; who asked for a
    # peer, the focus area and the scores shown — the same at both sizes
    with django_assert_num_queries(11):
        found = text(
            client.get(
                "/people/pick/pairable/",
                {**search, "focus_area": focus.pk, "members": org.peer.pk},
            )
        )
    assert "Rita Rep — 3.5 from coaches and peers" in found


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("one", "pick two or three"),
        ("four", "pick two or three"),
        ("twice", "Pick each person once."),
        ("deactivated", "no longer has an active account"),
        ("not_below", "You can pair people on a team you lead or below you; not Olga Outsider"),
        ("unknown", "Pick people from the list."),
        ("interval_0", "Meet every 1 to 4 weeks."),
        ("interval_5", "Meet every 1 to 4 weeks."),
        ("no_rationale", "Say why these people"),
        ("bad_time", "Enter a valid time."),
    ],
)
def test_bad_input_is_a_400_with_the_reason_and_nothing_saved(client, org, case, message):
    extra = [UserFactory(manager=org.manager), UserFactory(manager=org.manager)]
    gone = extra[0]
    gone.is_active = False
    gone.save(update_fields=["is_active"])
    data = {
        "one": body([org.rep]),
        "four": body([org.rep, org.peer, *extra]),
        "twice": body([org.rep], members=[org.rep.pk, org.rep.pk, org.peer.pk]),
        "deactivated": body([org.rep, gone]),
        "not_below": body([org.rep, org.other_rep]),
        "unknown": body([org.rep], members=[org.rep.pk, 999999]),
        "interval_0": body([org.rep, org.peer], interval_weeks="0"),
        "interval_5": body([org.rep, org.peer], interval_weeks="5"),
        "no_rationale": body([org.rep, org.peer], rationale=""),
        "bad_time": body([org.rep, org.peer], local_time="25:99"),
    }[case]
    client.force_login(org.manager)
    response = client.post("/peers/new/", data)
    assert response.status_code == 400
    assert message in text(response)
    assert not PeerPair.objects.exists()


def test_members_accept_and_the_pair_page_shows_the_next_session(client, org):
    pair = form_pair(org.manager, org.rep, org.peer)
    client.force_login(org.rep)
    page = text(client.get(f"/peers/{pair.pk}/"))
    assert "Accept the agreement" in page and "not answered yet" in page
    assert client.post(f"/peers/{pair.pk}/accept/").status_code == 302
    again = client.post(f"/peers/{pair.pk}/accept/")
    assert again.status_code == 400 and "You already accepted" in text(again)
    pair_accept(pair=pair, actor=org.peer)
    from cadence.engine import occurrences_generate

    occurrences_generate()
    page = text(client.get(f"/peers/{pair.pk}/"))
    session = pair.plans.get().occurrences.order_by("slot_start").first().session
    assert f'href="/sessions/{session.pk}/"' in page and "Every 2 weeks on Tuesday" in page
    assert "Leave the pair" in page


def test_declining_from_peers_with_a_reason_redirects_and_tells_nobody(client, org):
    pair = form_pair(org.manager, org.rep, org.peer)
    client.force_login(org.peer)
    response = client.post(f"/peers/{pair.pk}/decline/", {"reason": "ZQREASON my quarter"})
    assert response.status_code == 302 and response["Location"] == "/peers/"
    pair.refresh_from_db()
    assert pair.status == "ended"
    for who in ("rep", "peer", "manager"):
        client.force_login(getattr(org, who))
        page = text(client.get(f"/peers/{pair.pk}/"))
        assert "declined" in page and "ZQREASON" not in page


def test_notes_habits_and_check_ins_on_the_pair_page(client, org):
    pair = active_pair(org.manager, org.rep, org.peer)
    client.force_login(org.rep)
    assert client.post(f"/peers/{pair.pk}/notes/", {"text": "Pause after price"}).status_code == 302
    assert (
        client.post(f"/peers/{pair.pk}/habits/", {"text": "Two open questions"}).status_code == 302
    )
    habit = Habit.objects.get()
    own = client.post(f"/peers/habits/{habit.pk}/check-in/", {"outcome": "kept"})
    assert own.status_code == 400 and "Your partner checks your habits in" in text(own)
    client.force_login(org.peer)
    page = text(client.get(f"/peers/{pair.pk}/"))
    assert "Pause after price" in page and "Two open questions" in page
    assert f'action="/peers/habits/{habit.pk}/check-in/"' in page
    done = client.post(f"/peers/habits/{habit.pk}/check-in/", {"outcome": "partly", "note": "1/2"})
    assert done.status_code == 302
    page = text(client.get(f"/peers/{pair.pk}/"))
    assert "Partly" in page and "1/2" in page
    bad = client.post(f"/peers/habits/{habit.pk}/check-in/", {"outcome": "perfect"})
    assert bad.status_code == 400 and "Select a valid choice" in text(bad)
    assert HabitCheckIn.objects.count() == 1
    client.force_login(org.rep)
    assert client.post(f"/peers/habits/{habit.pk}/retire/").status_code == 302


def test_each_habit_button_shows_only_to_whom_the_service_takes_it_from(client, org):
    pair = active_pair(org.manager, org.rep, org.peer)
    habit = habit_add(pair=pair, actor=org.rep, text="Two open questions")
    retire, check_in = f"/peers/habits/{habit.pk}/retire/", f"/peers/habits/{habit.pk}/check-in/"
    client.force_login(org.rep)
    page = text(client.get(f"/peers/{pair.pk}/"))
    assert f'action="{retire}"' in page and f'action="{check_in}"' not in page
    client.force_login(org.peer)
    page = text(client.get(f"/peers/{pair.pk}/"))
    assert f'action="{check_in}"' in page and f'action="{retire}"' not in page
    refused = client.post(retire)
    assert refused.status_code == 400 and "Only the person who keeps a habit" in text(refused)
    habit.refresh_from_db()
    assert habit.retired_at is None


def test_end_and_the_agreement_are_offered_only_to_whom_may_change_them(client, org):
    pair = form_pair(org.manager, org.rep, org.peer)
    client.force_login(org.rep)
    page = text(client.get(f"/peers/{pair.pk}/"))
    assert "Adjust the agreement" not in page and f'action="/peers/{pair.pk}/end/"' not in page
    refused = client.post(f"/peers/{pair.pk}/agreement/", {"agreement_text": "Mine"})
    assert refused.status_code == 400 and "Only whoever formed the pair" in text(refused)
    client.force_login(org.manager)
    page = text(client.get(f"/peers/{pair.pk}/"))
    assert "Adjust the agreement" in page and f'action="/peers/{pair.pk}/end/"' in page


def test_a_note_by_someone_not_in_the_pair_is_a_400_and_not_saved(client, org):
    pair = active_pair(org.manager, org.rep, org.peer)
    client.force_login(org.manager)  # formed it, sees it, is not in it
    response = client.post(f"/peers/{pair.pk}/notes/", {"text": "How is it going?"})
    assert response.status_code == 400
    assert "Only the pair's members can write its notes." in text(response)
    empty = client.force_login(org.rep) or client.post(f"/peers/{pair.pk}/notes/", {"text": " "})
    assert empty.status_code == 400 and "This field is required." in text(empty)
    assert not PairNote.objects.exists()


def test_the_creator_adjusts_the_agreement_until_someone_accepted(client, org):
    pair = form_pair(org.manager, org.rep, org.peer)
    client.force_login(org.manager)
    assert "Adjust the agreement" in text(client.get(f"/peers/{pair.pk}/"))
    ok = client.post(f"/peers/{pair.pk}/agreement/", {"agreement_text": "Candour first."})
    assert ok.status_code == 302
    pair_accept(pair=pair, actor=org.rep)
    late = client.post(f"/peers/{pair.pk}/agreement/", {"agreement_text": "Changed"})
    assert late.status_code == 400 and "already accepted" in text(late)
    pair.refresh_from_db()
    assert pair.agreement_text == "Candour first."


def test_leaving_a_trio_from_the_page(client, org):
    third = UserFactory(manager=org.manager)
    trio = active_pair(org.manager, org.rep, org.peer, third)
    client.force_login(third)
    response = client.post(f"/peers/{trio.pk}/leave/", {"reason": "x" * 501})
    assert response.status_code == 400 and "at most 500 characters" in text(response)
    assert client.post(f"/peers/{trio.pk}/leave/", {"reason": ""}).status_code == 302
    trio.refresh_from_db()
    assert trio.status == "active" and trio.members.get(person=third).left_at is not None


def test_the_creator_or_an_admin_ends_a_pair_a_member_cannot(client, org):
    pair = active_pair(org.manager, org.rep, org.peer)
    client.force_login(org.rep)
    refused = client.post(f"/peers/{pair.pk}/end/")
    assert refused.status_code == 400 and "members leave it instead" in text(refused)
    client.force_login(org.admin)
    assert client.post(f"/peers/{pair.pk}/end/").status_code == 302
    pair.refresh_from_db()
    assert pair.status == "ended"
    again = client.post(f"/peers/{pair.pk}/end/")
    assert again.status_code == 400 and "This pair has ended." in text(again)


def test_a_partner_checks_a_habit_in_for_a_session_of_the_pair(client, org):
    from datetime import UTC, datetime

    import time_machine

    from cadence.engine import occurrences_generate

    with time_machine.travel(datetime(2026, 3, 2, 8, 0, tzinfo=UTC), tick=False):
        pair = active_pair(org.manager, org.rep, org.peer)
        occurrences_generate()
        habit = habit_add(pair=pair, actor=org.rep, text="Pause after the price")
    session = pair.plans.get().occurrences.order_by("slot_start").first().session
    with time_machine.travel(session.scheduled_end, tick=False):
        client.force_login(org.peer)
        page = text(client.get(f"/peers/{pair.pk}/"))
        assert f'<option value="{session.pk}">Tue 03 Mar 2026, 10:00</option>' in page
        data = {"outcome": "kept", "session": session.pk}
        assert client.post(f"/peers/habits/{habit.pk}/check-in/", data).status_code == 302
        again = client.post(f"/peers/habits/{habit.pk}/check-in/", data)
        assert again.status_code == 400
        assert "already checked in for that session" in text(again)
    assert HabitCheckIn.objects.get().session == session


# --- Query counts ---------------------------------------------------------------------------------


def _queries(client, path):
    client.get(path)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path).status_code == 200
    return len(captured)


def _more_pairs(org, n):
    """`n` more pairs around the rep and the admin, with notes, habits, check-ins."""
    for _ in range(n):
        other = UserFactory(manager=org.head)
        pair = active_pair(org.admin, org.rep, other)
        with_notes(pair, org.rep, other)
        habit = habit_add(pair=pair, actor=other, text="A habit")
        from peers.services import habit_check_in

        habit_check_in(habit=habit, actor=org.rep, outcome="kept")
        leaving = UserFactory(manager=org.head)
        ended = form_pair(org.admin, other, leaving)
        from peers.services import pair_decline

        pair_decline(pair=ended, actor=leaving, reason="No time")


@pytest.mark.parametrize("who", ["rep", "admin"])
def test_peers_costs_the_same_queries_whatever_the_number_of_pairs(client, org, who):
    client.force_login(getattr(org, who))
    _more_pairs(org, 1)
    few = _queries(client, "/peers/")
    _more_pairs(org, 4)
    # session + user, roles, may-form check (none for an admin), pairs, members.
    assert _queries(client, "/peers/") == few


def test_the_overview_costs_the_same_queries_whatever_the_number_of_pairs(client, org):
    client.force_login(org.admin)
    _more_pairs(org, 1)
    few = _queries(client, "/peers/overview/")
    _more_pairs(org, 4)
    # session + user, roles, how many pairs in each state, the count, pairs with who
    # formed them, members with their people.
    assert _queries(client, "/peers/overview/") == few


def test_the_pair_page_costs_the_same_queries_whatever_it_holds(client, org):
    pair = active_pair(org.manager, org.rep, org.peer)
    client.force_login(org.rep)
    habit_add(pair=pair, actor=org.peer, text="First")
    few = _queries(client, f"/peers/{pair.pk}/")
    with_notes(pair, org.rep, org.peer, org.rep)
    from peers.services import habit_check_in

    for i in range(2):
        more = habit_add(pair=pair, actor=org.peer, text=f"Habit {i}")
        habit_check_in(habit=more, actor=org.rep, outcome="kept")
        habit_add(pair=pair, actor=org.rep, text=f"Mine {i}")
    # session + user, the pair (next session as subqueries), members, roles, notes,
    # habits, their recent check-ins (one windowed query), the sessions to check in to.
    assert _queries(client, f"/peers/{pair.pk}/") == few


def test_nothing_ages_wrongly_a_pair_formed_long_ago_still_shows(client, org):
    pair = form_pair(org.manager, org.rep, org.peer)
    PeerPair.objects.filter(pk=pair.pk).update(created_at=timezone.now() - timedelta(days=400))
    client.force_login(org.rep)
    assert client.get(f"/peers/{pair.pk}/").status_code == 200


def test_the_pair_page_says_once_who_reads_the_notes(client, org):
    pair = active_pair(org.manager, org.rep, org.peer)
    client.force_login(org.rep)
    page = text(client.get(f"/peers/{pair.pk}/"))
    assert page.count("Private to the pair") == 1
    assert 'aria-describedby="pair-notes-privacy"' in page


def test_a_members_next_session_is_the_same_on_the_pair_page_and_on_my_coaching(client, org):
    """A session the pair booked between themselves, before the plan's first, is their
    next one on both pages; whoever formed the pair still reads the plan's."""
    from cadence.engine import occurrences_generate
    from coaching.services import peer_session_create

    pair = active_pair(org.manager, org.rep, org.peer)
    occurrences_generate()
    planned = pair.plans.get().occurrences.order_by("slot_start").first().session
    now = timezone.now()
    booked = peer_session_create(
        actor=org.rep, peer=org.peer, start=now + (planned.scheduled_start - now) / 2
    )
    for member in (org.rep, org.peer):
        client.force_login(member)
        assert f'href="/sessions/{booked.pk}/"' in text(client.get("/me/"))
        page = text(client.get(f"/peers/{pair.pk}/"))
        assert f'Next session: <a href="/sessions/{booked.pk}/"' in page
    client.force_login(org.manager)
    page = text(client.get(f"/peers/{pair.pk}/"))
    assert "Next session:" in page and f"{booked.pk}/" not in page
