"""No page of the admin site shows a credential, to anyone, superusers included: API
keys and SSO tokens are not in it at all, and an authenticator shows which factor a
person has, never its secret. Deleting one there (the way back in for someone who
lost their phone) is audited like removing it oneself."""

import pytest
from allauth.mfa.models import Authenticator
from allauth.socialaccount.models import SocialAccount, SocialApp, SocialToken
from django.contrib import admin
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from zeal import zeal_ignore

from people.models import AuditEvent
from people.services_credentials import api_token_rotate
from tests.support.urlwalk import concrete_paths, routes

pytestmark = pytest.mark.django_db

TOTP_SECRET = "JBSWY3DPEHPK3PXPTOTPSECRET"
SSO_TOKEN = "sso-access-token-7f3a9c1e"


@pytest.fixture
def secrets(org):
    key = api_token_rotate(person=org.rep)
    totp = Authenticator.objects.create(
        user=org.rep, type=Authenticator.Type.TOTP, data={"secret": TOTP_SECRET}
    )
    app = SocialApp.objects.create(provider="openid_connect", provider_id="corp", name="Corp")
    account = SocialAccount.objects.create(user=org.rep, provider="corp", uid="rep-1")
    SocialToken.objects.create(app=app, account=account, token=SSO_TOKEN)
    return {"key": key, "totp": totp}


def test_api_keys_and_sso_tokens_are_not_in_the_admin_site():
    registered = set(admin.site._registry)
    assert Token not in registered and SocialToken not in registered
    assert not any(model._meta.model_name == "tokenproxy" for model in registered)


def test_no_admin_page_shows_a_key_a_token_or_a_totp_secret(client, root, secrets):
    client.force_login(root)
    client.raise_request_exception = False
    admin_routes = [route for route in routes() if route.namespace == "admin"]
    visits, _ = concrete_paths({}, {}, all_routes=admin_routes)
    shown = 0
    with zeal_ignore():  # what is read here, not how: N+1s are other tests' business
        for visit in visits:
            response = client.get(visit.path)
            shown += response.status_code == 200
            body = response.content.decode(errors="replace")
            for secret in (secrets["key"], SSO_TOKEN, TOTP_SECRET):
                assert secret not in body, f"{visit.path} shows a credential"
    assert shown > 50


def test_an_authenticator_is_listed_and_shown_without_its_secret(client, org, root, secrets):
    client.force_login(root)
    listed = client.get("/admin/mfa/authenticator/")
    assert listed.status_code == 200 and org.rep.display_name in listed.content.decode()
    page = client.get(f"/admin/mfa/authenticator/{secrets['totp'].pk}/change/")
    assert page.status_code == 200
    assert 'name="data"' not in page.content.decode()
    assert client.get("/admin/mfa/authenticator/add/").status_code == 403


def test_deleting_an_authenticator_in_the_admin_is_audited(client, org, root, secrets):
    client.force_login(root)
    totp = secrets["totp"]
    response = client.post(f"/admin/mfa/authenticator/{totp.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Authenticator.objects.filter(pk=totp.pk).exists()
    event = AuditEvent.objects.get(verb="mfa.removed")
    assert event.actor == root and event.target_id == str(org.rep.pk)
    assert event.data == {"type": "totp", "via": "admin"}
    assert TOTP_SECRET not in str(event.data)


def test_the_bulk_action_removes_each_and_audits_each(client, org, root, secrets):
    client.force_login(root)
    recovery = Authenticator.objects.create(
        user=org.manager, type=Authenticator.Type.RECOVERY_CODES, data={"seed": "x"}
    )
    chosen = [secrets["totp"].pk, recovery.pk]
    bulk = {"action": "delete_selected", "_selected_action": chosen, "post": "yes"}
    assert client.post("/admin/mfa/authenticator/", bulk).status_code == 302
    assert not Authenticator.objects.filter(pk__in=chosen).exists()
    removed = AuditEvent.objects.filter(verb="mfa.removed").order_by("target_id")
    assert sorted(e.target_id for e in removed) == sorted([str(org.rep.pk), str(org.manager.pk)])


def test_the_list_costs_the_same_queries_for_one_authenticator_or_six(client, org, root):
    client.force_login(root)

    def queries():
        with CaptureQueriesContext(connection) as captured:
            assert client.get("/admin/mfa/authenticator/").status_code == 200
        return len(captured)

    Authenticator.objects.create(user=org.rep, type=Authenticator.Type.TOTP, data={})
    one = queries()
    for person in (org.manager, org.peer, org.head, org.hr, org.admin):
        Authenticator.objects.create(user=person, type=Authenticator.Type.TOTP, data={})
    assert queries() == one
