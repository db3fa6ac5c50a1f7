"""Development goals: named by their owner (or written down by someone above them),
at most three at a time, closed as achieved or dropped, reopened; seen by the owner
and their management chain only; the newest active one leads the next 1:1."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.http import Http404
from django.utils import timezone

from coaching.models import MAX_ACTIVE_GOALS, Goal, GoalStatus
from coaching.selectors import goals_of
from coaching.selectors_goals import current_goal
from coaching.selectors_notes import notes_shown
from coaching.services import goal_close, goal_create, goal_reopen, goal_update, notes_save
from people.services_teams import team_create, team_member_add
from tests.support.factories import FocusAreaFactory, one_on_one


def make(owner, actor=None, **extra):
    return goal_create(
        owner=owner, actor=actor or owner, title=extra.pop("title", "Ask before telling"), **extra
    )


@pytest.mark.django_db
def test_a_person_names_their_own_goal_and_their_coach_can_write_one_down(org):
    mine = make(org.rep, success="Two open questions on every call")
    written = make(org.rep, actor=org.manager, title="Confirm next steps")
    skip_level = make(org.rep, actor=org.head, title="Multi-thread deals")
    assert {g.created_by for g in (mine, written, skip_level)} == {org.rep, org.manager, org.head}
    assert all(g.owner == org.rep and g.status == GoalStatus.ACTIVE for g in (mine, written))


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["peer", "other_manager", "hr", "admin"])
def test_nobody_else_sets_someones_goal(org, who):
    with pytest.raises(ValidationError) as refused:
        make(org.rep, actor=getattr(org, who))
    assert "yourself or for people below you" in str(refused.value)
    assert not Goal.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("title", "success", "field"),
    [
        ("", "", "title"),
        ("   ", "", "title"),
        ("x" * 201, "", "title"),
        ("Ok", "y" * 501, "success"),
    ],
)
def test_bad_text_is_refused_with_its_field_and_nothing_saved(org, title, success, field):
    with pytest.raises(ValidationError) as refused:
        make(org.rep, title=title, success=success)
    assert field in refused.value.message_dict
    assert not Goal.objects.exists()


@pytest.mark.django_db
def test_at_most_three_goals_are_active_and_closing_one_makes_room(org):
    goals = [make(org.rep, title=f"Goal {i}") for i in range(MAX_ACTIVE_GOALS)]
    with pytest.raises(ValidationError, match="at most 3 goals"):
        make(org.rep, title="One too many")
    goal_close(goal=goals[0], actor=org.rep, status=GoalStatus.ACHIEVED)
    make(org.rep, title="Now there is room")
    with pytest.raises(ValidationError, match="at most 3 goals"):
        goal_reopen(goal=goals[0], actor=org.rep)
    assert Goal.objects.active().filter(owner=org.rep).count() == MAX_ACTIVE_GOALS


@pytest.mark.django_db
def test_closing_stamps_the_time_and_reopening_clears_it(org):
    goal = make(org.rep)
    closed = goal_close(goal=goal, actor=org.manager, status=GoalStatus.DROPPED)
    assert closed.status == GoalStatus.DROPPED and closed.closed_at is not None
    with pytest.raises(ValidationError, match="already closed"):
        goal_close(goal=goal, actor=org.rep, status=GoalStatus.ACHIEVED)
    reopened = goal_reopen(goal=goal, actor=org.rep)
    assert reopened.status == GoalStatus.ACTIVE and reopened.closed_at is None
    with pytest.raises(ValidationError, match="already active"):
        goal_reopen(goal=goal, actor=org.rep)
    with pytest.raises(ValidationError):
        goal_close(goal=goal, actor=org.rep, status=GoalStatus.ACTIVE)


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["peer", "other_manager", "hr", "admin"])
def test_someone_who_cannot_see_a_goal_cannot_change_it(org, who):
    goal = make(org.rep)
    outsider = getattr(org, who)
    for change in (
        lambda: goal_update(goal=goal, actor=outsider, title="Mine now"),
        lambda: goal_close(goal=goal, actor=outsider, status=GoalStatus.DROPPED),
    ):
        with pytest.raises(Http404):
            change()
    goal.refresh_from_db()
    assert goal.title == "Ask before telling" and goal.status == GoalStatus.ACTIVE


@pytest.mark.django_db
def test_a_focus_area_must_be_current_and_apply_to_the_owner(org):
    today = timezone.localdate()
    everyone = FocusAreaFactory(name="Discovery")
    ended = FocusAreaFactory(
        name="Pricing", starts_on=today - timedelta(days=90), ends_on=today - timedelta(days=1)
    )
    other_team = team_create(name="Omar's team", lead=org.other_manager)
    team_member_add(team=other_team, person=org.other_rep)
    elsewhere = FocusAreaFactory(name="Renewals")
    elsewhere.teams.add(other_team)
    assert make(org.rep, focus_area=everyone).focus_area == everyone
    for wrong in (ended, elsewhere):
        with pytest.raises(ValidationError) as refused:
            make(org.peer, focus_area=wrong)
        assert "focus_area" in refused.value.message_dict
    assert not Goal.objects.filter(owner=org.peer).exists()


@pytest.mark.django_db
def test_a_goal_keeps_a_focus_area_that_has_ended_since_when_edited(org):
    focus = FocusAreaFactory(name="Discovery")
    goal = make(org.rep, focus_area=focus)
    focus.ends_on = timezone.localdate() - timedelta(days=1)
    focus.starts_on = focus.ends_on - timedelta(days=30)
    focus.save()
    edited = goal_update(goal=goal, actor=org.rep, title="Ask first", focus_area=focus)
    assert edited.title == "Ask first" and edited.focus_area == focus


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("who", "sees"),
    [
        ("rep", True),
        ("manager", True),
        ("head", True),
        ("peer", False),
        ("other_manager", False),
        ("other_rep", False),
        ("hr", False),
        ("admin", False),
    ],
)
def test_the_owner_and_their_chain_see_a_goal_and_nobody_else(org, who, sees):
    make(org.rep)
    assert goals_of(viewer=getattr(org, who), owner=org.rep).exists() is sees


@pytest.mark.django_db
def test_active_goals_come_first_newest_first(org):
    old = make(org.rep, title="Old")
    done = make(org.rep, title="Done")
    goal_close(goal=done, actor=org.rep, status=GoalStatus.ACHIEVED)
    new = make(org.rep, title="New")
    assert list(goals_of(viewer=org.rep, owner=org.rep)) == [new, old, done]


@pytest.mark.django_db
def test_the_newest_active_goal_leads_the_next_one_on_one(org):
    earlier = one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(days=7))
    notes_save(session=earlier, actor=org.manager, base_version=0, changes={"goal": "From notes"})
    assert current_goal(person=org.rep) == "From notes"
    older = one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(days=14))
    notes_save(session=older, actor=org.manager, base_version=0, changes={"goal": "Older"})
    assert current_goal(person=org.rep) == "From notes"  # the latest 1:1's
    assert current_goal(person=org.peer) == ""  # never coached yet
    assert current_goal(person=org.manager) == ""  # the coach's sessions are not theirs
    make(org.rep, title="Lead with questions")
    assert current_goal(person=org.rep) == "Lead with questions"
    following = one_on_one(org.manager, org.rep, start=timezone.now() + timedelta(days=1))
    assert notes_shown(following).goal == "Lead with questions"
