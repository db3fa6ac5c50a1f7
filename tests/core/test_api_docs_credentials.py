"""The API's documentation page answers bad credentials and unacceptable formats with
a 4xx, never a 500: a revoked or deactivated person's token used to raise while the
page rendered its 406 (the page authenticates only when the template asks who is
signed in)."""

import pytest
from django.test import Client

from people.services_credentials import api_token_rotate


@pytest.mark.django_db
@pytest.mark.parametrize("accept", ["application/json", "text/html", "*/*"])
def test_bad_or_dead_tokens_get_a_401_from_the_docs_page(org, accept):
    token = api_token_rotate(person=org.rep)
    client = Client(raise_request_exception=False)
    unknown = client.get("/api/docs/", HTTP_ACCEPT=accept, HTTP_AUTHORIZATION="Token nope")
    assert unknown.status_code == 401
    org.rep.is_active = False
    org.rep.save(update_fields=["is_active"])
    dead = client.get("/api/docs/", HTTP_ACCEPT=accept, HTTP_AUTHORIZATION=f"Token {token}")
    assert dead.status_code == 401


@pytest.mark.django_db
def test_a_signed_in_person_asking_the_docs_page_for_json_gets_a_406(client, org):
    client.force_login(org.rep)
    assert client.get("/api/docs/", HTTP_ACCEPT="application/json").status_code == 406
    assert client.get("/api/docs/").status_code == 200
