"""A session's one line in lists names the people from where the reader stands: the
coachee reads whom they meet ("with their coach"), the coach whom they coach, and
someone above them both whose session it is — never the reader's own name."""

import re

import pytest

from tests.support.factories import one_on_one


def _link(page: str, session) -> str:
    """The words of the session's link: in the sessions list they say with whom."""
    after = page.split(f'href="/sessions/{session.pk}/"', 1)[1]
    return re.sub(
        r"\s+", " ", re.sub(r"<[^>]+>", " ", after.split(">", 1)[1].split("</a>")[0])
    ).strip()


def _line(page: str, session) -> str:
    """The text after the session's link, up to the end of its list item."""
    after = page.split(f'href="/sessions/{session.pk}/"', 1)[1].split("</li>", 1)[0]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", after.split("</a>", 1)[1])).strip()


@pytest.mark.django_db
def test_the_coachee_reads_whom_they_meet(client_for, org):
    session = one_on_one(org.manager, org.rep)
    page = client_for(org.rep).get("/sessions/").content.decode()
    assert _link(page, session) == "1:1 with Mia Manager"
    assert _line(page, session).startswith("· Prepare for your 1:1 on ")


@pytest.mark.django_db
def test_the_coach_reads_whom_they_coach(client_for, org):
    session = one_on_one(org.manager, org.rep)
    page = client_for(org.manager).get("/sessions/").content.decode()
    assert _link(page, session) == "1:1 with Rita Rep"
    assert _line(page, session) == "not prepared yet"


@pytest.mark.django_db
def test_someone_above_them_both_reads_whose_session_it_is(client_for, org):
    session = one_on_one(org.manager, org.rep)
    page = client_for(org.head).get(f"/people/{org.rep.pk}/").content.decode()
    assert _line(page, session).startswith("of Mia Manager with Rita Rep")
