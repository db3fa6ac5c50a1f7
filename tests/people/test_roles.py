import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from people.roles import Role
from people.selectors import roles_of
from people.services_roles import role_grant, role_revoke


@pytest.mark.django_db
def test_it_derives_rep_manager_and_manager_of_managers_from_the_reporting_line(org):
    assert roles_of(org.rep) == {Role.REP}
    assert roles_of(org.manager) == {Role.REP, Role.MANAGER}
    assert roles_of(org.head) == {Role.MANAGER, Role.MANAGER_OF_MANAGERS}
    assert roles_of(org.hr) == {Role.REP, Role.HR}
    assert roles_of(org.admin) == {Role.REP, Role.PROGRAMME_ADMIN}


@pytest.mark.django_db
def test_it_computes_all_roles_in_one_query(org):
    with CaptureQueriesContext(connection) as queries:
        roles_of(org.head)
    assert len(queries) == 1


@pytest.mark.django_db
def test_a_manager_whose_reports_all_left_is_no_longer_a_manager(org):
    org.other_rep.is_active = False
    org.other_rep.save()
    assert Role.MANAGER not in roles_of(org.other_manager)


@pytest.mark.django_db
def test_a_head_whose_managers_reports_all_left_manages_no_managers_any_more(org):
    """Manager of managers needs an active report who has active reports: the two
    managers below the head stay (active), their reps leave."""
    for rep in (org.rep, org.peer, org.other_rep):
        rep.is_active = False
        rep.save()
    assert roles_of(org.head) == {Role.MANAGER}
    assert roles_of(org.manager) == {Role.REP}


@pytest.mark.django_db
def test_someone_unknown_or_signed_out_holds_no_role(org):
    from django.contrib.auth.models import AnonymousUser

    from people.models import User

    assert roles_of(AnonymousUser()) == frozenset()
    assert roles_of(User(pk=10**9)) == frozenset()


@pytest.mark.django_db
def test_granting_programme_admin_opens_the_admin_site_and_revoking_closes_it(org):
    role_grant(person=org.rep, role=Role.PROGRAMME_ADMIN)
    org.rep.refresh_from_db()
    assert org.rep.is_staff and Role.PROGRAMME_ADMIN in roles_of(org.rep)
    role_revoke(person=org.rep, role=Role.PROGRAMME_ADMIN)
    org.rep.refresh_from_db()
    assert not org.rep.is_staff and Role.PROGRAMME_ADMIN not in roles_of(org.rep)


@pytest.mark.django_db
def test_derived_roles_cannot_be_granted(org):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError, match="reporting line"):
        role_grant(person=org.rep, role=Role.MANAGER)
