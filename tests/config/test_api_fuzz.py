"""Schemathesis against the OpenAPI schema, as a rep and as a manager of the demo
organisation. Every operation gets generated requests, valid by the schema and not
(wrong types, oversized and odd text, unknown and foreign ids, impossible dates and
time zones); every answer must be a status the schema declares for that operation —
never a 5xx — with the declared content type, headers and a body matching the declared
schema; and a refused write (a 4xx) must leave no row added or removed. At least
3,000 requests a run, through Django's WSGI handler (no server).

Deterministic by default, so CI does not fail at random on someone else's change;
FUZZ_RANDOM=1 explores new inputs, FUZZ_EXAMPLES=N sets the examples per operation,
role and mode. With TRUST_REPORT_DIR set, the run's numbers go to fuzz.json there."""

import json
import os
import time
import traceback
from contextlib import contextmanager
from pathlib import Path

import pytest
import schemathesis
from django.apps import apps
from django.core.handlers.wsgi import WSGIHandler
from django.core.management import call_command
from django.core.signals import got_request_exception, request_finished, request_started
from django.db import close_old_connections, connection, transaction
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from people.models import User
from people.services_credentials import api_token_rotate
from tests.support.api_schema import published_schema
from tests.support.row_counts import row_counts

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
# From the demo organisation (seed_demo): a rep in a pair, with goals, feedback and
# scorecards; her manager, who runs 1:1s, reviews and forms pairs.
USERS = {"rep": "aisha.bello@example.com", "manager": "sofia.alvarez@example.com"}
# The programme admin's own endpoints, where everyone above gets 404 and only an admin
# reaches the code behind them. Fuzzed as Ada too (all of the API as her would add a
# minute for endpoints the two above already reach).
ADMIN = "ada.okafor@example.com"
ADMIN_PATHS = (
    "/api/v1/people/",
    "/api/v1/teams/",
    "/api/v1/team-channels/",
    "/api/v1/team-cadence/",
    "/api/v1/cadence-policies/",
    "/api/v1/delivery/",
    "/api/v1/audit-events/",
    "/api/v1/plans/all/",
    "/api/v1/closed-days/",
)
# Examples per operation: 5 gives over 4,000 requests (7 gave 5,700 in 90 s more).
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "5"))
MIN_REQUESTS = 3000
# What this test found, each fixed with its own regression test (named in brackets).
FINDINGS_FIXED = [
    "error answers (400/401/403/404/415/429/503) undeclared on most operations "
    "[tests/config/test_api_schema.py]",
    "HTML 404 for an /api/ URL that matches no route, e.g. a negative or non-numeric id "
    "[test_a_url_under_api_that_matches_no_route_is_a_json_404]",
    "HTML 400 for an /api/ body Django refuses as too large "
    "[test_a_body_too_large_to_read_is_a_json_400_and_nothing_is_saved]",
    "500 for an id filter beyond bigint (sessions, agenda, commitments, goals, diagnoses, "
    "experiments, learnings, candidates, reviews, wins) "
    "[test_an_id_filter_beyond_any_id_is_a_400_naming_it and feedback equivalents]",
    "500 for a responder id beyond bigint in a feedback request "
    "[test_bad_requests_are_refused_and_nothing_is_saved: an id no database holds]",
    "pair wall times declared as RFC 3339 'time' (which needs an offset) "
    "[test_a_pairs_wall_time_matches_the_schema]",
    "empty win link, recorded-call url and session cancel_reason declared as never empty "
    "[test_a_win_without_a_link_matches_the_schema and two more]",
    "pair candidates, notes, habits and check-ins declared paginated but answered as lists "
    "[test_pair_candidates_are_one_list_as_the_schema_says, "
    "test_a_pairs_notes_habits_and_check_ins_are_lists_as_the_schema_says]",
]
# The model behind each path's id, so that generated requests also name objects that
# exist — the requester's own and other people's — not only ids nobody has.
MODEL_OF_PATH = {
    "agenda-items": "coaching.AgendaItem",
    "cadence-policies": "cadence.CadencePolicy",
    "closed-days": "cadence.Closure",
    "commitments": "coaching.Commitment",
    "dashboards": "people.User",
    "diagnoses": "coaching.Diagnosis",
    "experiments": "learning.Experiment",
    "feedback": "feedback.Feedback",
    "feedback-requests": "feedback.FeedbackRequest",
    "focus-areas": "coaching.FocusArea",
    "goals": "coaching.Goal",
    "health": "people.Team",
    "interpretive-terms": "feedback.InterpretiveTerm",
    "learnings": "learning.Learning",
    "pair-habits": "peers.Habit",
    "peer-pairs": "peers.PeerPair",
    "people": "people.User",
    "plans": "cadence.CadencePlan",
    "playbook-modules": "learning.PlaybookModule",
    "prompts": "coaching.Prompt",
    "recorded-calls": "scorecards.RecordedCall",
    "rollouts": "cadence.Rollout",
    "scorecard-templates": "scorecards.Template",
    "scorecards": "scorecards.Scorecard",
    "scoring-rounds": "scorecards.ScoringRound",
    "sessions": "coaching.CoachingSession",
    "team-cadence": "people.Team",
    "team-channels": "notifications.TeamChannel",
    "team-playbooks": "people.Team",
    "teams": "people.Team",
    "wins": "feedback.Win",
}


@contextmanager
def wsgi_in_the_test_transaction():
    """Django's own test client keeps the connection open across a request (the test's
    transaction holds the seeded world); a bare WSGI handler would close it when the
    request ends. Do as the test client does, and remember what raised."""
    errors = []

    def remember(sender, request=None, **kwargs):
        errors.append(traceback.format_exc())

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    got_request_exception.connect(remember)
    try:
        yield errors
    finally:
        got_request_exception.disconnect(remember)
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


class RowChanges(list):
    """A statement wrapper that notes each statement able to add or remove rows."""

    def __call__(self, execute, sql, params, many, context):
        if sql.lstrip()[:6].upper() in ("INSERT", "DELETE", "COPY ", "TRUNCA"):
            self.append(sql)
        return execute(sql, params, many, context)


def load_schema():
    schema = schemathesis.openapi.from_dict(published_schema())
    schema.app = WSGIHandler()
    existing_ids = {
        prefix: list(apps.get_model(label).objects.values_list("pk", flat=True))
        for prefix, label in MODEL_OF_PATH.items()
    }

    @schema.hook
    def flatmap_path_parameters(context, path_parameters):
        """Half the time, an id that exists (visible to the requester or not)."""
        names = [name for name in path_parameters or {} if name.endswith("id")]
        ids = existing_ids.get(context.operation.path.split("/")[3])
        if not names or not ids:
            return st.just(path_parameters)
        return st.one_of(
            st.just(path_parameters),
            st.sampled_from(ids).map(lambda pk: {**path_parameters, names[0]: pk}),
        )

    return schema


def modes_for(operation):
    """Schema-violating requests need something to violate: a parameter or a body."""
    raw = operation.definition.raw
    if raw.get("parameters") or raw.get("requestBody"):
        return (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
    return (GenerationMode.POSITIVE,)


def fuzz(operation, mode, headers, server_errors) -> tuple[int, str | None]:
    """Generated requests against one operation: how many were made, and the failure."""
    made = 0

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=not os.environ.get("FUZZ_RANDOM"),
        phases=[Phase.explicit, Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode))
    def run(case):
        nonlocal made
        made += 1
        server_errors.clear()
        writes = case.method.upper() != "GET"
        after = None
        # Each request in a savepoint: a request that broke the transaction (a 500)
        # must not take every later request down with it on PostgreSQL. A refused
        # write is rolled back too, once its rows are counted: counting again after
        # the rollback gives the rows before it, so every table is counted only for
        # refused writes that sent an INSERT or a DELETE, twice, instead of before
        # every write (rows can change no other way).
        row_changes = RowChanges()
        with transaction.atomic(), connection.execute_wrapper(row_changes):
            response = case.call(headers=headers)
            refused_write = writes and 400 <= response.status_code < 500
            if refused_write and row_changes:
                after = row_counts()
            if response.status_code >= 500 or refused_write:
                transaction.set_rollback(True)
        try:
            case.validate_response(response, checks=CHECKS, headers=headers)
        except (Exception, BaseExceptionGroup) as failure:
            raise AssertionError(f"{failure}\n" + "\n".join(server_errors)) from failure
        if after is not None:
            before = row_counts()
            changed = {t: (before[t], after[t]) for t in before if before[t] != after[t]}
            assert not changed, (
                f"{case.method} {case.formatted_path} answered {response.status_code} "
                f"but rows were added or removed: {changed}\n{response.text[:500]}"
            )

    try:
        run()
    except (Exception, BaseExceptionGroup) as failure:
        return made, str(failure)
    return made, None


@pytest.mark.django_db
def test_generated_requests_get_declared_answers_and_never_a_server_error():
    started = time.monotonic()
    call_command("seed_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    schema = load_schema()
    operations = [result.ok() for result in schema.get_all_operations()]
    requests, failures = 0, []
    admins = [op for op in operations if op.path.startswith(ADMIN_PATHS)]
    with wsgi_in_the_test_transaction() as server_errors:
        for role, email, some in [
            *((role, email, operations) for role, email in USERS.items()),
            ("admin", ADMIN, admins),
        ]:
            token = api_token_rotate(person=User.objects.get(email=email))
            headers = {"Authorization": f"Token {token}"}
            for operation in some:
                for mode in modes_for(operation):
                    made, failure = fuzz(operation, mode, headers, server_errors)
                    requests += made
                    if failure:
                        failures.append(f"[{role}, {mode}] {operation.label}\n{failure}")
    seconds = time.monotonic() - started
    print(
        f"\nschemathesis: {requests} requests, {len(operations)} operations, "
        f"{len(failures)} failures, {seconds:.0f} s"
    )
    report_dir = os.environ.get("TRUST_REPORT_DIR")
    if report_dir:
        Path(report_dir).mkdir(parents=True, exist_ok=True)
        report = {
            "requests": requests,
            "operations": len(operations),
            "users": [*USERS, "admin (its own endpoints)"],
            "failures": len(failures),
            "findings_fixed": FINDINGS_FIXED,
        }
        (Path(report_dir) / "fuzz.json").write_text(json.dumps(report, indent=2) + "\n")
    assert not failures, "\n\n".join(failures)
    assert requests >= MIN_REQUESTS
