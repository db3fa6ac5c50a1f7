"""Authorization, everywhere: every route of the project — pages, htmx fragments, the
API, exports, calendar feeds, allauth, the admin site — requested as each of nine
roles, and the outcome compared with one table, EXPECTED[(route, role)].

Routes come from the URL resolver (tests/support/urlwalk.py) and the API's operations from
the OpenAPI schema — each API route is requested by every method the schema gives it,
writes included (a route's GET under its own key, its other methods as "key METHOD"):
a route or operation the table does not decide fails
`test_every_route_and_api_operation_is_in_the_table`, naming it. Object routes are
requested with objects of the rep's circle and of the other team (variants, see
tests/support/authz.py), so the table says per object who may reach it. Routes that
only accept POST are POSTed (empty body, inside a rolled-back savepoint): the outcome
is then the access check's (404 for an object one may not see), or what the view
does with empty input for those who pass it.

Outcomes: a status code, or `login` (302 to the sign-in page), `admin-login` (302 to
the admin site's sign-in: nobody is sent there now, the admin site being a 404 to
all but staff), `redirect` (any other 302). The project's own pages are
requested twice, plainly and as htmx does (HX-Request): the same outcome, except that
an action which redirects a page may answer htmx with its fragment (200).

Roles: anonymous, rep, peer (same team), manager (the rep's), other_manager (another
team's lead), head (manager of managers), hr, admin (programme admin, staff), gone (a
former rep, deactivated with a session, API token and calendar feed from before: the
session is sent on pages, the token on the API).

Every response is also read for the words planted in the firewall world (private
notes, developmental feedback, pair notes, shared notes, scorecards, evaluative
words): a marker shown to a role outside its circle fails the test.

With TRUST_REPORT_DIR set, the test writes its numbers to
$TRUST_REPORT_DIR/authorization.json for bin/trust-report."""

import functools
import json
import os
import re
import time
from pathlib import Path

import pytest
from django.test import Client
from django.urls import resolve
from django.urls.exceptions import Resolver404

from tests.support.authz import LOGIN, REDIRECT, ROLES, Walker, matrix_build, quiet
from tests.support.urlwalk import admin_fill, routes
from tests.support.world import world  # noqa: F401 - the fixture

OBJECT_KIND = {
    "feedback": [
        "feedback:feedback_detail",
        "feedback:feedback_acknowledge",
        "feedback:feedback_share",
        "feedback:feedback_unshare",
        "api:feedback-detail",
        "api:feedback-acknowledge",
        "api:feedback-share",
        "api:feedback-unshare",
    ],
    "request": [
        "feedback:feedback_request_detail",
        "feedback:feedback_request_answer",
        "feedback:feedback_request_decline",
        "api:feedback-request-detail",
        "api:feedback-request-answer",
        "api:feedback-request-decline",
    ],
    "session": [
        "coaching:session_detail",
        "coaching:session_prepare",
        "coaching:session_notes_save",
        "coaching:session_notes_live",
        "coaching:private_note_save",
        "coaching:agenda_add",
        "coaching:commitment_add",
        "coaching:session_held",
        "coaching:session_rating",
        "coaching:session_cancel",
        "coaching:session_reschedule",
        "cadence:session_calendar",
        "coaching:call_review_scoring",
        "api:session-detail",
        "api:session-cancel",
        "api:session-held",
        "api:session-notes",
        "api:session-private-note",
        "api:session-rating",
        "api:session-reschedule",
        "api:session-since-last",
    ],
    "agenda": ["coaching:agenda_toggle", "coaching:agenda_delete", "api:agenda-item-detail"],
    "commitment": [
        "coaching:commitment_close",
        "coaching:commitment_reopen",
        "api:commitment-detail",
        "api:commitment-close",
        "api:commitment-reopen",
    ],
    "plan": [
        "cadence:plan_edit",
        "cadence:plan_pause",
        "cadence:plan_end",
        "cadence:plan_restart",
        "cadence:programme_plan",
        "api:plan-detail",
        "api:plan-end",
        "api:plan-restart",
    ],
    "focus": ["api:focus-area-detail", "coaching:focus_area_edit", "coaching:focus_area_end"],
    "policy": ["cadence:policy_edit", "api:cadence-policy-detail"],
    "channel": [
        "notifications:channel_change",
        "notifications:channel_switch",
        "notifications:channel_test",
        "notifications:channel_remove",
        "api:team-channel-detail",
        "api:team-channel-test",
    ],
    "closure": ["cadence:closure_remove", "api:closed-day-detail"],
    "call": ["scorecards:call_detail", "scorecards:call_score", "api:recorded-call-detail"],
    "round": [
        "scorecards:round_detail",
        "scorecards:round_scorecard_save",
        "scorecards:round_decline",
        "scorecards:round_close",
        "api:scoring-round-detail",
        "api:scoring-round-scorecard",
        "api:scoring-round-decline",
        "api:scoring-round-close",
    ],
    "scorecard": ["api:scorecard-detail"],
    "template": [
        "scorecards:template_detail",
        "scorecards:template_edit",
        "scorecards:template_retire",
        "api:scorecard-template-detail",
        "api:scorecard-template-retire",
        "api:scorecard-template-restore",
    ],
    "team": [
        "dashboards:hr_team",
        "api:health-team",
        "coaching:team_skills",
        "cadence:team_rollout",
        "cadence:team_policy_apply",
        "cadence:team_policy_end",
        "api:team-cadence-detail",
        "api:team-cadence-preview",
        "cadence:rollout_tick",
        "cadence:rollout_untick",
        "learning:team_playbooks",
        "api:team-playbook-detail",
        "api:team-detail",
        "api:team-members",
        "people:team_detail",
        "people:team_member_add",
    ],
    "rollout": ["api:rollout-detail", "api:rollout-tick", "api:rollout-untick"],
    "import": [
        "people:people_import_detail",
        "people:people_import_apply",
        "people:people_import_discard",
        "api:people-import-detail",
        "api:people-import-apply",
        "api:people-import-discard",
    ],
    "diagnosis": ["api:diagnosis-detail"],
    "goal": [
        "coaching:goal_edit",
        "coaching:goal_close",
        "coaching:goal_reopen",
        "api:goal-detail",
        "api:goal-close",
        "api:goal-reopen",
    ],
    "prompt": [
        "api:prompt-detail",
        "coaching:prompt_edit",
        "coaching:prompt_retire",
        "coaching:prompt_restore",
    ],
    "pair": [
        "peers:pair_detail",
        "peers:pair_accept",
        "peers:pair_decline",
        "peers:pair_leave",
        "peers:pair_end",
        "peers:pair_agreement",
        "peers:pair_note_add",
        "peers:pair_habit_add",
        "api:peer-pair-detail",
        "api:peer-pair-accept",
        "api:peer-pair-decline",
        "api:peer-pair-leave",
        "api:peer-pair-end",
        "api:peer-pair-notes",
        "api:peer-pair-habits",
    ],
    "habit": [
        "peers:habit_retire",
        "peers:habit_check_in",
        "api:pair-habit-detail",
        "api:pair-habit-retire",
        "api:pair-habit-check-ins",
    ],
    "experiment": [
        "learning:experiment_detail",
        "learning:experiment_start",
        "learning:experiment_finish",
        "learning:experiment_drop",
        "api:experiment-detail",
        "api:experiment-start",
        "api:experiment-finish",
        "api:experiment-drop",
    ],
    "learning": [
        "learning:learning_detail",
        "learning:learning_edit",
        "learning:learning_unpublish",
        "api:learning-detail",
    ],
    "module": ["api:playbook-module-detail"],
    "win": ["api:win-detail"],
    "term": ["api:interpretive-term-detail"],
    "person": [
        "coaching:person_detail",
        "coaching:person_goal_add",
        "coaching:person_skills",
        "coaching:diagnosis_new",
        "people:programme_person",
        "people:programme_person_manager",
        "people:programme_person_appointments",
        "people:programme_person_deactivate",
        "people:programme_person_reactivate",
        "people:programme_person_welcome",
        "api:person-detail",
        "api:person-appointments",
        "api:person-deactivate",
        "api:person-reactivate",
        "api:person-welcome",
    ],
    "manager": ["dashboards:team_manager"],
}
PICK_SOURCES = (
    "colleagues",
    "me-and-below",
    "below",
    "managers-below",
    "reviewable",
    "share",
    "pairable",
    "team-leads",
    "team-joiners",
    "managers",
    "anyone",
    "raters",
    "teams",
    "unconnected-teams",
)
ROUTE_KIND = {key: kind for kind, keys in OBJECT_KIND.items() for key in keys}


def variants(route, matrix):
    """Variant name → parameter values for `route`."""
    if not route.params:
        return {"": {}}
    key = route.key
    objs = matrix.objects
    if key in ROUTE_KIND:
        return {name: {route.params[0]: pk} for name, pk in objs[ROUTE_KIND[key]].items()}
    p = matrix.world.people
    if key == "api:dashboards-team-manager":
        return {
            "manager": {"manager_id": p["manager"].pk},
            "other": {"manager_id": p["other_manager"].pk},
        }
    if key in ("api:team-member", "people:team_member_remove"):
        # A team and a person: Rita is on Mia's team, Olga on none.
        return {
            "mine": {route.params[0]: objs["team"]["mine"], route.params[1]: p["rep"].pk},
            "other": {route.params[0]: objs["team"]["other"], route.params[1]: p["other_rep"].pk},
        }
    if key == "cadence:digest_detail":
        return {"": {"period": "2026-W10"}}  # the world's digests: Mia's and Hana's
    if key == "people:people_pick":
        return {name: {"source": name} for name in PICK_SOURCES}
    if key == "cadence:calendar_feed":
        return {name: {"token": t} for name, t in objs["feed"].items()}
    from dashboards.exports import ORGANISATION_TABLES, TEAM_TABLES

    if key == "dashboards:hr_export":
        return {"": {"table": next(iter(ORGANISATION_TABLES))}}
    if key == "dashboards:hr_team_export":
        return {n: {"pk": pk, "table": next(iter(TEAM_TABLES))} for n, pk in objs["team"].items()}
    if key in ("openid_connect_login", "openid_connect_callback"):
        return {"": {"provider_id": "sso"}}
    if key == "account_confirm_email":
        from allauth.account.models import EmailAddress, EmailConfirmationHMAC

        return {"rep": {"key": EmailConfirmationHMAC(EmailAddress.objects.get(user=p["rep"])).key}}
    if key == "account_reset_password_from_key":
        from allauth.account.forms import default_token_generator
        from allauth.account.utils import user_pk_to_url_str

        return {
            "rep": {
                "uidb36": user_pk_to_url_str(p["rep"]),
                "key": default_token_generator.make_token(p["rep"]),
            }
        }
    rows = admin_fill(route, every_object=lambda model, page: False)
    if rows:
        return {"" if len(rows) == 1 else str(i): v for i, v in enumerate(rows[:1])}
    raise KeyError(key)


# --- The table ------------------------------------------------------------------------

SIGNED_IN = ("rep", "peer", "manager", "other_manager", "head", "hr", "admin")
ALL = SIGNED_IN


def page(*who, ok="200", no="404", **special) -> dict:
    """A page: signed out (and the deactivated, whose session no longer counts) →
    sign-in; `who` → `ok`; other signed-in people → `no` (404: not theirs to know of)."""
    return {
        "anonymous": LOGIN,
        "gone": LOGIN,
        **{role: ok if role in who else no for role in SIGNED_IN},
        **special,
    }


def api(*who, ok="200", no="404", **special) -> dict:
    """An API endpoint: without valid credentials (the deactivated person's old token
    included) → 401; otherwise as `page`."""
    return {**page(*who, ok=ok, no=no, **special), "anonymous": "401", "gone": "401"}


def public(ok="200", **special) -> dict:
    return {role: ok for role in ROLES} | special


def signed_out_only(ok="200", signed_in=REDIRECT) -> dict:
    """allauth's pages for the signed out: a signed-in person is sent home."""
    return {role: signed_in for role in SIGNED_IN} | {"anonymous": ok, "gone": ok}


def write(*visible, may=(), ok="200", **special) -> dict:
    """An API write to an object: those in `may` (and able to see it) → `ok`; those who
    see the object but may not change it → 403; others 404; no credentials → 401."""
    return api(*visible, ok="403", **{r: ok for r in may if r in visible}, **special)


CONFIG_ONLY = {role: "403" for role in SIGNED_IN if role != "admin"}


def owned(circles: dict, make, owner: str, ok: str) -> dict:
    """Changed by its owner alone (`ok`, in the variant they are in); others who may
    see it are refused (403)."""
    return {
        v: make(*c, ok="403", **({owner: ok} if owner in c else {})) for v, c in circles.items()
    }


def each(circles: dict, make, **kw) -> dict:
    """An object route: per variant, `make(*circle)`."""
    return {variant: make(*circle, **kw) for variant, circle in circles.items()}


# Who may see which object (variants made in tests/support/authz.py).
SESSION = {
    "rep": ("rep", "manager", "head"),  # the rep's 1:1: both, and the chain above
    "review": ("manager", "head"),  # the head's monthly review of the manager
    "other": ("other_manager", "head"),  # the other team's 1:1
}
# Who runs each of those sessions: the others who see it are told they may not
# cancel or move it (403), with no form.
RUNS = {"rep": "manager", "review": "head", "other": "other_manager"}
REP_OR_OTHER = {"rep": ("rep", "manager", "head"), "other": ("other_manager", "head")}
# The rep's recorded call: the other manager rates it in the head's calibration.
CALL = {"rep": ("rep", "manager", "head", "other_manager"), "other": ("other_manager", "head")}
# The coach's, those above, and programme admins (Programme → Plans).
PLAN = {"rep": ("manager", "head", "admin"), "other": ("other_manager", "head", "admin")}
PLAN_READ = {"rep": ("rep", *PLAN["rep"]), "other": PLAN["other"]}  # and the coachee
RATERS = {
    "coach": ("rep", "manager"),
    "self": ("rep",),
    "calibration": ("manager", "other_manager"),
}
ROUND = {
    "coach": ("rep", "manager", "head"),
    "self": ("rep", "manager", "head"),
    "calibration": ("manager", "other_manager", "head"),  # raters and who opened it
}
FEEDBACK = {
    "dev": ("rep", "manager"),  # developmental: recipient and author only
    "ev": ("rep", "manager", "head", "hr"),  # evaluative: and the chain, and HR
    "other": ("other_manager",),  # the other team's, by its lead
}
REQUEST = {
    "rep": ("rep", "peer", "manager", "other_manager"),  # requester and those asked
    "anon": ("rep", "peer", "manager"),  # the manager's anonymous upward request
}
ASKED = {"rep": ("peer", "manager", "other_manager"), "anon": ("rep", "peer")}
COACHEE = {"rep": ("rep",), "review": ("manager",), "other": ()}  # who rates the session
GOAL = {"rep": ("rep", "manager", "head"), "manager": ("manager", "head")}
PAIR = {"mine": ("rep", "peer", "manager"), "trio": ("peer", "admin")}  # members, who formed it
EXPERIMENT = {"rep": ("rep", "peer", "manager", "head"), "other": ("other_manager", "head")}
LEARNING = {"org": ALL, "team": ("rep", "peer", "manager")}
DIAGNOSIS = {"rep": ("manager", "head"), "other": ("other_manager", "head")}
PERSON = {"rep": ("manager", "head"), "other_rep": ("other_manager", "head")}
PERSON_RECORD = {"rep": ("admin",), "other_rep": ("admin",)}  # People under Programme
TEAM_LEAD = {"mine": ("manager", "head"), "other": ("other_manager", "head")}
TEAM_HEALTH = {
    "mine": ("manager", "head", "hr", "admin"),
    "other": ("other_manager", "head", "hr", "admin"),
}
ANYONE = {"any": ALL}

# Routes that only take POST: requested with POST (empty body, rolled back).
POSTED: set[str] = set()


def post(key: str, spec: dict) -> tuple[str, dict]:
    POSTED.add(key)
    return key, spec


ROUTES: dict[str, dict] = dict(
    [
        # Home pages and roles' landing pages.
        ("dashboards:home", page(*ALL, ok=REDIRECT)),
        ("dashboards:home_rep", page(*ALL)),
        ("dashboards:home_manager", page("manager", "other_manager", "head")),
        (
            "dashboards:team_manager",
            {
                "manager": page("head", manager=REDIRECT),
                "other": page("head", other_manager=REDIRECT),
            },
        ),
        ("dashboards:home_hr", page("hr", "admin")),
        ("dashboards:hr_team", each({"mine": ("hr", "admin"), "other": ("hr", "admin")}, page)),
        ("dashboards:hr_export", page("hr", "admin")),
        (
            "dashboards:hr_team_export",
            each({"mine": ("hr", "admin"), "other": ("hr", "admin")}, page),
        ),
        ("dashboards:hr_skills", page("hr", "admin")),
        ("dashboards:team_skills_below", page("manager", "other_manager", "head")),
        ("dashboards:hr_skills_export", page("hr", "admin")),
        ("dashboards:hr_skills_lift_export", page("hr", "admin")),
        ("dashboards:hr_peers", page("hr", "admin")),
        ("dashboards:hr_peers_export", page("hr", "admin")),
        ("dashboards:hr_feedback", page("hr", "admin")),
        ("dashboards:hr_feedback_export", page("hr", "admin")),
        ("dashboards:home_programme", page("admin")),
        # A fresh install's superuser, while nobody runs the programme; here someone does
        # (tests/dashboards/test_first_steps.py has the superuser and the POST).
        ("people:first_programme_admin", page()),
        # Importing people: programme admins alone. Applying or discarding the ready
        # import redirects to it.
        ("people:people_import_list", page("admin")),
        ("people:people_import_example", page("admin")),
        ("people:people_import_detail", {"ready": page("admin")}),
        post("people:people_import_apply", {"ready": page("admin", ok=REDIRECT)}),
        post("people:people_import_discard", {"ready": page("admin", ok=REDIRECT)}),
        # The person's own pages.
        ("people:profile", page(*ALL)),
        ("people:my_data", page(*ALL)),
        # The people search, asked without its ?name=&id=: 400 for those who may
        # search the source; "share" names no item, so it is nobody's.
        (
            "people:people_pick",
            {
                "colleagues": page(*ALL, ok="400"),
                "me-and-below": page(*ALL, ok="400"),
                "below": page("manager", "other_manager", "head", ok="400"),
                "managers-below": page("head", ok="400"),
                "reviewable": page("manager", "other_manager", "head", "hr", ok="400"),
                "share": page(),
                "pairable": page("manager", "other_manager", "head", "admin", ok="400"),
                "team-leads": page("admin", ok="400"),
                "team-joiners": page(),  # names no team: nobody's to search
                "managers": page("admin", ok="400"),
                "anyone": page("admin", ok="400"),
                "raters": page("head", "admin", ok="400"),  # who may open a calibration
                "teams": page("admin", ok="400"),  # a focus area's teams
                "unconnected-teams": page("admin", ok="400"),  # a team channel's team
            },
        ),
        ("people:my_data_download", page(*ALL)),
        ("people:api_token", page(*ALL)),
        post("people:api_token_create", page(*ALL)),  # the new token, shown once
        post("people:api_token_revoke", page(*ALL, ok=REDIRECT)),
        ("cadence:calendar_settings", page(*ALL)),
        post("cadence:calendar_feed_create", page(*ALL, ok=REDIRECT)),
        post("cadence:calendar_feed_revoke", page(*ALL, ok=REDIRECT)),
        # The feed is public, authenticated by its token: a deactivated person's is dead.
        (
            "cadence:calendar_feed",
            {"rep": public(), "gone": public("404"), "unknown": public("404")},
        ),
        ("cadence:session_calendar", each(SESSION, page)),
        ("notifications:notification_list", page(*ALL)),
        post("notifications:notifications_read", page(*ALL, ok="400")),  # which ones: required
        ("cadence:digest_detail", page("manager", "head")),  # a digest is its recipient's alone
        post("notifications:notification_preferences", page(*ALL, ok=REDIRECT)),
        # Scorecards.
        ("scorecards:scorecard_home", page(*ALL)),
        ("scorecards:call_list", page(*ALL)),
        ("scorecards:call_new", page(*ALL)),
        ("scorecards:call_detail", each(CALL, page)),
        post("scorecards:call_score", each(CALL, page, ok="400")),
        ("scorecards:round_detail", each(ROUND, page)),
        post("scorecards:round_scorecard_save", each(RATERS, page, ok="400")),  # raters only
        post("scorecards:round_decline", each(ROUND, page, ok="400")),
        (
            "scorecards:round_close",  # whoever opened the round (the calibration: closed already)
            {
                "coach": page(*ROUND["coach"], ok="400", manager=REDIRECT),
                "self": page(*ROUND["self"], ok="400", rep=REDIRECT),
                "calibration": page(*ROUND["calibration"], ok="400"),
            },
        ),
        ("scorecards:calibration_list", page(*ALL)),
        ("scorecards:calibration_new", page("head", "admin")),
        ("coaching:prompt_list", page("admin")),
        ("coaching:prompt_new", page("admin")),
        ("coaching:prompt_edit", {"any": page("admin")}),
        # The first seeded question is in use: retiring it works, restoring it is a 400.
        post("coaching:prompt_retire", {"any": page("admin", ok=REDIRECT)}),
        post("coaching:prompt_restore", {"any": page("admin", ok="400")}),
        ("coaching:focus_area_list", page("admin")),
        ("coaching:focus_area_new", page("admin")),
        ("coaching:focus_area_edit", {"any": page("admin")}),
        post("coaching:focus_area_end", {"any": page("admin", ok=REDIRECT)}),
        ("scorecards:template_list", page(*ALL)),
        ("scorecards:template_new", page("admin")),
        ("scorecards:template_detail", {"walk": page(*ALL)}),
        ("scorecards:template_edit", {"walk": page("admin")}),
        post("scorecards:template_retire", {"walk": page("admin", ok="400")}),
        ("coaching:skills_mine", page(*ALL)),
        (
            "coaching:person_skills",
            {"rep": page("rep", "manager", "head"), "other_rep": page("other_manager", "head")},
        ),
        ("coaching:team_skills", each(TEAM_HEALTH, page)),
        # Sessions.
        ("coaching:session_list", page(*ALL)),
        ("coaching:session_new", page(*ALL)),
        ("coaching:session_detail", each(SESSION, page)),
        # The coachee's: others who may see the session are sent to it.
        (
            "coaching:session_prepare",
            {
                "rep": page("rep", "manager", "head", manager=REDIRECT, head=REDIRECT),
                "review": page("manager", "head", head=REDIRECT),
                "other": page("other_manager", "head", other_manager=REDIRECT, head=REDIRECT),
            },
        ),
        post("coaching:session_notes_save", each(SESSION, page, ok="400")),
        ("coaching:session_notes_live", each(SESSION, page)),  # the notes poll: whoever sees them
        post("coaching:private_note_save", each(SESSION, page, ok="400")),
        post("coaching:agenda_add", each(SESSION, page, ok="400")),
        post("coaching:commitment_add", each(SESSION, page, ok="400")),
        post(
            "coaching:session_held",  # refused as the API refuses: the rep's 1:1 and the review are
            # held already, the other 1:1 has not started yet
            {
                "rep": page(*SESSION["rep"], ok="403", manager="400"),
                "review": page(*SESSION["review"], ok="403", head="400"),
                "other": page(*SESSION["other"], ok="403", other_manager="400"),
            },
        ),
        (
            "coaching:session_rating",  # the coachee rates; others who see the session may not
            {
                "rep": page(*SESSION["rep"], ok="403", rep="400"),
                "review": page(*SESSION["review"], ok="403", manager="400"),
                "other": page(*SESSION["other"], ok="403"),
            },
        ),
        post("coaching:call_review_scoring", each(SESSION, page, ok="400")),
        *(
            (
                name,
                {key: page(*who, ok="403", **{RUNS[key]: "200"}) for key, who in SESSION.items()},
            )
            for name in ("coaching:session_cancel", "coaching:session_reschedule")
        ),
        post("coaching:agenda_toggle", each(REP_OR_OTHER, page, ok=REDIRECT, head="400")),
        (
            "coaching:agenda_delete",  # its author (the rep; the other team's rep)
            {
                "rep": page(*REP_OR_OTHER["rep"], ok="400", rep=REDIRECT),
                "other": page(*REP_OR_OTHER["other"], ok="400"),
            },
        ),
        ("coaching:commitment_list", page(*ALL)),
        post("coaching:commitment_close", each(REP_OR_OTHER, page, ok="400")),
        post("coaching:commitment_reopen", each(REP_OR_OTHER, page, ok="400")),
        # People, goals, diagnoses.
        (
            "coaching:person_detail",
            {
                "rep": page("manager", "head", rep=REDIRECT),
                "other_rep": page("other_manager", "head"),
            },
        ),
        post(
            "coaching:person_goal_add",
            {
                "rep": page("rep", "manager", "head", ok="400"),
                "other_rep": page(*PERSON["other_rep"], ok="400"),
            },
        ),
        ("coaching:diagnosis_new", each(PERSON, page)),
        ("coaching:goal_list", page(*ALL)),
        ("coaching:goal_edit", each(GOAL, page)),
        post("coaching:goal_close", each(GOAL, page, ok="400")),
        post("coaching:goal_reopen", each(GOAL, page, ok="400")),
        # Peer pairs.
        ("peers:pair_list", page(*ALL)),
        ("peers:pair_new", page("manager", "other_manager", "head", "admin")),
        ("peers:pair_overview", page("admin")),
        # Anyone may ask for a peer (the empty form asks with no note) or withdraw.
        post("peers:peer_request_set", page(*ALL, ok=REDIRECT)),
        post("peers:peer_request_withdraw", page(*ALL, ok=REDIRECT)),
        ("peers:pair_detail", each(PAIR, page)),
        post("peers:pair_accept", each(PAIR, page, ok="400")),
        post("peers:pair_decline", each(PAIR, page, ok="400")),
        (
            "peers:pair_leave",  # members leave; whoever formed it ends it
            {
                "mine": page(*PAIR["mine"], ok=REDIRECT, manager="400"),
                "trio": page(*PAIR["trio"], ok=REDIRECT, admin="400"),
            },
        ),
        (
            "peers:pair_end",  # whoever formed it, or any programme admin (who lists every pair)
            {
                "mine": page(*PAIR["mine"], "admin", ok="400", manager=REDIRECT, admin=REDIRECT),
                "trio": page(*PAIR["trio"], ok="400", admin=REDIRECT),
            },
        ),
        post("peers:pair_agreement", each(PAIR, page, ok="400")),
        post("peers:pair_note_add", each(PAIR, page, ok="400")),
        post("peers:pair_habit_add", each(PAIR, page, ok="400")),
        post(
            "peers:habit_retire", {"mine": page("rep", "peer", ok=REDIRECT, peer="400")}
        ),  # its owner
        post("peers:habit_check_in", {"mine": page("rep", "peer", ok="400")}),
        # Experiments, the library, playbooks.
        ("learning:experiment_list", page(*ALL)),
        ("learning:experiment_detail", each(EXPERIMENT, page)),
        # Its owner changes it; those who read it may not (403).
        post("learning:experiment_start", owned(EXPERIMENT, page, "rep", "400")),
        post("learning:experiment_finish", owned(EXPERIMENT, page, "rep", "400")),
        post("learning:experiment_drop", owned(EXPERIMENT, page, "rep", "400")),
        ("learning:library", page(*ALL)),
        ("learning:learning_new", page(*ALL)),
        ("learning:learning_detail", each(LEARNING, page)),
        # Editing: the author; those who may read it but not edit it are refused (403).
        (
            "learning:learning_edit",
            {"org": page("rep", no="403"), "team": page("rep", peer="403", manager="403")},
        ),
        post(
            "learning:learning_unpublish",
            {
                "org": page("rep", ok=REDIRECT, no="403"),
                "team": page("rep", ok=REDIRECT, peer="403", manager="403"),
            },
        ),
        ("learning:playbook_list", page(*ALL)),
        ("learning:team_playbooks", each(TEAM_LEAD, page)),
        # Cadence and install plans.
        ("cadence:my_cadence", page("rep", "peer", "manager", "other_manager", "head")),
        post("cadence:plan_edit", each(PLAN, page, ok="400")),
        post("cadence:plan_pause", each(PLAN, page, ok="400")),
        post("cadence:plan_end", each(PLAN, page, ok="400")),
        # The world's plans run: there is nothing to restart.
        post("cadence:plan_restart", each(PLAN, page, ok="400")),
        ("cadence:programme_plans", page("admin")),
        ("cadence:programme_plan", each({"rep": ("admin",), "other": ("admin",)}, page)),
        ("cadence:rollout_overview", page("head", "hr", "admin")),
        ("cadence:team_cadence", page("admin")),
        ("cadence:policy_new", page("admin")),
        ("people:team_list", page("admin")),
        post("people:team_new", page("admin", ok="400")),
        ("people:team_detail", {"mine": page("admin"), "other": page("admin")}),
        post(
            "people:team_member_add",
            {"mine": page("admin", ok="400"), "other": page("admin", ok="400")},
        ),
        # Rita is on Mia's team (taken off: back to the team's page); Olga is on none.
        post("people:team_member_remove", {"mine": page("admin", ok=REDIRECT), "other": page()}),
        ("cadence:policy_edit", {"any": page("admin")}),
        # People: an empty body clears the manager (Nobody) and the appointments (Rita
        # and Olga hold none: nothing changes); leaving needs a reason; both are here.
        ("people:programme_people", page("admin")),
        post("people:programme_person_new", page("admin", ok="400")),
        # Some of this world have never signed in: a welcome goes to them.
        post("people:programme_people_welcome", page("admin", ok=REDIRECT)),
        ("people:programme_person", each(PERSON_RECORD, page)),
        post(
            "people:programme_person_manager",
            each(PERSON_RECORD, page, ok=REDIRECT),
        ),
        post(
            "people:programme_person_appointments",
            each(PERSON_RECORD, page, ok=REDIRECT),
        ),
        post(
            "people:programme_person_deactivate",
            each(PERSON_RECORD, page, ok="400"),
        ),
        post(
            "people:programme_person_reactivate",
            each(PERSON_RECORD, page, ok=REDIRECT),
        ),
        post("people:programme_person_welcome", each(PERSON_RECORD, page, ok=REDIRECT)),
        # The world's one channel is switched off: testing it is refused; empty bodies
        # are refused too, and removing needs none.
        ("notifications:team_channels", page("admin")),
        # Email delivery: nothing has failed in this world, so sending again is refused.
        ("notifications:delivery", page("admin")),
        ("people:audit_log", page("admin")),
        post("notifications:delivery_retry", page("admin", ok="400")),
        post("notifications:channel_connect", page("admin", ok="400")),
        post("notifications:channel_change", {"any": page("admin", ok="400")}),
        post("notifications:channel_switch", {"any": page("admin", ok="400")}),
        post("notifications:channel_test", {"any": page("admin", ok="400")}),
        post("notifications:channel_remove", {"any": page("admin", ok=REDIRECT)}),
        # Closed days: an empty body is refused; opening the world's closure again needs none.
        ("cadence:closed_days", page("admin")),
        post("cadence:closure_new", page("admin", ok="400")),
        post("cadence:closure_remove", {"any": page("admin", ok=REDIRECT)}),
        # Both are a page before they write (GET): the preview needs a policy picked
        # (400); ending asks first, and Mia's team keeps no policy to end (400).
        (
            "cadence:team_policy_apply",
            {"mine": page("admin", ok="400"), "other": page("admin", ok="400")},
        ),
        ("cadence:team_policy_end", {"mine": page("admin", ok="400"), "other": page("admin")}),
        ("cadence:team_rollout", each(TEAM_HEALTH, page)),
        # Ticked by the team's lead alone; those who watch it get 404.
        post("cadence:rollout_tick", {"mine": page("manager", ok="400"), "other": page()}),
        post("cadence:rollout_untick", {"mine": page("manager", ok="400"), "other": page()}),
        # Feedback.
        ("feedback:feedback_mine", page(*ALL)),
        ("feedback:feedback_give", page(*ALL)),
        post("feedback:feedback_check", page(*ALL)),
        ("feedback:feedback_given", page(*ALL)),
        ("feedback:feedback_shared", page(*ALL)),
        ("feedback:feedback_inbox", page(*ALL)),
        ("feedback:wins", page(*ALL)),
        # Evaluative reviews: managers and HR, never the programme admin.
        ("feedback:feedback_reviews", page("manager", "other_manager", "head", "hr")),
        ("feedback:feedback_reviews_export", page("manager", "other_manager", "head", "hr")),
        ("feedback:feedback_detail", each(FEEDBACK, page)),
        # The recipient acknowledges, and shares developmental items (only).
        post(
            "feedback:feedback_acknowledge",
            {"dev": page("rep", ok=REDIRECT), "ev": page("rep", ok=REDIRECT), "other": page()},
        ),
        post(
            "feedback:feedback_share", {"dev": page("rep", ok="400"), "ev": page(), "other": page()}
        ),
        post(
            "feedback:feedback_unshare",
            {"dev": page("rep", ok="400"), "ev": page(), "other": page()},
        ),
        ("feedback:feedback_requests", page(*ALL)),
        ("feedback:feedback_request_new", page(*ALL)),
        ("feedback:feedback_request_detail", each(REQUEST, page)),
        # Those asked answer or decline (the other manager declined, the peer answered).
        post("feedback:feedback_request_answer", each(ASKED, page, ok="400")),
        post(
            "feedback:feedback_request_decline",
            {
                "rep": page(*ASKED["rep"], ok="400", manager=REDIRECT),
                "anon": page(*ASKED["anon"], ok="400"),
            },
        ),
        # Operations.
        ("healthz", public()),
        ("favicon", public(REDIRECT)),
        # allauth: sign-in, sign-out, passwords, MFA, SSO.
        ("account_login", signed_out_only()),
        ("account_logout", page(*ALL)),
        ("account_inactive", public()),
        ("account_signup", signed_out_only()),
        ("account_reauthenticate", page(*ALL)),
        ("account_email", page(*ALL)),
        ("account_email_verification_sent", public()),
        ("account_change_password", page(*ALL)),
        ("account_set_password", page(*ALL, ok=REDIRECT)),
        ("account_reset_password", public()),
        ("account_request_login_code", signed_out_only()),
        ("account_confirm_login_code", page(*ALL, ok=REDIRECT)),
        ("account_confirm_email", {"rep": public()}),
        ("account_reset_password_from_key_done", public()),
        ("account_reset_password_from_key", {"rep": public(REDIRECT)}),
        ("account_reset_password_done", public()),
        ("mfa_index", page(*ALL)),
        ("mfa_authenticate", page(*ALL, ok=REDIRECT)),
        ("mfa_reauthenticate", page(*ALL, ok=REDIRECT, rep="200")),  # the rep has MFA
        ("mfa_activate_totp", page(*ALL, ok=REDIRECT)),
        ("mfa_deactivate_totp", page(*ALL, ok="404")),  # nobody has TOTP
        ("mfa_view_recovery_codes", page("rep", ok=REDIRECT)),
        ("mfa_generate_recovery_codes", page(*ALL, ok=REDIRECT)),
        ("mfa_download_recovery_codes", page("rep", ok=REDIRECT)),
        ("socialaccount_login_cancelled", public()),
        ("socialaccount_login_error", page(*ALL, ok="401")),
        ("socialaccount_signup", public(LOGIN)),
        ("socialaccount_connections", page(*ALL)),
        ("accounts/social/login/cancelled/", page(*ALL, ok=REDIRECT)),
        ("accounts/social/login/error/", page(*ALL, ok=REDIRECT)),
        ("accounts/social/signup/", page(*ALL, ok=REDIRECT)),
        ("accounts/social/connections/", page(*ALL, ok=REDIRECT)),
        ("openid_connect_login", public()),
        ("openid_connect_callback", public("401")),
        # The API: who may call what, with which objects.
        ("api:me", api(*ALL)),
        ("api:me-data", api(*ALL)),
        # One's own working hours: everyone signed in; a PUT with nothing is bad input.
        ("api:me-working-hours", api(*ALL)),
        ("api:me-working-hours PUT", api(*ALL, ok="400")),
        ("api:scorecard-template-list", api(*ALL)),
        ("api:scorecard-template-detail", {"walk": api(*ALL)}),
        ("api:scorecard-template-restore", {"walk": api("admin", no="403")}),
        ("api:scorecard-template-retire", {"walk": api("admin", no="403")}),
        ("api:recorded-call-list", api(*ALL)),
        ("api:recorded-call-detail", each(CALL, api)),
        ("api:scoring-round-list", api(*ALL)),
        ("api:scoring-round-detail", each(ROUND, api)),
        (
            "api:scoring-round-close",  # whoever opened it; others who see it: 403
            {
                "coach": api(*ROUND["coach"], ok="403", manager="200"),
                "self": api(*ROUND["self"], ok="403", rep="200"),
                "calibration": api(*ROUND["calibration"], ok="403", head="400"),
            },
        ),
        (
            "api:scoring-round-decline",  # raters; others who see it: 403
            {
                "coach": api(*ROUND["coach"], ok="400", head="403"),
                "self": api(*ROUND["self"], ok="400", manager="403", head="403"),
                "calibration": api(*ROUND["calibration"], ok="400", head="403"),
            },
        ),
        (
            "api:scoring-round-scorecard",
            {v: write(*ROUND[v], may=RATERS[v], ok="400") for v in ROUND},
        ),
        ("api:scorecard-list", api(*ALL)),
        ("api:scorecard-detail", {"coach": api("rep", "manager", "head")}),
        ("api:skill-trend-list", api(*ALL, ok="400")),  # needs its filters
        ("api:session-list", api(*ALL)),
        ("api:session-detail", each(SESSION, api)),
        ("api:session-cancel", each(SESSION, api, ok="400")),
        (
            "api:session-held",  # as the page (the other 1:1 has not started yet)
            {
                "rep": api(*SESSION["rep"], ok="403", manager="400"),
                "review": api(*SESSION["review"], ok="403", head="400"),
                "other": api(*SESSION["other"], ok="403", other_manager="400"),
            },
        ),
        ("api:session-reschedule", each(SESSION, api, ok="400")),
        ("api:session-notes", each(SESSION, api)),
        (
            "api:session-since-last",  # a 1:1's coach and coachee; not the chain above
            {"rep": api("rep", "manager"), "review": api(), "other": api("other_manager")},
        ),
        (
            "api:session-private-note",  # one's own private note; the chain may not
            {
                "rep": api("rep", "manager", head="403"),
                "review": api("manager", "head"),
                "other": api("other_manager", head="403"),
            },
        ),
        (
            "api:session-rating",  # one's own rating of a session one was coached in
            {"rep": api("rep"), "review": api("manager"), "other": api()},
        ),
        ("api:agenda-item-list", api(*ALL)),
        ("api:agenda-item-detail", each(REP_OR_OTHER, api)),
        ("api:commitment-list", api(*ALL)),
        ("api:commitment-close-rate", api(*ALL)),
        ("api:commitment-detail", each(REP_OR_OTHER, api)),
        ("api:commitment-close", each(REP_OR_OTHER, api, ok="400")),
        ("api:commitment-reopen", each(REP_OR_OTHER, api, ok="400")),
        ("api:goal-list", api(*ALL)),
        ("api:goal-detail", each(GOAL, api)),
        ("api:goal-close", each(GOAL, api, ok="400")),
        ("api:goal-reopen", each(GOAL, api, ok="400")),
        ("api:focus-area-list", api(*ALL)),
        ("api:focus-area-detail", each(ANYONE, api)),
        ("api:prompt-list", api(*ALL)),
        ("api:prompt-detail", each(ANYONE, api)),
        ("api:peer-pair-list", api(*ALL)),
        ("api:peer-pair-candidates", api("manager", "other_manager", "head", "admin")),
        # One's own request for a peer: nobody here has asked (404) until they PUT.
        ("api:peer-request", api()),
        ("api:peer-request PUT", api(*ALL)),
        ("api:peer-request DELETE", api()),
        ("api:peer-pair-overview", api("admin")),
        ("api:peer-pair-detail", each(PAIR, api)),
        # Whoever formed a pair sees it but is not in it: refused (403) what members do.
        *(
            (
                key,
                {
                    "mine": api(*PAIR["mine"], ok="400", manager="403"),
                    "trio": api(*PAIR["trio"], ok="400", admin="403"),
                },
            )
            for key in ("api:peer-pair-accept", "api:peer-pair-decline")
        ),
        (
            "api:peer-pair-end",  # as the page (the admin: no body for a pair it cannot open)
            {
                "mine": api(*PAIR["mine"], "admin", ok="403", manager="200", admin="204"),
                "trio": api(*PAIR["trio"], ok="403", admin="200"),
            },
        ),
        (
            "api:peer-pair-leave",
            {
                "mine": api(*PAIR["mine"], ok="200", manager="403"),
                "trio": api(*PAIR["trio"], ok="200", admin="403"),
            },
        ),
        ("api:peer-pair-habits", each(PAIR, api)),
        ("api:peer-pair-notes", each(PAIR, api)),  # words for members only (markers)
        ("api:pair-habit-list", api(*ALL)),
        ("api:pair-habit-detail", {"mine": api("rep", "peer")}),
        ("api:pair-habit-check-ins", {"mine": api("rep", "peer")}),
        ("api:pair-habit-retire", {"mine": api("rep", "peer", ok="200", peer="403")}),
        ("api:experiment-list", api(*ALL)),
        ("api:experiment-detail", each(EXPERIMENT, api)),
        ("api:experiment-drop", owned(EXPERIMENT, api, "rep", "400")),
        ("api:experiment-finish", owned(EXPERIMENT, api, "rep", "400")),
        ("api:experiment-start", owned(EXPERIMENT, api, "rep", "400")),
        ("api:learning-list", api(*ALL)),
        ("api:learning-detail", each(LEARNING, api)),
        ("api:playbook-module-list", api(*ALL)),
        ("api:playbook-module-detail", each(ANYONE, api)),
        ("api:team-playbook-list", api(*ALL)),
        ("api:team-playbook-detail", each(TEAM_LEAD, api)),
        ("api:diagnosis-list", api(*ALL)),
        ("api:diagnosis-detail", each(DIAGNOSIS, api)),
        ("api:feedback-review-export", api("manager", "other_manager", "head", "hr")),
        ("api:feedback-list", api(*ALL)),
        ("api:feedback-detail", each(FEEDBACK, api)),
        (
            "api:feedback-acknowledge",
            {
                "dev": write(*FEEDBACK["dev"], may=("rep",)),
                "ev": write(*FEEDBACK["ev"], may=("rep",)),
                "other": write(*FEEDBACK["other"]),
            },
        ),
        ("api:feedback-share", each(FEEDBACK, api, ok="400")),
        ("api:feedback-unshare", each(FEEDBACK, api, ok="400")),
        ("api:feedback-request-list", api(*ALL)),
        ("api:feedback-request-detail", each(REQUEST, api)),
        ("api:feedback-request-answer", each(REQUEST, api, ok="400")),
        (
            "api:feedback-request-decline",
            {
                "rep": api(*REQUEST["rep"], ok="400", rep="403", manager="200"),
                "anon": api(*REQUEST["anon"], ok="400", manager="403"),
            },
        ),
        ("api:feedback-inbox-list", api(*ALL)),
        ("api:feedback-review-list", api("manager", "other_manager", "head", "hr")),
        ("api:win-list", api(*ALL)),
        ("api:win-detail", {"mine": api("rep", "peer", "manager")}),
        ("api:interpretive-term-list", api(*ALL)),
        ("api:interpretive-term-detail", each(ANYONE, api)),
        # Plans: the list is the plans one runs (empty for most); a plan is read by its
        # coach, its coachee and those above the coach, changed by the coach and those
        # above (the coachee gets 404, as on the page) — and read and changed by programme
        # admins, whose list is every plan. Empty bodies change nothing: 400.
        ("api:plan-list", api(*ALL)),
        ("api:plan-detail", each(PLAN_READ, api)),
        ("api:plan-detail PATCH", each(PLAN, api, ok="400")),
        ("api:plan-end", each(PLAN, api, ok="400")),
        ("api:plan-restart", each(PLAN, api, ok="400")),  # they run: nothing to restart
        ("api:plan-programme", api("admin")),
        # One's own notifications and preferences; an empty mark-read marks them all.
        ("api:notification-list", api(*ALL)),
        ("api:notification-read", api(*ALL)),
        ("api:notification-preferences", api(*ALL)),
        ("api:notification-preferences PUT", api(*ALL, ok="400")),  # every field needed
        ("api:notification-preferences PATCH", api(*ALL, ok="400")),
        ("api:rollout-list", api(*ALL)),
        ("api:cadence-policy-list", api(*ALL)),
        ("api:cadence-policy-detail", each(ANYONE, api)),
        ("api:team-cadence-list", api("admin")),
        ("api:team-channel-list", api("admin")),
        ("api:team-channel-list POST", api("admin", ok="400")),
        ("api:team-channel-detail", {"any": api("admin")}),
        ("api:team-channel-detail PATCH", {"any": api("admin")}),
        ("api:team-channel-detail DELETE", {"any": api("admin", ok="204")}),
        ("api:team-channel-test", {"any": api("admin", ok="400")}),
        ("api:closed-day-list", api("admin")),
        ("api:closed-day-list POST", api("admin", ok="400")),
        ("api:closed-day-detail", {"any": api("admin")}),
        ("api:closed-day-detail DELETE", {"any": api("admin", ok="204")}),
        ("api:team-cadence-detail", {"mine": api("admin"), "other": api("admin")}),
        # No policy named: 400.
        (
            "api:team-cadence-preview",
            {"mine": api("admin", ok="400"), "other": api("admin", ok="400")},
        ),
        # Empty bodies: no policy picked (400); the other team keeps one, so it ends.
        (
            "api:team-cadence-detail PUT",
            {"mine": api("admin", ok="400"), "other": api("admin", ok="400")},
        ),
        (
            "api:team-cadence-detail DELETE",
            {"mine": api("admin", ok="400"), "other": api("admin", ok="204")},
        ),
        # Teams: programme admins alone. Empty bodies: a new team needs a name, adding
        # needs a person (400); a change with nothing in it changes nothing. Taking Rita
        # off Mia's team is a 204; Olga is not on Omar's, so a 404 for the admin too.
        # People: empty bodies are refused (a new person, appointments, a reason) or
        # change nothing (PATCH); reactivating someone here changes nothing.
        ("api:person-list", api("admin")),
        ("api:person-list POST", api("admin", ok="400")),
        ("api:person-welcome-all", api("admin", ok="202")),
        ("api:person-detail", each(PERSON_RECORD, api)),
        ("api:person-detail PATCH", each(PERSON_RECORD, api)),
        ("api:person-appointments", each(PERSON_RECORD, api, ok="400")),
        ("api:person-deactivate", each(PERSON_RECORD, api, ok="400")),
        ("api:person-reactivate", each(PERSON_RECORD, api)),
        ("api:person-welcome", each(PERSON_RECORD, api, ok="202")),
        # Email delivery: an empty body sends every failed one again (none here).
        ("api:delivery", api("admin")),
        ("api:delivery-retry", api("admin")),
        ("api:audit-events", api("admin")),
        ("api:team-list", api("admin")),
        ("api:team-list POST", api("admin", ok="400")),
        ("api:team-detail", {"mine": api("admin"), "other": api("admin")}),
        ("api:team-detail PATCH", {"mine": api("admin"), "other": api("admin")}),
        ("api:team-members", {"mine": api("admin", ok="400"), "other": api("admin", ok="400")}),
        ("api:team-member", {"mine": api("admin", ok="204"), "other": api()}),
        ("api:rollout-detail", {"mine": api(*TEAM_HEALTH["mine"])}),
        ("api:rollout-tick", {"mine": api(*TEAM_HEALTH["mine"], ok="400")}),
        ("api:rollout-untick", {"mine": api(*TEAM_HEALTH["mine"], ok="400")}),
        ("api:dashboards-team", api("manager", "other_manager", "head")),
        (
            "api:dashboards-team-manager",
            {"manager": api("manager", "head"), "other": api("other_manager", "head")},
        ),
        ("api:dashboards-managers", api("head")),
        ("api:dashboards-growth", api(*ALL)),
        ("api:dashboards-skills", api("manager", "other_manager", "head")),
        ("api:health-organisation", api("hr", "admin")),
        ("api:health-teams", api("hr", "admin")),
        ("api:health-team", each({"mine": ("hr", "admin"), "other": ("hr", "admin")}, api)),
        ("api:health-attention", api("hr", "admin")),
        ("api:health-skills", api("hr", "admin")),
        ("api:health-peers", api("hr", "admin")),
        ("api:health-feedback", api("hr", "admin")),
        ("api:people-import-list", api("admin")),
        ("api:people-import-list POST", api("admin", ok="400")),  # no file
        ("api:people-import-detail", {"ready": api("admin")}),
        ("api:people-import-apply", {"ready": api("admin", ok="202")}),
        ("api:people-import-discard", {"ready": api("admin")}),
        ("api_schema", api(*ALL)),
        ("api_docs", api(*ALL)),
        # Writes through the API, from the schema: "route METHOD" (an empty body, rolled
        # back). Creating with an empty body is refused as bad input, after sign-in.
        *[
            (f"{key} POST", api(*ALL, ok="400", **special))
            for key, special in {
                "api:agenda-item-list": {},
                "api:commitment-list": {},
                "api:diagnosis-list": {},
                "api:experiment-list": {},
                "api:feedback-list": {},
                "api:feedback-request-list": {},
                "api:goal-list": {},
                "api:learning-list": {},
                "api:peer-pair-list": {},
                "api:recorded-call-list": {},
                "api:rollout-list": {},
                "api:scoring-round-list": {},
                "api:session-list": {},
                "api:win-list": {},
                # Programme configuration: programme admins only.
                "api:cadence-policy-list": CONFIG_ONLY,
                "api:focus-area-list": CONFIG_ONLY,
                "api:interpretive-term-list": CONFIG_ONLY,
                "api:playbook-module-list": CONFIG_ONLY,
                "api:prompt-list": CONFIG_ONLY,
                "api:scorecard-template-list": CONFIG_ONLY,
            }.items()
        ],
        *[
            (f"{key} {method}", each(ANYONE, write, may=("admin",), ok=ok))
            for key in (
                "api:focus-area-detail",
                "api:interpretive-term-detail",
                "api:playbook-module-detail",
                "api:prompt-detail",
            )
            for method, ok in (("PATCH", "200"), ("PUT", "400"), ("DELETE", "204"))
            if (key, method) != ("api:focus-area-detail", "DELETE")
        ],
        # A PATCH with nothing in it keeps the policy; a PUT needs a name and items.
        ("api:cadence-policy-detail PATCH", each(ANYONE, write, may=("admin",))),
        ("api:cadence-policy-detail PUT", each(ANYONE, write, may=("admin",), ok="400")),
        # A focus area in use cannot be deleted (409); only the admin gets that far.
        ("api:focus-area-detail DELETE", each(ANYONE, write, may=("admin",), ok="409")),
        ("api:scorecard-template-detail PATCH", {"walk": write(*ALL, may=("admin",), ok="400")}),
        # Where the body is checked before the rule, an empty one is a 400 for anyone who
        # may see the object; those who may not see it get 404 all the same.
        ("api:agenda-item-detail PATCH", each(REP_OR_OTHER, api, ok="400")),
        # Only whoever added an item removes it: the others who see it get 403 (a 400
        # until issue 57, docs/decisions/0031-403-versus-400.md).
        (
            "api:agenda-item-detail DELETE",
            {
                "rep": api(*REP_OR_OTHER["rep"], ok="403", rep="204"),
                "other": api(*REP_OR_OTHER["other"], ok="403"),
            },
        ),
        ("api:commitment-detail PATCH", each(REP_OR_OTHER, api, ok="400")),
        ("api:experiment-detail PATCH", owned(EXPERIMENT, api, "rep", "400")),
        ("api:feedback-detail PATCH", each(FEEDBACK, api, ok="405")),
        ("api:feedback-detail PUT", each(FEEDBACK, api, ok="405")),
        (
            "api:goal-detail PATCH",
            {
                "rep": api(*GOAL["rep"], ok="400"),
                "manager": api(*GOAL["manager"], ok="400"),
            },
        ),
        ("api:learning-detail PATCH", each(LEARNING, write, may=("rep",), ok="400")),
        ("api:learning-detail DELETE", each(LEARNING, write, may=("rep",), ok="204")),
        ("api:peer-pair-detail PATCH", each(PAIR, api, ok="400")),
        ("api:peer-pair-habits POST", each(PAIR, api, ok="400")),
        ("api:peer-pair-notes POST", each(PAIR, api, ok="400")),
        (
            "api:pair-habit-check-ins POST",
            {"mine": write("rep", "peer", may=("rep", "peer"), ok="400")},
        ),
        ("api:session-notes PUT", each(SESSION, api, ok="400")),
        ("api:session-private-note PUT", each(SESSION, api, ok="400")),
        (
            "api:session-rating PUT",
            {v: write(*SESSION[v], may=COACHEE[v], ok="400") for v in SESSION},
        ),
        (
            "api:session-rating DELETE",
            {v: write(*SESSION[v], may=COACHEE[v], ok="204") for v in SESSION},
        ),
        ("api:team-playbook-detail PUT", each(TEAM_LEAD, api, ok="400")),
    ]
)

# The admin site: what the programme admin may do per model (v view, a add, c change,
# d delete); everyone else is sent to the admin's sign-in (the signed out and the
# deactivated to the site's).
ADMIN_MODELS = {
    "people.user": "vac",
    "people.team": "vac",
    "people.auditevent": "v",
    "coaching.focusarea": "vacd",
    "coaching.prompt": "vacd",
    "learning.playbookmodule": "vac",
    "learning.learningtag": "vcd",
    "peers.agreementtemplate": "vc",
    "peers.peerpair": "v",
    "feedback.interpretiveterm": "vacd",
    "cadence.cadencepolicy": "vac",
    "cadence.policyassignment": "vac",
    "cadence.cadenceplan": "vc",
    "notifications.teamchannel": "vacd",
    "notifications.notification": "v",
    "cadence.rollout": "vc",
    "django_celery_beat.periodictask": "vc",
    "django_celery_beat.crontabschedule": "vac",
    # Nothing on: groups, other schedules, email addresses, MFA, SSO. (API keys and SSO
    # tokens are not in the admin site: tests/people/test_admin_credentials.py.)
    "auth.group": "",
    "django_celery_beat.clockedschedule": "",
    "django_celery_beat.solarschedule": "",
    "django_celery_beat.intervalschedule": "",
    "account.emailaddress": "",
    "mfa.authenticator": "",
    "socialaccount.socialapp": "",
    "socialaccount.socialaccount": "",
}
ADMIN_PAGES = {  # page → the permission letters that open it
    "changelist": "vc",
    "history": "vc",
    "change": "vc",
    "add": "a",
    "delete": "d",
}


def admin_site(ok: str) -> dict:
    """The admin site is staff's (the programme admin here): for everyone else it is not
    there — a 404 — and the signed out are sent to sign in, as from any page
    (core/admin_access.py)."""
    return page("admin", ok=ok)


ADMIN_OTHER = {
    "admin:index": admin_site("200"),
    # Staff already signed in are sent on to the index.
    "admin:login": admin_site(REDIRECT),
    # Signs staff out (POST).
    "admin:logout": admin_site(LOGIN),
    "admin:password_change": admin_site("200"),
    "admin:password_change_done": admin_site("200"),
    "admin:autocomplete": admin_site("403"),  # without its parameters
    "admin:jsi18n": admin_site("200"),
    "admin:view_on_site": admin_site("404"),
    "admin:app_list": admin_site("404"),  # "account": nothing of it for the admin
    "admin:auth_user_password_change": admin_site("403"),  # setting passwords: superusers
    # The catch-all: unknown admin pages.
    "admin/(?P<url>.*)$": admin_site("404"),
}


def _admin_routes() -> dict[str, dict]:
    table = dict(ADMIN_OTHER)
    for model, letters in ADMIN_MODELS.items():
        app, name = model.split(".")
        for page_name, opens in ADMIN_PAGES.items():
            allowed = any(letter in letters for letter in opens)
            table[f"admin:{app}_{name}_{page_name}"] = admin_site("200" if allowed else "403")
        # The bare object URL redirects to its change page.
        table[f"admin/{app}/{name}/<path:object_id>/"] = admin_site(REDIRECT)
    return table


ROUTES.update(_admin_routes())
POSTED.update(
    {
        "admin:logout",
        "scorecards:round_close",
        "coaching:session_rating",
        "coaching:agenda_delete",
        "peers:pair_leave",
        "peers:pair_end",
    }
)


def _flatten(routes_table: dict) -> dict:
    """EXPECTED[(route, role)] → an outcome, or {variant: outcome} for object routes."""
    expected = {}
    for key, spec in routes_table.items():
        if set(spec) == set(ROLES):
            for role in ROLES:
                expected[(key, role)] = spec[role]
        else:
            for role in ROLES:
                expected[(key, role)] = {variant: rows[role] for variant, rows in spec.items()}
    return expected


EXPECTED = _flatten(ROUTES)


# --- Discovery --------------------------------------------------------------------------


def _routes() -> list:
    """Every route once (two patterns may share a name: the first one answers)."""
    seen, out = set(), []
    for route in routes():
        if route.key not in seen:
            seen.add(route.key)
            out.append(route)
    return out


@functools.cache
def _schema_operations() -> tuple[tuple[str, str, str | None], ...]:
    """(method, schema path, route key it resolves to) for every API operation."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    out = []
    for path, operations in schema["paths"].items():
        concrete = re.sub(r"\{[^}]+\}", "1", path)
        try:
            key = resolve(concrete).view_name
        except Resolver404:
            key = None
        out += [(method.upper(), path, key) for method in operations]
    return tuple(out)


def _operations(route) -> list[tuple[str, str]]:
    """(method, table key) for each way `route` is requested: an API route by every
    operation of the schema (GET, or its only method, under the route's own key; the
    others as "key METHOD"); a page by GET, or POST if it takes only that."""
    if route.namespace != "api":
        return [("POST" if route.key in POSTED else "GET", route.key)]
    methods = sorted({m for m, _, key in _schema_operations() if key == route.key})
    first = "GET" if "GET" in methods else methods[0]
    return [(first, route.key)] + [(m, f"{route.key} {m}") for m in methods if m != first]


def test_every_route_and_api_operation_is_in_the_table():
    """A new page, endpoint, API operation or admin model without a rule fails here, by
    name; so does a rule for a route or operation that is gone."""
    operations = _schema_operations()
    assert len(operations) > 130
    unmatched = sorted({f"{m} {p}" for m, p, key in operations if key is None})
    assert not unmatched, f"schema paths that are no route: {unmatched}"
    keys = {key for route in _routes() for _, key in _operations(route)}
    missing = sorted(keys - set(ROUTES))
    assert not missing, f"routes and API operations without a rule in ROUTES: {missing}"
    stale = sorted(set(ROUTES) - keys)
    assert not stale, f"rules for routes or operations that no longer exist: {stale}"
    assert all((key, role) in EXPECTED for key in keys for role in ROLES)


def test_every_people_source_is_searched_as_every_role():
    """The people search (`people_pick`) is one route with a source per form: a source
    left out of PICK_SOURCES would never be walked."""
    from people.pickers import _SOURCES

    assert set(PICK_SOURCES) == set(_SOURCES)


# --- The walk ----------------------------------------------------------------------------


def _is_page(route) -> bool:
    """The project's own pages: each is also requested as htmx does (its fragment, or
    the same refusal)."""
    return not _is_api(route) and route.namespace != "admin" and "accounts/" not in route.route


def _is_api(route) -> bool:
    return route.namespace == "api" or route.key in ("api_schema", "api_docs")


@pytest.mark.django_db
def test_every_route_as_every_role_answers_as_the_table_says(world):  # noqa: F811
    """Each (route or API operation, role) pair, with each object of the route: the
    outcome the table gives; no marker outside its circle; no server error."""
    started = time.monotonic()
    matrix = matrix_build(world)
    walker = Walker(matrix)
    differences, leaks, errors, missing = [], [], [], []
    pairs = requests = 0
    all_routes = _routes()
    with quiet():
        for route in all_routes:
            for method, key in _operations(route):
                if key not in ROUTES:
                    missing.append(key)
                    continue
                pairs += len(ROLES)
                for variant, values in variants(route, matrix).items():
                    path = route.path(**values)
                    where = f"{method} {path} ({key}{f' [{variant}]' if variant else ''})"
                    for role in ROLES:
                        want = EXPECTED[(key, role)]
                        if isinstance(want, dict):
                            if variant not in want:
                                differences.append(f"{where}: no rule for this object")
                                break
                            want = want[variant]
                        for htmx in (False, True) if _is_page(route) else (False,):
                            seen = walker.request(role, method, path, api=_is_api(route), htmx=htmx)
                            requests += 1
                            at = f"{where}{' (htmx)' if htmx else ''} as {role}"
                            if seen.error:
                                errors.append(f"{at}: {seen.error}")
                            elif seen.outcome.startswith("5"):
                                errors.append(f"{at}: {seen.outcome}")
                            elif seen.outcome != want and not (
                                # htmx swaps the fragment in where a page redirects.
                                htmx and want == REDIRECT and seen.outcome == "200"
                            ):
                                differences.append(f"{at}: {seen.outcome}, table: {want}")
                            leaks += [f"{at}: {leak}" for leak in seen.leaks]
    print(
        f"\n{len(all_routes)} routes and {pairs // len(ROLES)} operations x {len(ROLES)} roles "
        f"= {pairs} pairs, {requests} requests, {len(matrix.garden.plants)} markers planted "
        f"({walker.markers_checked} sightings checked), {time.monotonic() - started:.1f}s"
    )
    failures = len(differences) + len(leaks) + len(errors) + len(missing)
    report_dir = os.environ.get("TRUST_REPORT_DIR")
    if report_dir:
        Path(report_dir).mkdir(parents=True, exist_ok=True)
        summary = {
            "routes": len(all_routes),
            "operations": pairs // len(ROLES),
            "roles": list(ROLES),
            "pairs_checked": pairs,
            "requests": requests,
            "markers_checked": len(matrix.garden.plants),
            "failures": failures,
        }
        (Path(report_dir) / "authorization.json").write_text(json.dumps(summary, indent=2) + "\n")
    assert not missing, f"routes without a rule: {missing}"
    assert not errors, "\n".join(errors)
    assert not leaks, "\n".join(leaks)
    assert not differences, f"{len(differences)} differences:\n" + "\n".join(differences)
    assert pairs > 3500


@pytest.mark.django_db
def test_no_write_without_a_csrf_token(org):
    """Every page action and every API write, sent by a signed-in person's browser
    session without the CSRF token (what another site could make the browser send),
    is refused before any rule runs: 403."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(org.rep)
    writes = []
    for route in _routes():
        methods = [m for m, _ in _operations(route) if m != "GET"]
        if not methods or route.namespace == "admin":
            continue  # reads; the admin site's own forms are Django's
        path = route.path(**{name: 1 for name in route.params})
        writes += [(method, path) for method in methods]
    assert len(writes) > 100
    with quiet():
        answers = {
            f"{method} {path}": getattr(client, method.lower())(
                path, data={}, content_type="application/json"
            ).status_code
            for method, path in writes
        }
    assert {k: v for k, v in answers.items() if v != 403} == {}
