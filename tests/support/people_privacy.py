"""A small world with words planted everywhere, for the data download and erasure
tests: each marker is a word only some people may read."""

import datetime as dt
from dataclasses import dataclass

from django.utils import timezone

from coaching.services import (
    agenda_item_add,
    commitment_create,
    goal_create,
    notes_save,
    private_note_save,
    session_mark_held,
    session_rating_save,
)
from coaching.services_diagnosis import diagnosis_record
from feedback.services import (
    feedback_acknowledge,
    feedback_give,
    feedback_request_answer,
    feedback_request_create,
    feedback_share,
)
from peers.services import habit_add, habit_check_in
from people.services_teams import team_create, team_member_add
from scorecards import services as scorecard_services
from scorecards.models import Template
from tests.support.factories import RecordedCallFactory, UserFactory, one_on_one
from tests.support.peers_pairs import active_pair, with_notes

# Markers: the rep may read the first group in their download, never the second.
THEIRS = {
    "shared": "QXSHAREDNOTE",
    "own_private": "QXREPPRIVATE",
    "dev_received": "QXDEVTOREP",
    "eval_received": "QXEVALTOREP",
    "reflection": "QXREFLECTION",
    "dev_given": "QXDEVBYREP",
    "pair_note": "QXPAIRNOTE",
    "agenda": "QXAGENDA",
    "commitment": "QXCOMMIT",
    "goal": "QXGOALWORD",
    "rating": "QXRATINGWORD",
    "request": "QXREQUESTWORD",
    "habit": "QXHABITWORD",
}
NOT_THEIRS = {
    "coach_private": "QXCOACHPRIVATE",
    "dev_other": "QXDEVOTHER",
    "dev_shared_with_rep": "QXDEVSHARED",
    "other_pair": "QXOTHERPAIR",
    "diagnosis": "QXDIAGNOSIS",
    "coach_keep": "QXCOACHKEEP",
}


@dataclass
class World:
    org: object
    session: object
    scoring: object
    pair: object
    other_pair: object


def _give(author, recipient, stream, word, **extra):
    return feedback_give(
        author=author,
        recipient=recipient,
        stream=stream,
        observation=f"{word} on the call",
        impact="It helped",
        suggestion="Keep going",
        **extra,
    )


def build_world(org, *, extra_history: int = 0) -> World:
    rep, manager, peer, other_rep = org.rep, org.manager, org.peer, org.other_rep
    team = team_create(name="Enterprise", lead=manager)
    for person in (rep, peer):
        team_member_add(team=team, person=person)

    start = timezone.now() - dt.timedelta(days=2)
    session = one_on_one(manager, rep, start=start)
    notes_save(
        session=session,
        actor=manager,
        base_version=session.notes.version,
        changes={"goal": f"{THEIRS['shared']} pricing", "will": "Try it"},
    )
    private_note_save(
        session=session, author=manager, text=f"{NOT_THEIRS['coach_private']} x", base_version=0
    )
    private_note_save(
        session=session, author=rep, text=f"{THEIRS['own_private']} y", base_version=0
    )
    agenda_item_add(session=session, actor=rep, text=f"{THEIRS['agenda']} pricing")
    commitment_create(
        session=session,
        actor=manager,
        owner=rep,
        text=f"{THEIRS['commitment']} ask first",
        evidence="two calls",
        due_on=timezone.localdate() + dt.timedelta(days=7),
    )
    session_mark_held(session=session, actor=manager)
    session_rating_save(session=session, rater=rep, score=4, comment=f"{THEIRS['rating']} ok")
    goal_create(actor=rep, owner=rep, title=f"{THEIRS['goal']} discovery")
    diagnosis_record(
        author=manager,
        coachee=rep,
        knows_how=False,
        believes=None,
        has_framework=None,
        has_system=None,
        notes=f"{NOT_THEIRS['diagnosis']} hmm",
    )

    dev = _give(peer, rep, "developmental", THEIRS["dev_received"])
    ev = _give(manager, rep, "evaluative", THEIRS["eval_received"])
    feedback_acknowledge(feedback=ev, actor=rep, reflection=f"{THEIRS['reflection']} fair")
    _give(rep, peer, "developmental", THEIRS["dev_given"])
    _give(peer, other_rep, "developmental", NOT_THEIRS["dev_other"])
    shared = _give(peer, other_rep, "developmental", NOT_THEIRS["dev_shared_with_rep"])
    feedback_share(feedback=shared, actor=other_rep, person=rep)
    asked = feedback_request_create(
        requester=rep,
        responders=[peer],
        due_on=timezone.localdate() + dt.timedelta(days=5),
        topic=f"{THEIRS['request']} pricing",
    )
    feedback_request_answer(request=asked, responder=peer, observation="You paused well")

    pair = with_notes(active_pair(org.admin, rep, peer), rep, peer, text=THEIRS["pair_note"])
    habit = habit_add(pair=pair, actor=rep, text=f"{THEIRS['habit']} pause")
    habit_check_in(habit=habit, actor=peer, outcome="kept", note="well done")
    other_pair = with_notes(
        active_pair(org.admin, peer, other_rep), peer, other_rep, text=NOT_THEIRS["other_pair"]
    )

    call = RecordedCallFactory(person=rep, title="Northwind discovery")
    template = Template.objects.filter(retired_at__isnull=True).first()
    scoring = scorecard_services.coach_scoring_open(actor=manager, work=call, template=template)
    criteria = list(scoring.version.criteria.order_by("position"))
    scorecard_services.scorecard_save(
        actor=manager,
        scoring=scoring,
        scores=[scorecard_services.ScoreInput(criterion=c.pk, rating=3) for c in criteria],
        keep=f"{NOT_THEIRS['coach_keep']} the pause",
        submit=True,
    )

    for n in range(extra_history):
        more = one_on_one(manager, rep, start=start - dt.timedelta(days=7 * (n + 1)))
        private_note_save(session=more, author=rep, text=f"more {n}", base_version=0)
        agenda_item_add(session=more, actor=manager, text=f"item {n}")
        _give(peer, rep, "developmental", f"more {n}")
        _give(rep, manager, "evaluative", f"up {n}")
        other = UserFactory(manager=manager)
        _give(other, rep, "developmental", f"from other {n}")
    del dev
    return World(org, session, scoring, pair, other_pair)
