"""A rating's words never leave their circle: with a unique comment planted, the coach,
the coach's manager, HR, the programme admin and a superuser find it nowhere — not on
the session page, its fragments, the session API, the notifications, the people pages,
the admin site — and it reaches no log. Its rater finds it where they look."""

import logging

import pytest
from django.contrib import admin
from rest_framework.test import APIClient

from coaching.models import SessionRating
from tests.support.coaching_ratings import SECRET, held, rate
from tests.support.factories import UserFactory


@pytest.fixture
def rated(org):
    session = held(org.manager, org.rep)
    rate(session, org.rep, 1, SECRET)
    return session


def paths(org, session):
    return [
        f"/sessions/{session.pk}/",
        f"/sessions/{session.pk}/prepare/",
        "/sessions/",
        "/me/",
        "/team/",
        f"/people/{org.rep.pk}/",
        f"/people/{org.manager.pk}/",
        "/me/notifications/",
        f"/api/v1/sessions/{session.pk}/",
        f"/api/v1/sessions/{session.pk}/rating/",
        f"/api/v1/sessions/{session.pk}/notes/",
        "/api/v1/sessions/",
        f"/admin/people/user/{org.rep.pk}/change/",
        f"/admin/people/user/{org.rep.pk}/delete/",
        f"/admin/people/user/{org.manager.pk}/delete/",
        "/admin/",
    ]


def bodies(client, org, session):
    for path in paths(org, session):
        for headers in ({}, {"HTTP_ACCEPT": "text/html"}, {"HTTP_HX_REQUEST": "true"}):
            response = client.get(path, **headers)
            assert response.status_code < 500, path
            yield path, response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["manager", "head", "hr", "admin", "root"])
def test_nobody_but_the_rater_reads_the_comment_anywhere(client, org, rated, who):
    reader = UserFactory(is_staff=True, is_superuser=True) if who == "root" else getattr(org, who)
    client.force_login(reader)
    leaks = [path for path, body in bodies(client, org, rated) if "ZQRATINGSECRET" in body]
    assert leaks == []


@pytest.mark.django_db
def test_the_rater_reads_their_own_comment_on_the_page_and_through_the_api(client, org, rated):
    client.force_login(org.rep)
    assert "ZQRATINGSECRET" in client.get(f"/sessions/{rated.pk}/").content.decode()
    api = APIClient()
    api.force_login(org.rep)
    assert api.get(f"/api/v1/sessions/{rated.pk}/rating/").json()["comment"] == SECRET


@pytest.mark.django_db
def test_ratings_are_not_on_the_admin_site_and_print_no_words():
    assert SessionRating not in admin.site._registry
    assert str(SessionRating(pk=7, score=1, comment=SECRET)) == "Session rating #7"


@pytest.mark.django_db
def test_only_the_rater_is_in_visible_to(org, rated):
    assert SessionRating.objects.visible_to(org.rep).count() == 1
    for who in ("manager", "head", "hr", "admin", "peer"):
        assert not SessionRating.objects.visible_to(getattr(org, who)).exists()


@pytest.mark.django_db
def test_rating_writes_no_words_to_the_logs(client, org, caplog):
    session = held(org.manager, org.rep)
    caplog.set_level(logging.DEBUG)
    client.force_login(org.rep)
    client.post(f"/sessions/{session.pk}/rating/", {"score": "9", "comment": SECRET})
    client.post(f"/sessions/{session.pk}/rating/", {"score": "2", "comment": SECRET})
    api = APIClient()
    api.force_login(org.rep)
    api.put(f"/api/v1/sessions/{session.pk}/rating/", {"score": 0, "comment": SECRET})
    api.put(f"/api/v1/sessions/{session.pk}/rating/", {"score": 3, "comment": SECRET})
    client.force_login(org.manager)
    client.post(f"/sessions/{session.pk}/rating/", {"score": "5", "comment": SECRET})
    assert SessionRating.objects.get().score == 3
    assert "ZQRATINGSECRET" not in caplog.text
