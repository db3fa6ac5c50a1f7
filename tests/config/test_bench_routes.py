"""bench/routes.py reaches every route: each route with parameters gets its values
from somewhere (an API list of the same objects as the reader, the admin's registry,
a fixed set), or is named on purpose as one no read can fill. A new page with an id
and no way to fill it fails here, not months later in a benchmark's footnote."""

import pytest

from bench import routes as sweep
from tests.support.urlwalk import routes


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
        "coaching:session_detail": "api:session-list",
        "feedback:feedback_request_detail": "api:feedback-request-list",
        "peers:habit_check_in": "api:pair-habit-list",
        "api:session-since-last": "api:session-list",
        "api:peer-pair-habits": "api:peer-pair-list",
        "api:health-team": "api:team-list",
        "api:dashboards-team-manager": "api:person-list",
    }
    for key, list_name in expected.items():
        assert sweep._list_for(by_key[key], lists) == list_name, key


def test_a_statement_run_again_in_one_request_is_counted_with_its_time():
    captured = [
        {"sql": 'SAVEPOINT "s1_x1"', "time": "0.000"},
        {"sql": "SELECT 1 FROM people_user WHERE id = 7", "time": "0.002"},
        {
            "sql": 'DECLARE "_django_curs_1_sync_1" NO SCROLL CURSOR WITH HOLD FOR SELECT 2',
            "time": "0.050",
        },
        {"sql": 'SAVEPOINT "s1_x1"', "time": "0.000"},
        {"sql": "SELECT 1 FROM people_user WHERE id = 8", "time": "0.002"},
        {
            "sql": 'DECLARE "_django_curs_1_sync_2" NO SCROLL CURSOR WITH HOLD FOR SELECT 2',
            "time": "0.040",
        },
    ]
    again, ms = sweep.repeated_statements(captured)
    assert again == 1  # the cursor's statement; other values and savepoints are not repeats
    assert ms == pytest.approx(40.0)
