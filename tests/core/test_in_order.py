"""`core.queries.in_order`: a page's rows read by the ids chosen first."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.queries import in_order
from people.models import User

pytestmark = pytest.mark.django_db


def test_rows_come_in_the_order_of_the_ids_in_one_query(org):
    ids = [org.rep.pk, org.head.pk, org.manager.pk]
    with CaptureQueriesContext(connection) as queries:
        rows = in_order(User.objects.all(), ids)
    assert [row.pk for row in rows] == ids
    assert len(queries) == 1


def test_an_id_whose_row_went_meanwhile_is_left_out(org):
    gone = org.other_rep.pk
    org.other_rep.delete()  # between the page's ids and its rows
    rows = in_order(User.objects.all(), [org.rep.pk, gone, org.peer.pk])
    assert [row.pk for row in rows] == [org.rep.pk, org.peer.pk]
