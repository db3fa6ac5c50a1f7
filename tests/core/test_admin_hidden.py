"""The admin site is invisible to everyone who may not use it (core/admin_access.py):
a signed-in person who is not staff gets the 404 page for everything under /admin/ —
its index, its models, its sign-in and sign-out, addresses that exist nowhere — with
nothing on it that names the admin site; a visitor not signed in is sent to sign in,
as from every other page; staff keep working. The whole table, role by role and route
by route: tests/test_authorization_matrix.py."""

import pytest

from people.models import User

EVERYWHERE = [
    "/admin/",
    "/admin/people/user/",
    "/admin/people/user/add/",
    "/admin/people/user/1/change/",
    "/admin/login/",
    "/admin/password_change/",
    "/admin/jsi18n/",
    "/admin/no/such/page/",
]


@pytest.mark.django_db
@pytest.mark.parametrize("path", EVERYWHERE)
def test_a_signed_in_person_who_is_not_staff_finds_nothing(client, org, path):
    client.force_login(org.rep)
    for response in (client.get(path), client.post(path, {})):
        assert response.status_code == 404, path
        html = response.content.decode()
        assert "<h1>Not found</h1>" in html
        assert "administration" not in html.lower() and "admin/" not in html


@pytest.mark.django_db
def test_signing_out_through_the_admin_is_a_404_too(client, org):
    client.force_login(org.manager)
    assert client.post("/admin/logout/").status_code == 404
    assert client.get("/api/v1/me/").status_code == 200  # still signed in


@pytest.mark.django_db
@pytest.mark.parametrize("path", EVERYWHERE)
def test_a_visitor_not_signed_in_is_sent_to_sign_in_as_from_any_page(client, path):
    response = client.get(path)
    assert response.status_code == 302, path
    assert response["Location"].startswith("/accounts/login/?next=/admin/"), path


@pytest.mark.django_db
def test_a_deactivated_staff_member_with_an_old_session_is_sent_to_sign_in(client, org):
    client.force_login(org.admin)
    User.objects.filter(pk=org.admin.pk).update(is_active=False)
    response = client.get("/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


@pytest.mark.django_db
def test_staff_keep_the_admin_site(client, org):
    client.force_login(org.admin)
    assert client.get("/admin/").status_code == 200
    assert client.get("/admin/people/user/").status_code == 200
    assert client.get("/admin/login/").status_code == 302  # already signed in: the index
    assert client.get("/admin/no/such/page/").status_code == 404
