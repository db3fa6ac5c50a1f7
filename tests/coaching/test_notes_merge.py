"""Two people write in one 1:1 at once: saves merge per field against the version
each writer started from. Different fields never conflict; the same field conflicts
only when both changed it, and then both texts are kept."""

import pytest
from django.core.exceptions import ValidationError

from coaching.models import NotesRevision, SharedNotes
from coaching.services import StaleEdit, notes_save
from tests.support.factories import one_on_one


@pytest.fixture
def session(org):
    return one_on_one(org.manager, org.rep)


def saved(session) -> SharedNotes:
    return SharedNotes.objects.get(session=session)


@pytest.mark.django_db
def test_different_fields_from_the_same_version_are_both_kept(org, session):
    notes_save(session=session, actor=org.rep, base_version=0, changes={"reality": "Lost the room"})
    notes = notes_save(
        session=session, actor=org.manager, base_version=0, changes={"options": "Ask first"}
    )
    assert (notes.reality, notes.options, notes.version) == ("Lost the room", "Ask first", 2)
    revisions = NotesRevision.objects.filter(notes__session=session).order_by("version")
    assert [(r.reality, r.options) for r in revisions] == [
        ("Lost the room", ""),
        ("Lost the room", "Ask first"),
    ]


@pytest.mark.django_db
def test_a_field_sent_unchanged_keeps_what_the_other_person_saved(org, session):
    """A whole form sent back: the fields this writer did not touch are not theirs."""
    notes_save(session=session, actor=org.rep, base_version=0, changes={"reality": "Rep's view"})
    notes = notes_save(
        session=session,
        actor=org.manager,
        base_version=0,
        changes={"reality": "", "will": "Open with a question"},
    )
    assert notes.reality == "Rep's view"
    assert notes.will == "Open with a question"


@pytest.mark.django_db
def test_the_same_field_changed_by_both_keeps_both_texts_and_saves_the_rest(org, session):
    notes_save(session=session, actor=org.rep, base_version=0, changes={"reality": "Rep's view"})
    with pytest.raises(StaleEdit) as refused:
        notes_save(
            session=session,
            actor=org.manager,
            base_version=0,
            changes={"reality": "Coach's view", "will": "Try it Tuesday"},
        )
    assert refused.value.conflicts == {"reality": {"saved": "Rep's view", "yours": "Coach's view"}}
    notes = saved(session)
    assert (notes.reality, notes.will, notes.version) == ("Rep's view", "Try it Tuesday", 2)
    assert refused.value.version == 2


@pytest.mark.django_db
def test_the_same_words_in_the_same_field_are_no_conflict(org, session):
    notes_save(session=session, actor=org.rep, base_version=0, changes={"will": "Ask why"})
    notes = notes_save(
        session=session, actor=org.manager, base_version=0, changes={"will": "Ask why"}
    )
    assert notes.version == 1  # nothing new: no new version, no new revision
    assert NotesRevision.objects.filter(notes__session=session).count() == 1


@pytest.mark.django_db
def test_a_field_changed_on_top_of_the_other_persons_text_is_no_conflict(org, session):
    notes_save(session=session, actor=org.rep, base_version=0, changes={"will": "Ask why"})
    notes = notes_save(
        session=session, actor=org.manager, base_version=1, changes={"will": "Ask why, twice"}
    )
    assert notes.will == "Ask why, twice"


@pytest.mark.django_db
def test_the_base_is_the_version_the_writer_started_from_not_the_first(org, session):
    notes_save(session=session, actor=org.rep, base_version=0, changes={"will": "One"})
    notes_save(session=session, actor=org.rep, base_version=1, changes={"will": "Two"})
    # The coach opened version 1 and changed Options only: Will "Two" stays.
    notes = notes_save(session=session, actor=org.manager, base_version=1, changes={"options": "O"})
    assert (notes.will, notes.options) == ("Two", "O")
    # The coach, from version 1, also rewrote Will: the rep changed it since — a conflict.
    with pytest.raises(StaleEdit) as refused:
        notes_save(session=session, actor=org.manager, base_version=1, changes={"will": "Mine"})
    assert refused.value.conflicts["will"] == {"saved": "Two", "yours": "Mine"}


@pytest.mark.django_db
def test_each_field_remembers_who_wrote_it_last(org, session):
    notes_save(session=session, actor=org.rep, base_version=0, changes={"reality": "R"})
    notes = notes_save(session=session, actor=org.manager, base_version=1, changes={"will": "W"})
    assert {f: mark["by"] for f, mark in notes.written.items()} == {
        "reality": org.rep.pk,
        "will": org.manager.pk,
    }


@pytest.mark.django_db
@pytest.mark.parametrize(
    "kwargs",
    [
        {"base_version": 5, "changes": {"will": "From a future version"}},
        {"base_version": 0, "changes": {"mood": "great"}},
        {"base_version": 0, "changes": {"will": "x" * 10_001}},
        {"base_version": 0, "changes": {"will": ["a", "list"]}},
    ],
)
def test_bad_input_is_refused_and_nothing_is_saved(org, session, kwargs):
    with pytest.raises(ValidationError):
        notes_save(session=session, actor=org.rep, **kwargs)
    notes = saved(session)
    assert notes.version == 0
    assert not any(notes.content().values())


@pytest.mark.django_db
def test_notes_made_with_words_in_them_keep_those_as_everyones_first_base(org, session):
    """Sessions made before the goal was carried live had it copied in at version 0:
    sent back unchanged from there, it is no change (revision 0 keeps that base)."""
    SharedNotes.objects.filter(session=session).update(goal="Copied in")
    notes_save(session=session, actor=org.rep, base_version=0, changes={"goal": "Rep's own"})
    notes = notes_save(
        session=session,
        actor=org.manager,
        base_version=0,
        changes={"goal": "Copied in", "options": "O"},
    )
    assert (notes.goal, notes.options) == ("Rep's own", "O")
    assert NotesRevision.objects.get(notes=notes, version=0).goal == "Copied in"
