"""Two people save the same notes from the same version: one wins, the other is told
and loses nothing; every saved version is kept."""

import pytest

from coaching.models import NotesRevision
from coaching.services import StaleEdit, notes_save
from tests.support.factories import one_on_one


@pytest.mark.django_db
def test_the_second_save_from_the_same_version_is_refused_with_the_saved_text(org):
    session = one_on_one(org.manager, org.rep)
    notes_save(session=session, actor=org.rep, base_version=0, changes={"reality": "Rep's view"})

    with pytest.raises(StaleEdit) as refused:
        notes_save(
            session=session, actor=org.manager, base_version=0, changes={"reality": "Coach's view"}
        )
    assert refused.value.current["reality"] == "Rep's view"
    assert refused.value.version == 1
    session.notes.refresh_from_db()
    assert session.notes.reality == "Rep's view"


@pytest.mark.django_db
def test_every_saved_version_is_kept_as_a_revision(org):
    session = one_on_one(org.manager, org.rep)
    notes_save(session=session, actor=org.rep, base_version=0, changes={"goal": "Discovery"})
    notes_save(session=session, actor=org.manager, base_version=1, changes={"options": "Ask why"})
    revisions = NotesRevision.objects.filter(notes__session=session).order_by("version")
    assert [(r.version, r.goal, r.options, r.saved_by) for r in revisions] == [
        (1, "Discovery", "", org.rep),
        (2, "Discovery", "Ask why", org.manager),
    ]


@pytest.mark.django_db
def test_saving_as_the_coachee_before_the_session_marks_them_prepared(org):
    session = one_on_one(org.manager, org.rep)
    notes = notes_save(
        session=session, actor=org.rep, base_version=0, changes={"reality": "Lost the room"}
    )
    assert notes.coachee_prepared_at is not None


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_concurrent_saves_on_two_connections_never_both_win(org):
    """Real PostgreSQL: two threads save from version 0 at once; exactly one wins."""
    import threading

    from django.db import connection

    session = one_on_one(org.manager, org.rep)
    outcomes, barrier = [], threading.Barrier(2)

    def save(actor, text):
        try:
            barrier.wait()
            notes_save(session=session, actor=actor, base_version=0, changes={"will": text})
            outcomes.append("saved")
        except StaleEdit:
            outcomes.append("stale")
        finally:
            connection.close()

    threads = [
        threading.Thread(target=save, args=(org.rep, "A")),
        threading.Thread(target=save, args=(org.manager, "B")),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["saved", "stale"]
