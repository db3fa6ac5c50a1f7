"""Peer pairs through their services: formed by a programme admin or a lead for their
people, two or three active people who do not already meet; the agreement copied
from the template, editable until someone accepted; the pair starts when the last
member accepts; declining, leaving and ending; notes for current members only;
habits kept by their owner and checked in by the partner. Every refusal is a
ValidationError with the reason and nothing saved."""

from datetime import time

import pytest
from django.core.exceptions import ValidationError
from django.http import Http404

from core.errors import Forbidden
from peers.models import AgreementTemplate, Habit, HabitCheckIn, PairMember, PairNote, PeerPair
from peers.services import (
    MAX_ACTIVE_HABITS,
    habit_add,
    habit_check_in,
    habit_retire,
    pair_accept,
    pair_agreement_update,
    pair_decline,
    pair_end,
    pair_leave,
    pair_note_add,
)
from people.services_teams import team_create, team_member_add
from tests.support.factories import FocusAreaFactory, UserFactory
from tests.support.peers_pairs import active_pair, form_pair

pytestmark = pytest.mark.django_db


def forbidden(change, message):
    """A refusal of the person (`peers.rules`), not of the input: a 403 in the API."""
    with pytest.raises(Forbidden) as caught:
        change()
    assert message in caught.value.reason, caught.value.reason


def refused(change, message, field=None):
    with pytest.raises((ValidationError, Forbidden)) as caught:
        change()
    assert message in " ".join(caught.value.messages), caught.value.messages
    if field is not None:
        assert field in caught.value.message_dict
    return caught.value


# --- Forming -----------------------------------------------------------------------------------


def test_a_programme_admin_pairs_anyone_with_the_template_agreement(org):
    AgreementTemplate.objects.update(text="Confidentiality. Candour. Respect.")
    focus = FocusAreaFactory(name="Discovery")
    pair = form_pair(
        org.admin,
        org.rep,
        org.other_rep,
        focus_area=focus,
        rationale="similar",
        rationale_note="Both learning discovery",
    )
    assert pair.status == "forming" and pair.created_by == org.admin
    assert pair.agreement_text == "Confidentiality. Candour. Respect."
    assert (pair.time_zone, pair.duration_minutes, pair.interval_weeks) == ("Europe/Berlin", 30, 2)
    assert [m.person for m in pair.members.order_by("pk")] == [org.rep, org.other_rep]
    assert not pair.members.filter(accepted_at__isnull=False).exists()


def test_a_lead_pairs_people_below_them_or_on_a_team_they_lead(org):
    assert form_pair(org.manager, org.rep, org.peer).created_by == org.manager
    team = team_create(name="Omar's pod", lead=org.other_manager)
    team_member_add(team=team, person=org.rep)  # on Omar's team, reporting to Mia
    trio = form_pair(org.other_manager, org.rep, org.other_rep)
    assert {m.person for m in trio.members.all()} == {org.rep, org.other_rep}


def test_a_trio_is_possible_and_the_time_zone_defaults_to_the_first_person(org):
    org.rep.time_zone = "America/New_York"
    org.rep.save(update_fields=["time_zone"])
    third = UserFactory(manager=org.manager)
    trio = form_pair(org.manager, org.rep, org.peer, third, interval_weeks=1)
    assert trio.members.count() == 3 and trio.time_zone == "America/New_York"


@pytest.mark.parametrize(
    ("who", "field", "message"),
    [
        ("one", "members", "pick two or three"),
        ("four", "members", "pick two or three"),
        ("twice", "members", "Pick each person once."),
        ("deactivated", "members", "no longer has an active account"),
        ("not_below", "members", "on a team you lead or below you; not Olga Outsider"),
    ],
)
def test_bad_members_are_refused_with_the_reason_and_nothing_saved(org, who, field, message):
    extra = [UserFactory(manager=org.manager), UserFactory(manager=org.manager)]
    members = {
        "one": [org.rep],
        "four": [org.rep, org.peer, *extra],
        "twice": [org.rep, org.rep],
        "deactivated": [org.rep, extra[0]],
        "not_below": [org.rep, org.other_rep],
    }[who]
    if who == "deactivated":
        extra[0].is_active = False
        extra[0].save(update_fields=["is_active"])
    refused(lambda: form_pair(org.manager, *members), message, field)
    assert not PeerPair.objects.exists() and not PairMember.objects.exists()


@pytest.mark.parametrize(
    ("extra", "field", "message"),
    [
        ({"interval_weeks": 0}, "interval_weeks", "every 1 to 4 weeks"),
        ({"interval_weeks": 5}, "interval_weeks", "every 1 to 4 weeks"),
        ({"duration_minutes": 5}, "duration_minutes", "15 to 120 minutes"),
        ({"weekday": 7}, "weekday", "day of the week"),
        ({"time_zone": "Mars/Olympus"}, "time_zone", "time zone"),
        ({"rationale": "random"}, "rationale", "complementary or similar"),
        ({"rationale_note": "x" * 501}, "rationale_note", "500 characters"),
        ({"agreement_text": "   "}, "agreement_text", "agreement"),
    ],
)
def test_bad_pair_fields_are_refused_with_the_reason(org, extra, field, message):
    refused(lambda: form_pair(org.manager, org.rep, org.peer, **extra), message, field)
    assert not PeerPair.objects.exists()


def test_an_ended_focus_area_is_refused(org):
    from datetime import timedelta

    from django.utils import timezone

    old = FocusAreaFactory(
        starts_on=timezone.localdate() - timedelta(days=90),
        ends_on=timezone.localdate() - timedelta(days=1),
    )
    refused(
        lambda: form_pair(org.manager, org.rep, org.peer, focus_area=old),
        "current focus area",
        "focus_area",
    )


def test_reps_hr_and_people_outside_the_line_cannot_form_pairs(org):
    for actor in (org.rep, org.hr, org.other_manager):
        refused(lambda actor=actor: form_pair(actor, org.rep, org.peer), "on a team you lead")
    assert not PeerPair.objects.exists()


def test_two_people_who_already_meet_in_a_live_pair_are_not_paired_again(org):
    form_pair(org.manager, org.rep, org.peer)
    refused(
        lambda: form_pair(org.admin, org.peer, org.rep, UserFactory(manager=org.head)),
        "already meet in a pair",
    )
    assert PeerPair.objects.count() == 1


# --- The agreement and the start ---------------------------------------------------------------


def test_the_pair_starts_when_the_last_member_accepts(org):
    pair = form_pair(org.manager, org.rep, org.peer)
    pair_accept(pair=pair, actor=org.rep)
    pair.refresh_from_db()
    assert pair.status == "forming"
    pair_accept(pair=pair, actor=org.peer)
    pair.refresh_from_db()
    assert pair.status == "active" and pair.started_at is not None
    assert pair.plans.filter(ended_at__isnull=True).count() == 1


def test_accepting_twice_or_as_a_non_member_is_refused(org):
    pair = form_pair(org.manager, org.rep, org.peer)
    pair_accept(pair=pair, actor=org.rep)
    refused(lambda: pair_accept(pair=pair, actor=org.rep), "You already accepted")
    with pytest.raises(Http404):
        pair_accept(pair=pair, actor=org.other_rep)
    forbidden(lambda: pair_accept(pair=pair, actor=org.manager), "Only the pair's members")


def test_the_creator_edits_the_agreement_only_until_someone_accepted(org):
    pair = form_pair(org.manager, org.rep, org.peer)
    pair_agreement_update(pair=pair, actor=org.manager, text="Candour first.")
    forbidden(
        lambda: pair_agreement_update(pair=pair, actor=org.rep, text="Mine now"),
        "Only whoever formed the pair",
    )
    pair_accept(pair=pair, actor=org.rep)
    refused(
        lambda: pair_agreement_update(pair=pair, actor=org.manager, text="Changed"),
        "already accepted",
    )
    pair.refresh_from_db()
    assert pair.agreement_text == "Candour first."


def test_a_trio_starts_with_two_when_the_third_declines_after_the_others_accepted(org):
    third = UserFactory(manager=org.manager)
    trio = form_pair(org.manager, org.rep, org.peer, third)
    pair_accept(pair=trio, actor=org.rep)
    pair_accept(pair=trio, actor=org.peer)
    pair_decline(pair=trio, actor=third, reason="Too busy this quarter")
    trio.refresh_from_db()
    assert trio.status == "active"
    member = trio.members.get(person=third)
    assert member.left_at is not None and member.left_reason == "Too busy this quarter"


def test_declining_a_pair_of_two_ends_it_and_declining_needs_no_reason(org):
    pair = form_pair(org.manager, org.rep, org.peer)
    pair_decline(pair=pair, actor=org.peer)
    pair.refresh_from_db()
    assert pair.status == "ended" and pair.members.get(person=org.peer).left_reason == ""
    refused(lambda: pair_accept(pair=pair, actor=org.rep), "This pair has ended.")


def test_declining_an_active_pair_and_leaving_a_forming_one_are_refused(org):
    forming = form_pair(org.manager, org.rep, org.peer)
    refused(lambda: pair_leave(pair=forming, actor=org.rep), "decline it instead")
    active = active_pair(org.admin, org.other_rep, org.hr)
    refused(lambda: pair_decline(pair=active, actor=org.hr), "leave it instead")
    refused(
        lambda: pair_leave(pair=active, actor=org.hr, reason="x" * 501), "500 characters", "reason"
    )
    active.refresh_from_db()
    assert active.status == "active" and not active.members.filter(left_at__isnull=False)


def test_whoever_formed_it_or_an_admin_ends_a_pair_members_leave_instead(org):
    pair = active_pair(org.manager, org.rep, org.peer)
    forbidden(lambda: pair_end(pair=pair, actor=org.rep), "members leave it instead")
    with pytest.raises(Http404):
        pair_end(pair=pair, actor=org.hr)
    pair_end(pair=pair, actor=org.admin)
    pair.refresh_from_db()
    assert pair.status == "ended"
    refused(lambda: pair_end(pair=pair, actor=org.manager), "This pair has ended.")


# --- Notes, habits, check-ins ------------------------------------------------------------------


def test_only_current_members_write_notes(org):
    pair = active_pair(org.manager, org.rep, org.peer)
    pair_note_add(pair=pair, actor=org.rep, text="  We try the pause on Thursday.  ")
    assert PairNote.objects.get().text == "We try the pause on Thursday."
    forbidden(lambda: pair_note_add(pair=pair, actor=org.manager, text="x"), "Only the pair's")
    with pytest.raises(Http404):
        pair_note_add(pair=pair, actor=org.other_rep, text="x")
    refused(lambda: pair_note_add(pair=pair, actor=org.rep, text="  "), "Write the note", "text")
    trio = active_pair(org.admin, org.other_rep, org.hr, org.head)
    pair_leave(pair=trio, actor=org.head)
    forbidden(lambda: pair_note_add(pair=trio, actor=org.head, text="x"), "no longer in this pair")
    assert PairNote.objects.count() == 1


def test_a_member_who_left_reads_only_what_was_written_while_they_were_in(org):
    third = UserFactory(manager=org.manager)
    trio = active_pair(org.manager, org.rep, org.peer, third)
    pair_note_add(pair=trio, actor=org.rep, text="Before")
    pair_leave(pair=trio, actor=third)
    pair_note_add(pair=trio, actor=org.peer, text="After")
    seen = {
        p: set(PairNote.objects.visible_to(p).values_list("text", flat=True))
        for p in (org.rep, third, org.manager, org.admin, org.head)
    }
    assert seen[org.rep] == {"Before", "After"} and seen[third] == {"Before"}
    assert seen[org.manager] == seen[org.admin] == seen[org.head] == set()


def test_a_member_keeps_habits_and_the_partner_checks_them_in(org):
    pair = active_pair(org.manager, org.rep, org.peer)
    habit = habit_add(pair=pair, actor=org.rep, text="Two open questions before pitching")
    assert habit.owner == org.rep
    check = habit_check_in(habit=habit, actor=org.peer, outcome="partly", note="One of two")
    assert (check.checked_by, check.outcome, check.session) == (org.peer, "partly", None)
    forbidden(
        lambda: habit_check_in(habit=habit, actor=org.rep, outcome="kept"),
        "Your partner checks your habits in",
    )
    refused(
        lambda: habit_check_in(habit=habit, actor=org.peer, outcome="perfect"),
        "kept, partly or not yet",
        "outcome",
    )
    with pytest.raises(Http404):
        habit_check_in(habit=habit, actor=org.manager, outcome="kept")
    assert HabitCheckIn.objects.count() == 1
    forbidden(lambda: habit_retire(habit=habit, actor=org.peer), "Only the person who keeps")
    habit_retire(habit=habit, actor=org.rep)
    refused(lambda: habit_retire(habit=habit, actor=org.rep), "already retired")
    refused(
        lambda: habit_check_in(habit=habit, actor=org.peer, outcome="kept"), "This habit is retired"
    )


def test_habits_are_few_and_for_yourself(org):
    pair = active_pair(org.manager, org.rep, org.peer)
    for i in range(MAX_ACTIVE_HABITS):
        habit_add(pair=pair, actor=org.rep, text=f"Habit {i}")
    refused(lambda: habit_add(pair=pair, actor=org.rep, text="One more"), "at most 3 habits")
    refused(lambda: habit_add(pair=pair, actor=org.manager, text="For them"), "Only the pair's")
    refused(lambda: habit_add(pair=pair, actor=org.peer, text="x" * 301), "300 characters")
    assert Habit.objects.count() == MAX_ACTIVE_HABITS


def test_a_session_of_another_pair_cannot_carry_a_check_in(org):
    from tests.support.factories import one_on_one

    pair = active_pair(org.manager, org.rep, org.peer)
    habit = habit_add(pair=pair, actor=org.rep, text="Pause after the price")
    elsewhere = one_on_one(org.manager, org.peer)
    refused(
        lambda: habit_check_in(habit=habit, actor=org.peer, outcome="kept", session=elsewhere),
        "Pick one of this pair's sessions",
        "session",
    )
    assert not HabitCheckIn.objects.exists()


def test_local_time_is_kept_as_given(org):
    pair = form_pair(org.manager, org.rep, org.peer, local_time=time(16, 30), weekday=4)
    assert (pair.weekday, pair.local_time) == (4, time(16, 30))


def test_a_check_in_belongs_to_one_of_the_pairs_sessions_once(org):
    from datetime import UTC, datetime

    import time_machine

    from cadence.engine import occurrences_generate
    from coaching.models import CoachingSession

    with time_machine.travel(datetime(2026, 3, 2, 8, 0, tzinfo=UTC), tick=False):
        pair = active_pair(org.manager, org.rep, org.peer)
        occurrences_generate()
        first = CoachingSession.objects.filter(occurrence__plan__pair=pair).earliest(
            "scheduled_start"
        )
        habit = habit_add(pair=pair, actor=org.rep, text="Pause after the price")
    with time_machine.travel(first.scheduled_end, tick=False):
        check = habit_check_in(habit=habit, actor=org.peer, outcome="kept", session=first)
        assert check.session == first and check.checked_on.isoformat() == "2026-03-03"
        refused(
            lambda: habit_check_in(habit=habit, actor=org.peer, outcome="partly", session=first),
            "already checked in for that session",
            "session",
        )
    assert HabitCheckIn.objects.count() == 1
