"""A programme admin manages people in the admin site, but cannot make anyone — least
of all themselves — more than a programme admin: the superuser flag is read-only to
them, a superuser's account (password, email, groups) is not theirs to change, the
only groups they hand out are the appointed roles (to others: their own access is
changed by someone else), and they take over no one's account — setting a password
is for superusers, and another person's email (with a reset link it is the account)
is read-only to them."""

import pytest
from django.contrib.auth.models import Group, Permission

from people.models import AuditEvent
from tests.support.factories import PASSWORD
from tests.support.people_admin import change_form_data


@pytest.mark.django_db
def test_a_programme_admin_cannot_make_themselves_a_superuser(client, org):
    client.force_login(org.admin)
    group = Group.objects.get(name="Programme admins")
    data = change_form_data(org.admin, is_staff="on", is_superuser="on", groups=[group.pk])
    response = client.post(f"/admin/people/user/{org.admin.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    org.admin.refresh_from_db()
    assert not org.admin.is_superuser
    assert not AuditEvent.objects.filter(verb="access.changed").exists()


@pytest.mark.django_db
def test_a_superusers_account_is_read_only_to_a_programme_admin(client, org, root):
    client.force_login(org.admin)
    page = client.get(f"/admin/people/user/{root.pk}/change/")
    assert page.status_code == 200 and b'name="_save"' not in page.content
    response = client.post(
        f"/admin/people/user/{root.pk}/change/",
        change_form_data(root, email="mine@example.com", is_staff="on", is_superuser="on"),
    )
    assert response.status_code == 403
    assert client.get(f"/admin/people/user/{root.pk}/password/").status_code == 403
    root.refresh_from_db()
    assert root.email == "root@example.com"


@pytest.mark.django_db
def test_a_programme_admin_hands_out_the_appointed_roles_only(client, org):
    everything = Group.objects.create(name="Everything")
    everything.permissions.set(Permission.objects.all())
    client.force_login(org.admin)
    data = change_form_data(org.rep, groups=[everything.pk])
    response = client.post(f"/admin/people/user/{org.rep.pk}/change/", data)
    assert response.status_code == 200  # the form again, with the refusal
    assert not org.rep.groups.filter(pk=everything.pk).exists()
    hr = Group.objects.get(name="HR")
    response = client.post(
        f"/admin/people/user/{org.rep.pk}/change/", change_form_data(org.rep, groups=[hr.pk])
    )
    assert response.status_code == 302
    assert org.rep.groups.filter(pk=hr.pk).exists()


@pytest.mark.django_db
def test_a_programme_admin_cannot_change_their_own_access(client, org):
    hr = Group.objects.get(name="HR")
    client.force_login(org.admin)
    data = change_form_data(org.admin, groups=[hr.pk])  # staff unticked, HR added
    response = client.post(f"/admin/people/user/{org.admin.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    org.admin.refresh_from_db()
    assert org.admin.is_staff
    assert list(org.admin.groups.values_list("name", flat=True)) == ["Programme admins"]


@pytest.mark.django_db
def test_a_programme_admin_takes_over_no_ones_account(client, org):
    client.force_login(org.admin)
    assert client.get(f"/admin/people/user/{org.hr.pk}/password/").status_code == 403
    response = client.post(
        f"/admin/people/user/{org.hr.pk}/password/",
        {"password1": "a-new-long-password-9", "password2": "a-new-long-password-9"},
    )
    assert response.status_code == 403
    data = change_form_data(org.hr, email="adam.admin+hr@example.com")
    response = client.post(f"/admin/people/user/{org.hr.pk}/change/", data)
    assert response.status_code == 302
    org.hr.refresh_from_db()
    assert org.hr.email == "hr@example.com"
    assert org.hr.check_password(PASSWORD)


@pytest.mark.django_db
def test_a_superuser_still_changes_anything(rf, org, root):
    from django.contrib import admin

    from people.models import User

    person_admin = admin.site._registry[User]
    for user, read_only in ((root, False), (org.admin, True)):
        request = rf.get("/admin/")
        request.user = user
        assert ("is_superuser" in person_admin.get_readonly_fields(request, org.rep)) is read_only
        assert person_admin.has_change_permission(request, root) is not read_only
