"""Helpers shared by the session usefulness tests (tests/coaching/test_ratings_*.py)."""

from datetime import timedelta

from django.utils import timezone

from coaching.services import manager_review_create, session_mark_held, session_rating_save
from tests.support.factories import UserFactory, one_on_one

# A word nobody but its rater may ever read, one by one.
SECRET = "ZQRATINGSECRET the pricing role-play finally clicked"


def held(coach, coachee, *, ago=timedelta(days=1), kind="one_on_one"):
    """A 1:1 (or manager review) that started `ago` and was held: logged by the
    coach half an hour after it started."""
    start = timezone.now() - ago
    if kind == "manager_review":
        session = manager_review_create(coach=coach, manager=coachee, start=start)
    else:
        session = one_on_one(coach, coachee, start=start)
    session_mark_held(session=session, actor=coach, held_at=start + timedelta(minutes=30))
    session.refresh_from_db()
    return session


def rate(session, rater, score, comment=""):
    return session_rating_save(session=session, rater=rater, score=score, comment=comment)


def team_of(coach, size):
    return [UserFactory(manager=coach) for _ in range(size)]
