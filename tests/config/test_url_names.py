"""Every named route has a name of its own. Two routes under one name resolve
`{% url %}` and `redirect()` to whichever Django finds last: a page built for one
would quietly link to the other (People under Programme once did: `person_detail` was
also a manager's page of a report)."""

from collections import Counter

from tests.support.urlwalk import routes

# Shadowed on purpose: our sign-in page answers /accounts/login/ before allauth's.
SHADOWED = {"account_login"}


def test_no_two_routes_share_a_name():
    names = Counter(route.name for route in routes() if route.name)
    assert [name for name, count in names.items() if count > 1 and name not in SHADOWED] == []
