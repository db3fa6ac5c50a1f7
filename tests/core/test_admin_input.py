"""The admin site's lists read filters and search from the address with no form in
between: a NUL character there (which PostgreSQL refuses in a string) is a 400 saying
why on every page of the admin site, never a 500."""

import pytest

from tests.support.urlwalk import routes

pytestmark = pytest.mark.django_db


def _admin_pages():
    return [r.path() for r in routes() if r.namespace == "admin" and not r.params]


def test_a_nul_in_any_admin_address_is_a_400_saying_why(client, root):
    client.force_login(root)
    pages = _admin_pages()
    assert len(pages) > 40
    for path in pages:
        for query in ("q=%00", "verb=x%00", "status__exact=%00", "%00=1"):
            response = client.get(f"{path}?{query}")
            assert response.status_code == 400, (path, query, response.status_code)
            assert b"NUL character" in response.content


def test_the_same_lists_answer_as_before_without_one(client, root):
    client.force_login(root)
    for path in ("/admin/people/auditevent/", "/admin/notifications/notification/"):
        assert client.get(f"{path}?q=someone").status_code == 200
