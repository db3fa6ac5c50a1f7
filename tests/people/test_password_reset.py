import re

import pytest
from django.core import mail


@pytest.mark.django_db
def test_a_person_resets_a_forgotten_password_by_email(client, org):
    response = client.post("/accounts/password/reset/", {"email": "rep@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["rep@example.com"]
    link = re.search(r"http://testserver(/accounts/password/reset/key/\S+)", mail.outbox[0].body)

    form = client.get(link.group(1), follow=True)
    new = "a brand new passphrase 42"
    done = client.post(form.redirect_chain[-1][0], {"password1": new, "password2": new})
    assert done.status_code == 302

    org.rep.refresh_from_db()
    assert org.rep.check_password(new)


@pytest.mark.django_db
def test_asking_for_an_unknown_email_looks_the_same_as_a_known_one(client, org):
    unknown = client.post("/accounts/password/reset/", {"email": "nobody@example.com"})
    known = client.post("/accounts/password/reset/", {"email": "rep@example.com"})
    assert (unknown.status_code, unknown["Location"]) == (known.status_code, known["Location"])
