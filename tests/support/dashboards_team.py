"""The fixed data set behind the team and growth dashboard tests, and small helpers.

Times are relative to NOW, Wednesday 18 March 2026, 12:00 UTC (13:00 in Berlin, where
every factory-made person lives). The week on "My team" runs from Monday 16 March
00:00 to Monday 23 March 00:00, Berlin time.

    Hana (head) → Mia (manager) → Rita (rep), Pavel (peer)
                → Omar (other manager) → Olga (other rep)
                → Harriet (HR), Adam (admin)
    Team A, led by Mia: Rita and Pavel.

Mia's sessions (she leads every one)
    s1  Pavel 1:1     Thu 26 Feb 12:00   held, written; c3 made (open, due 8 Mar)
    s2  Rita 1:1      Tue  3 Mar 12:00   cancelled: forecast call
    s10 Pavel 1:1     Thu  5 Mar 12:00   missed
    s3  Rita 1:1      Tue 10 Mar 12:00   held, written; c1 (done), c2 (open, due
                                         16 Mar), c4 (open, due 23 Mar) made
    s4  Rita 1:1      Mon 16 Mar 10:00   held with nothing written (held but empty)
    s5  Pavel 1:1     Mon 16 Mar 14:00   missed
    s6  Team A review Tue 17 Mar 15:00   cancelled: forecast call
    s7  Pavel 1:1     Wed 18 Mar 09:00   still scheduled (due, to log)
    s8  Rita 1:1      Thu 19 Mar 10:00   scheduled (to come)
    s9  Pavel 1:1     Fri 20 Mar 10:00   cancelled ahead: illness
    Pavel's weekly plan holds s1, s10, s5, s7 as occurrences (two misses in a row).

Omar's: Olga 1:1 Sun 8 Mar held, written; Olga 1:1 Sun 15 Mar missed.

Scorecards on Rita's calls (template "Dashboard discovery": A, B measure the focus
area "Ask first", C does not; scale 1–4):
    15 Jan  Rita self A3 B3 C1, Mia A2 B1 C4
    12 Feb  Mia A2 B3 C4 (Rita has not scored herself: hidden from her)
    10 Mar  Rita self A4 B3 C1, Mia A3 B3 C4

Feedback to Rita: developmental on 8 Mar (themes listening, discovery, text DV-MARK),
developmental on 8 Dec (listening), evaluative on 13 Mar (theme pricing, text
EV-MARK). Requests waiting on Mia: from Rita (due 21 Mar), from Omar (due 17 Mar);
one she answered. Waiting on Rita: from Pavel."""

import re
from datetime import UTC, date, datetime, time, timedelta
from html import unescape

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cadence.models import Occurrence
from cadence.services import plan_create
from coaching.models import CoachingSession
from coaching.services import (
    commitment_close,
    commitment_create,
    goal_create,
    notes_save,
    session_cancel,
    session_mark_held,
    team_call_review_create,
)
from people.models import ReportingLine
from people.services_teams import team_create, team_member_add
from scorecards import services as scorecards
from scorecards.services import CriterionSpec
from tests.support.factories import (
    FeedbackFactory,
    FeedbackRequestFactory,
    FocusAreaFactory,
    RecordedCallFactory,
    RequestedResponderFactory,
    ThemeFactory,
    one_on_one,
)

NOW = datetime(2026, 3, 18, 12, 0, tzinfo=UTC)
DEVELOPMENTAL_MARK = "DVZQDASHMARK developmental words for Rita"
EVALUATIVE_MARK = "EVZQDASHMARK evaluative words for Rita"
REQUEST_MARK = "RQZQDASHMARK a question only the asked may read"


def at(day: int, month: int = 3, hour: int = 12, minute: int = 0) -> datetime:
    return datetime(2026, month, day, hour, minute, tzinfo=UTC)


def write_up(session, actor):
    notes_save(
        session=session, actor=actor, base_version=0, changes={"reality": f"Talked #{session.pk}"}
    )


def held(session, actor, *, written=True):
    if written:
        write_up(session, actor)
    return session_mark_held(session=session, actor=actor)


def missed(*sessions):
    CoachingSession.objects.filter(pk__in=[s.pk for s in sessions]).update(
        status="missed", missed_at=NOW
    )


def promise(session, actor, *, due_on: date, text="Try it"):
    return commitment_create(
        session=session, actor=actor, text=text, evidence="A call", due_on=due_on
    )


CRITERIA = [
    CriterionSpec("Open questions", "Asks open questions first."),
    CriterionSpec("Listening", "Plays the buyer's words back."),
    CriterionSpec("Pricing", "Names the price plainly."),
]


def score(person, scoring, ratings):
    criteria = list(scoring.version.criteria.order_by("position"))
    scores = [
        scorecards.ScoreInput(criterion=c.pk, rating=r)
        for c, r in zip(criteria, ratings, strict=True)
    ]
    return scorecards.scorecard_save(actor=person, scoring=scoring, scores=scores, submit=True)


def scored_call(org, template, when, *, mine=None, coach=None):
    with time_machine.travel(when, tick=False):
        call = RecordedCallFactory(person=org.rep, call_date=when.date())
        scoring = scorecards.coach_scoring_open(actor=org.manager, work=call, template=template)
        if mine:
            score(org.rep, scoring, mine)
        if coach:
            score(org.manager, scoring, coach)
    return scoring


class World:
    """What the fixture built, by the names the docstring uses."""


@pytest.fixture
def world(org):
    w = World()
    w.org = org
    mia, rita, pavel = org.manager, org.rep, org.peer

    # They reported to Mia before any of this history (the org is made today, later).
    ReportingLine.objects.filter(ended_at__isnull=True).update(started_at=at(1, 1))
    with time_machine.travel(at(1, 1), tick=False):
        w.team = team_create(name="Team A", lead=mia)
        team_member_add(team=w.team, person=rita)
        team_member_add(team=w.team, person=pavel)
        w.template = scorecards.template_create(
            actor=org.admin, name="Dashboard discovery", criteria=CRITERIA
        )
        w.focus = FocusAreaFactory(name="Ask first", starts_on=date(2026, 1, 1), ends_on=None)
        a, b, _ = (c.criterion for c in w.template.versions.get().criteria.order_by("position"))
        w.focus.criteria.set([a, b])
        goal_create(owner=rita, actor=rita, title="Ask before telling")

    scored_call(org, w.template, at(15, 1), mine=[3, 3, 1], coach=[2, 1, 4])
    scored_call(org, w.template, at(12, 2), coach=[2, 3, 4])
    scored_call(org, w.template, at(10, 3, hour=14), mine=[4, 3, 1], coach=[3, 3, 4])

    with time_machine.travel(at(26, 2, hour=13), tick=False):
        w.s1 = one_on_one(mia, pavel, start=at(26, 2))
        w.c3 = promise(w.s1, mia, due_on=date(2026, 3, 8), text="Pavel's overdue promise")
        held(w.s1, mia)
    with time_machine.travel(at(10, 3, hour=13), tick=False):
        w.s3 = one_on_one(mia, rita, start=at(10, 3))
        w.c1 = promise(w.s3, mia, due_on=date(2026, 3, 12), text="Rita's kept promise")
        w.c2 = promise(w.s3, mia, due_on=date(2026, 3, 16), text="Rita's overdue promise")
        w.c4 = promise(w.s3, mia, due_on=date(2026, 3, 23), text="Rita's open promise")
        held(w.s3, mia)
    with time_machine.travel(at(16, 3, hour=11), tick=False):
        w.s4 = one_on_one(mia, rita, start=at(16, 3, hour=10))
        held(w.s4, mia, written=False)

    with time_machine.travel(at(8, 3, hour=13), tick=False):
        olga1 = one_on_one(org.other_manager, org.other_rep, start=at(8, 3))
        held(olga1, org.other_manager)

    with time_machine.travel(NOW, tick=False):
        commitment_close(commitment=w.c1, actor=mia, status="done")
        w.s2 = one_on_one(mia, rita, start=at(3, 3))
        session_cancel(session=w.s2, actor=mia, reason="forecast_call")
        w.s10 = one_on_one(mia, pavel, start=at(5, 3))
        w.s5 = one_on_one(mia, pavel, start=at(16, 3, hour=14))
        w.s6 = team_call_review_create(
            actor=mia,
            team=w.team,
            start=at(17, 3, hour=15),
            presenter=rita,
            call_url="https://calls.example.com/1",
            call_title="Discovery",
            call_date=date(2026, 3, 16),
        )
        session_cancel(session=w.s6, actor=mia, reason="forecast_call")
        w.s7 = one_on_one(mia, pavel, start=at(18, 3, hour=9))
        w.s8 = one_on_one(mia, rita, start=at(19, 3, hour=10))
        w.s9 = one_on_one(mia, pavel, start=at(20, 3, hour=10))
        session_cancel(session=w.s9, actor=mia, reason="sick")
        missed(w.s10, w.s5)
        olga2 = one_on_one(org.other_manager, org.other_rep, start=at(15, 3))
        missed(olga2)

        w.plan = plan_create(
            kind="one_on_one",
            coach=mia,
            coachee=pavel,
            weekday=3,
            local_time=time(12, 0),
            time_zone="UTC",
            generate=False,
        )
        for session in (w.s1, w.s10, w.s5, w.s7):
            Occurrence.objects.create(
                plan=w.plan, slot_start=session.original_start, session=session
            )

    _feedback(w)
    return w


def _feedback(w):
    org = w.org
    fresh = FeedbackFactory(
        recipient=org.rep, author=org.peer, observation=DEVELOPMENTAL_MARK, created_at=at(8, 3)
    )
    fresh.themes.add(ThemeFactory(name="listening"), ThemeFactory(name="discovery"))
    old = FeedbackFactory(recipient=org.rep, author=org.manager, created_at=at(8, 12, 0) - _YEAR)
    old.themes.add(ThemeFactory(name="listening"))
    evaluative = FeedbackFactory(
        recipient=org.rep,
        author=org.manager,
        stream="evaluative",
        direction="downward",
        observation=EVALUATIVE_MARK,
        created_at=at(13, 3),
    )
    evaluative.themes.add(ThemeFactory(name="pricing"))
    to_pavel = FeedbackFactory(recipient=org.peer, author=org.rep, created_at=at(9, 3))
    to_pavel.themes.add(ThemeFactory(name="closing"))

    asked_mia = FeedbackRequestFactory(
        requester=org.rep, due_on=date(2026, 3, 21), question=REQUEST_MARK
    )
    RequestedResponderFactory(request=asked_mia, responder=org.manager)
    from_omar = FeedbackRequestFactory(requester=org.other_manager, due_on=date(2026, 3, 17))
    RequestedResponderFactory(request=from_omar, responder=org.manager)
    answered = FeedbackRequestFactory(requester=org.peer, due_on=date(2026, 3, 10))
    RequestedResponderFactory(request=answered, responder=org.manager, status="answered")
    asks_rita = FeedbackRequestFactory(requester=org.peer, due_on=date(2026, 3, 25))
    RequestedResponderFactory(request=asks_rita, responder=org.rep)


_YEAR = timedelta(days=365)  # 8 Dec 2025: `at` builds 2026 dates


# --- Helpers ---------------------------------------------------------------------------


def squash(html: str) -> str:
    """A page's text in one line: tags out, entities decoded, spaces squeezed."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def page(client, path, status=200) -> str:
    with time_machine.travel(NOW, tick=False):
        response = client.get(path)
    assert response.status_code == status, response.content[:2000]
    return response.content.decode()


def api(client, path, status=200):
    with time_machine.travel(NOW, tick=False):
        response = client.get(path, HTTP_ACCEPT="application/json")
    assert response.status_code == status, response.content[:2000]
    return response.json()


def queries(client, path, status=200) -> int:
    """Queries for `path` on a second request (the session and caches warm)."""
    with time_machine.travel(NOW, tick=False):
        client.get(path)
        with CaptureQueriesContext(connection) as captured:
            response = client.get(path)
    assert response.status_code == status
    return len(captured)
