"""bench/routes.py reaches every route: each route with parameters gets its values
from somewhere (an API list of the same objects as the reader, the admin's registry,
a fixed set), or is named on purpose as one no read can fill. A new page with an id
and no way to fill it fails here, not months later in a benchmark's footnote."""

import pytest

from bench import routes as sweep
from tests.urlwalk import routes


@pytest.mark.django_db
def test_every_route_with_parameters_is_filled_or_left_out_on_purpose():
    every = routes()
    list_names = {route.name for route in every if (route.name or "").endswith("-list")}
    asked = []

    def ids(list_name):
        asked.append(list_name)
        return [1]

    unfilled = {
        route.key
        for route in every
        if route.params and sweep._fills(route, ids, list_names) is None
    }
    assert unfilled == sweep.NOT_FILLABLE
    assert set(asked) <= list_names  # every page's ids come from a list that exists


def test_a_pages_ids_come_from_the_list_of_the_same_objects():
    by_key = {route.key: route for route in routes()}
    lists = {route.name for route in by_key.values() if (route.name or "").endswith("-list")}
    expected = {
        "session_detail": "api:session-list",
        "feedback_request_detail": "api:feedback-request-list",
        "habit_check_in": "api:pair-habit-list",
        "api:session-since-last": "api:session-list",
        "api:peer-pair-habits": "api:peer-pair-list",
        "api:health-team": "api:team-list",
        "api:dashboards-team-manager": "api:person-list",
    }
    for key, list_name in expected.items():
        assert sweep._list_for(by_key[key], lists) == list_name, key
