"""Rating on the session page: the coachee of a held session gets a small form (scores
as a fieldset with a legend, an optional comment, who sees what) that posts with htmx
and swaps in place, or as a plain form that redirects back with a message; bad input
is a 400 with the form's message and nothing saved; after 14 days their rating is
read-only. The coach and everyone else see nothing of it; outsiders get 404."""

from datetime import timedelta

import pytest
import time_machine
from django.contrib.messages import get_messages
from django.utils import timezone
from django.utils.html import escape

from coaching.models import SessionRating
from coaching.ratings import RATING_DAYS
from tests.support.coaching_ratings import SECRET, held, rate
from tests.support.factories import one_on_one

WHO_SEES = (
    "It counts once it can no longer be changed, two weeks after the session, and only "
    "together with other people's: your coach sees only an average over at least five "
    "ratings from at least three people, and comments without your name; their manager "
    "sees the average only."
)
HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "rating"}


def url(session):
    return f"/sessions/{session.pk}/rating/"


def page(client, session) -> str:
    response = client.get(f"/sessions/{session.pk}/")
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
def test_the_coachee_of_a_held_session_is_asked_whether_it_was_useful(client, org):
    session = held(org.manager, org.rep)
    client.force_login(org.rep)
    html = page(client, session)
    assert '<section class="panel" id="rating"' in html
    assert "<legend>Was this session useful?</legend>" in html
    for label in ("1 — not useful", "3 — somewhat useful", "5 — very useful"):
        assert label in html
    assert html.count('type="radio" name="score"') == 5
    assert f'hx-post="{url(session)}"' in html and 'hx-target="#rating"' in html
    assert f'action="{url(session)}"' in html
    assert WHO_SEES in html


@pytest.mark.django_db
def test_nothing_to_rate_before_the_session_is_held(client, org):
    session = one_on_one(org.manager, org.rep)
    client.force_login(org.rep)
    assert 'id="rating"' not in page(client, session)


@pytest.mark.django_db
def test_with_htmx_the_rating_is_saved_and_the_panel_swapped_in_place(client, org):
    session = held(org.manager, org.rep)
    client.force_login(org.rep)
    response = client.post(url(session), {"score": "4", "comment": SECRET}, **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section class="panel" id="rating"')
    assert "<html" not in html
    assert "Saved — thank you." in html
    assert 'value="4" id="rating_score_3" required checked' in html
    assert escape(SECRET) in html and "Change my rating" in html
    rating = SessionRating.objects.get()
    assert (rating.rater, rating.score, rating.comment) == (org.rep, 4, SECRET)
    assert rating.closes_at == session.held_at + timedelta(days=RATING_DAYS)  # counted after


@pytest.mark.django_db
def test_without_javascript_it_redirects_back_with_a_message(client, org):
    session = held(org.manager, org.rep)
    client.force_login(org.rep)
    response = client.post(url(session), {"score": "5"})
    assert response.status_code == 302
    assert response["Location"] == f"/sessions/{session.pk}/#rating"
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "Your rating is saved — thank you."
    ]
    assert SessionRating.objects.get().score == 5


@pytest.mark.django_db
def test_changing_the_rating_keeps_one_row(client, org):
    session = held(org.manager, org.rep)
    client.force_login(org.rep)
    client.post(url(session), {"score": "2", "comment": "Rushed"})
    client.post(url(session), {"score": "4", "comment": ""}, **HTMX)
    rating = SessionRating.objects.get()
    assert (rating.score, rating.comment) == (4, "")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "data, message",
    [
        ({"score": "0"}, "Rate it from 1 (not useful) to 5 (very useful)."),
        ({"score": "6"}, "Rate it from 1 (not useful) to 5 (very useful)."),
        ({"score": "abc"}, "Rate it from 1 (not useful) to 5 (very useful)."),
        ({}, "Pick a score from 1 (not useful) to 5 (very useful)."),
        ({"score": "3", "comment": "x" * 1001}, "Keep the comment under 1,000 characters."),
    ],
)
@pytest.mark.parametrize("htmx", [True, False])
def test_bad_input_is_a_400_with_the_forms_message_and_nothing_saved(
    client, org, data, message, htmx
):
    session = held(org.manager, org.rep)
    client.force_login(org.rep)
    response = client.post(url(session), data, **(HTMX if htmx else {}))
    assert response.status_code == 400
    html = response.content.decode()
    assert escape(message) in html
    assert ("<html" in html) is not htmx
    assert not SessionRating.objects.exists()


@pytest.mark.django_db
def test_after_fourteen_days_the_coachee_sees_their_rating_read_only(client, org):
    session = held(org.manager, org.rep, ago=timedelta(hours=2))
    rate(session, org.rep, 4, "Good questions")
    client.force_login(org.rep)
    with time_machine.travel(session.held_at + timedelta(days=14, seconds=1), tick=False):
        html = page(client, session)
        assert "You rated this session <strong>4 — useful</strong>." in html
        assert "Good questions" in html
        assert 'name="score"' not in html and "this one is closed" in html
        response = client.post(url(session), {"score": "1"}, **HTMX)
        assert response.status_code == 400
        assert "can no longer be rated or changed" in response.content.decode()
    assert SessionRating.objects.get().score == 4


@pytest.mark.django_db
def test_a_closed_session_nobody_rated_shows_no_rating_panel(client, org):
    session = held(org.manager, org.rep, ago=timedelta(days=15))
    client.force_login(org.rep)
    assert 'id="rating"' not in page(client, session)


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["manager", "head"])
def test_the_coach_and_their_manager_see_nothing_of_the_rating(client, org, who):
    session = held(org.manager, org.rep)
    rate(session, org.rep, 1, SECRET)
    client.force_login(getattr(org, who))
    html = page(client, session)
    assert 'id="rating"' not in html
    assert "SECRET" not in html and "not useful" not in html
    assert "Was this session useful" not in html


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["manager", "head"])
def test_someone_who_sees_the_session_but_is_not_its_coachee_gets_403(client, org, who):
    session = held(org.manager, org.rep)
    client.force_login(getattr(org, who))
    for headers in (HTMX, {}):
        response = client.post(url(session), {"score": "5"}, **headers)
        assert response.status_code == 403
        assert "Only the person coached in this session can rate it." in response.content.decode()
    assert not SessionRating.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["other_manager", "peer", "other_rep", "hr", "admin"])
def test_outsiders_get_404_and_nothing_is_saved(client, org, who):
    session = held(org.manager, org.rep)
    client.force_login(getattr(org, who))
    assert client.post(url(session), {"score": "5"}).status_code == 404
    assert client.post(url(session), {"score": "5"}, **HTMX).status_code == 404
    assert client.post("/sessions/999999/rating/", {"score": "5"}).status_code == 404
    assert not SessionRating.objects.exists()


@pytest.mark.django_db
def test_the_rating_address_answers_only_posts(client, org):
    session = held(org.manager, org.rep)
    client.force_login(org.rep)
    assert client.get(url(session)).status_code == 405


@pytest.mark.django_db
def test_rating_a_session_not_held_yet_says_why(client, org):
    session = one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(hours=2))
    client.force_login(org.rep)
    response = client.post(url(session), {"score": "4"}, **HTMX)
    assert response.status_code == 400
    assert "A session can be rated once it has been held." in response.content.decode()
    assert not SessionRating.objects.exists()
