"""Choosing people in a large organisation (people/pickers.py): up to
PEOPLE_PICKER_LIST_UP_TO people a form lists them; beyond, a search box whose matches
come from the same source the field validates against."""

import re

import pytest

from feedback.models import Feedback
from tests.support.factories import FeedbackFactory, RequestedResponderFactory, UserFactory
from tests.support.people_pickers import GIVE, PICK, listed, pick


@pytest.fixture
def few(settings):
    """Searching from four people on: the small org's seven colleagues are many."""
    settings.PEOPLE_PICKER_LIST_UP_TO = 3


def _options(page: str) -> list[str]:
    return re.findall(r'<option value="\d+"', page)


# --- The form: a list when few, a search box when many ------------------------------------


@pytest.mark.django_db
def test_a_few_people_are_listed_as_before(client, org, django_assert_num_queries):
    client.force_login(org.rep)
    # session, user, roles, the people listed, the header's unread count
    with django_assert_num_queries(5):
        page = client.get(GIVE).content.decode()
    assert len(_options(page)) == 7  # everyone active but Rita herself
    assert 'class="people-search"' not in page


@pytest.mark.django_db
def test_many_people_are_searched_not_listed(client, org, few):
    client.force_login(org.rep)
    page = client.get(GIVE).content.decode()
    assert _options(page) == []
    assert '<label for="id_recipient">To</label>' in page
    assert 'name="recipient_search"' in page
    assert 'hx-get="/people/pick/colleagues/?name=recipient&amp;id=id_recipient"' in page


@pytest.mark.django_db
@pytest.mark.parametrize("extra", [0, 40])
def test_the_page_costs_the_same_whatever_the_organisation_size(
    client, org, few, extra, django_assert_num_queries
):
    UserFactory.create_batch(extra)
    client.force_login(org.rep)
    # session, user, roles, up to 4 people, own team, the header's unread count
    with django_assert_num_queries(6):
        page = client.get(GIVE).content.decode()
    assert "Omar Other" not in page  # only Rita's own team is offered before a search


@pytest.mark.django_db
def test_a_refused_form_keeps_the_chosen_person_checked(client, org, few):
    client.force_login(org.rep)
    response = client.post(GIVE, {"recipient": org.peer.pk, "stream": "developmental"})
    assert response.status_code == 400
    page = response.content.decode()
    assert (
        f'<input type="radio" name="recipient" value="{org.peer.pk}" '
        f'id="id_recipient_{org.peer.pk}" checked>' in page
    )


@pytest.mark.django_db
def test_the_field_still_refuses_anyone_outside_the_source(client, org, few):
    org.other_rep.is_active = False
    org.other_rep.save(update_fields=["is_active"])
    client.force_login(org.rep)
    for forged in (org.rep.pk, org.other_rep.pk, 99999):
        response = client.post(
            GIVE,
            {
                "recipient": forged,
                "stream": "developmental",
                "observation": "You paused after the price",
                "impact": "The buyer named a budget",
                "suggestion": "Keep the pause",
            },
        )
        assert response.status_code == 400, forged
        assert "Choose someone from the list." in response.content.decode()
    assert not Feedback.objects.exists()


@pytest.mark.django_db
def test_a_searched_person_is_given_feedback(client, org, few):
    client.force_login(org.rep)
    fragment = pick(client, "colleagues", "pav").content.decode()
    pk = re.search(r'value="(\d+)"', fragment).group(1)
    response = client.post(
        GIVE,
        {
            "recipient": pk,
            "stream": "developmental",
            "observation": "You paused after the price",
            "impact": "The buyer named a budget",
            "suggestion": "Keep the pause",
        },
    )
    assert response.status_code == 302
    assert Feedback.objects.get().recipient == org.peer


@pytest.mark.django_db
def test_asking_many_people_searches_with_checkboxes(client, org, few):
    client.force_login(org.rep)
    page = client.get("/feedback/requests/new/").content.decode()
    assert 'name="responders_search"' in page and "multiple=1" in page
    # Nobody else listed until searched: only Rita's own team, none of them ticked.
    assert listed(page) == [("", "Mia Manager"), ("", "Pavel Peer")]
    assert 'type="checkbox" name="responders"' in page


# --- The search --------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_matches_names_and_emails_of_the_source_only(client, org):
    org.other_rep.is_active = False
    org.other_rep.save(update_fields=["is_active"])
    client.force_login(org.rep)
    found = listed(pick(client, "colleagues", "MA").content.decode())
    # Names starting with it first, whatever the case; never someone who left.
    assert found == [("", "Mia Manager"), ("", "Omar Other")]
    found = listed(pick(client, "colleagues", "other.MANAGER@").content.decode())
    assert found == [("", "Omar Other")]  # by email alone
    found = listed(pick(client, "colleagues", "example.com").content.decode())
    assert {name for _, name in found} == {
        "Hana Head",
        "Mia Manager",
        "Omar Other",
        "Pavel Peer",
        "Harriet HR",
        "Adam Admin",
    }


@pytest.mark.django_db
def test_the_chosen_stay_checked_and_first(client, org):
    client.force_login(org.rep)
    fragment = pick(
        client,
        "colleagues",
        "a",
        chosen=[org.peer.pk, org.head.pk],
        name="responders",
        multiple="1",
    ).content.decode()
    found = listed(fragment)
    assert found[:2] == [(" checked", "Hana Head"), (" checked", "Pavel Peer")]
    assert ("", "Pavel Peer") not in found and len(found) == len(set(n for _, n in found))
    assert 'type="checkbox" name="responders"' in fragment


@pytest.mark.django_db
def test_one_person_is_a_radio_button_and_blank_means_nobody(client, org):
    client.force_login(org.rep)
    fragment = pick(client, "colleagues", "", chosen=[org.peer.pk], blank="Everyone")
    fragment = fragment.content.decode()
    assert '<input type="radio" name="recipient" value="" id="id_recipient_blank">' in fragment
    # The chosen, then the rest of her own team (nothing typed).
    assert listed(fragment) == [(" checked", "Pavel Peer"), ("", "Mia Manager")]
    fragment = pick(client, "colleagues", "", blank="Everyone").content.decode()
    assert 'id="id_recipient_blank" checked' in fragment


@pytest.mark.django_db
def test_it_says_when_nobody_matches_and_when_there_are_more(client, org, settings):
    client.force_login(org.rep)
    fragment = pick(client, "colleagues", "zzz<b>").content.decode()
    assert "Nobody matches “zzz&lt;b&gt;”." in fragment
    UserFactory.create_batch(25, display_name="Sam Seller")
    fragment = pick(client, "colleagues", "sam").content.decode()
    assert len(listed(fragment)) == 20
    assert "The first 20 matches: type more of the name." in fragment


def _said(fragment: str, id_: str = "id_recipient") -> str:
    """What the search puts in the picker's live region (out of band, content only)."""
    found = re.findall(rf'<p id="{id_}_found" hx-swap-oob="innerHTML">([^<]*)</p>', fragment)
    assert len(found) == 1, fragment
    return found[0]


@pytest.mark.django_db
def test_the_list_is_no_live_region_a_summary_of_each_search_is(client, org, few):
    """A screen reader hears "3 people found", not every name at every keystroke; the
    names stay a list of labelled choices to move through."""
    client.force_login(org.rep)
    page = client.get(GIVE).content.decode()
    results = re.search(r'<ul class="choices people-choices" id="id_recipient_results"[^>]*>', page)
    assert results and "aria-live" not in results.group(0)
    assert '<p class="visually-hidden" id="id_recipient_found" role="status"></p>' in page

    fragment = pick(client, "colleagues", "pav").content.decode()
    assert _said(fragment) == "1 person found." and len(listed(fragment)) == 1
    fragment = pick(client, "colleagues", "m").content.decode()  # every email has one
    assert _said(fragment) == f"{len(listed(fragment))} people found."
    assert _said(pick(client, "colleagues", "zzz").content.decode()) == "Nobody found."
    assert _said(pick(client, "colleagues", "").content.decode()) == ""  # nothing typed
    # The chosen lead the list and are not counted again.
    chosen = pick(client, "colleagues", "pav", chosen=[org.peer.pk]).content.decode()
    assert _said(chosen) == "Nobody else found."
    chosen = pick(client, "colleagues", "m", chosen=[org.peer.pk]).content.decode()
    assert _said(chosen) == f"{len(listed(chosen)) - 1} more people found."
    UserFactory.create_batch(25, display_name="Sam Seller")
    fragment = pick(client, "colleagues", "sam").content.decode()
    assert _said(fragment) == "More than 20 people found: the first 20 are listed."


@pytest.mark.django_db
@pytest.mark.parametrize("extra", [2, 30])
def test_a_search_costs_the_same_whatever_it_finds(client, org, extra, django_assert_num_queries):
    UserFactory.create_batch(extra, display_name="Sam Seller")
    client.force_login(org.manager)
    with django_assert_num_queries(5):  # session, user, roles, the chosen, the matches
        response = pick(client, "below", "r", chosen=[org.rep.pk], name="coachee")
    assert response.status_code == 200


@pytest.mark.django_db
def test_each_source_gives_its_own_people(client, org):
    client.force_login(org.head)
    names = {n for _, n in listed(pick(client, "below", "@", name="coachee").content.decode())}
    assert names == {
        "Mia Manager",
        "Omar Other",
        "Rita Rep",
        "Pavel Peer",
        "Olga Outsider",
        "Harriet HR",
        "Adam Admin",
    }
    found = listed(pick(client, "managers-below", "@", name="coachee").content.decode())
    assert {n for _, n in found} == {"Mia Manager", "Omar Other"}
    found = listed(pick(client, "raters", "@", name="raters", multiple="1").content.decode())
    assert {n for _, n in found} == {"Hana Head", "Mia Manager", "Omar Other"}
    client.force_login(org.manager)
    found = listed(pick(client, "me-and-below", "@", name="person").content.decode())
    assert {n for _, n in found} == {"Mia Manager", "Rita Rep", "Pavel Peer"}
    found = listed(pick(client, "reviewable", "@", name="person").content.decode())
    assert {n for _, n in found} == {"Rita Rep", "Pavel Peer"}


@pytest.mark.django_db
def test_sharing_never_offers_whoever_could_have_written_it(client, org):
    named = FeedbackFactory(author=org.peer, recipient=org.rep)
    client.force_login(org.rep)
    found = listed(pick(client, "share", "@", name="person", item=named.pk).content.decode())
    assert "Pavel Peer" not in {n for _, n in found} and len(found) == 6
    asked = RequestedResponderFactory(request__requester=org.rep, responder=org.head)
    RequestedResponderFactory(request=asked.request, responder=org.manager)
    anonymous = FeedbackFactory(
        author=org.head,
        recipient=org.rep,
        anonymous=True,
        request=asked.request,
        direction="upward",
    )
    found = listed(pick(client, "share", "@", name="person", item=anonymous.pk).content.decode())
    assert not {"Hana Head", "Mia Manager"} & {n for _, n in found}


# --- Outsiders and bad input ---------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    "who, source, extra",
    [
        ("rep", "nobody-knows", {}),
        ("rep", "below", {}),  # not a manager
        ("manager", "managers-below", {}),  # no managers below
        ("manager", "raters", {}),  # runs no calibrations
        ("hr", "raters", {}),
        ("rep", "reviewable", {}),
        ("rep", "share", {"item": "999999"}),
        ("rep", "share", {"item": "x"}),
        ("peer", "share", {"item": "mine"}),  # somebody else's item
        ("rep", "share", {"item": "evaluative"}),  # evaluative items are not shared
    ],
)
def test_outsiders_get_404(client, org, who, source, extra):
    mine = FeedbackFactory(author=org.peer, recipient=org.rep)
    evaluative = FeedbackFactory(author=org.manager, recipient=org.rep, stream="evaluative")
    items = {"mine": str(mine.pk), "evaluative": str(evaluative.pk)}
    extra = {key: items.get(value, value) for key, value in extra.items()}
    client.force_login(getattr(org, who))
    assert pick(client, source, "a", name="person", **extra).status_code == 404


@pytest.mark.django_db
def test_signed_out_it_asks_to_sign_in(client, org):
    response = pick(client, "colleagues", "a")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "query, message",
    [
        ({}, "This list cannot be searched from here."),
        ({"name": "a b", "id": "x"}, "This list cannot be searched from here."),
        ({"name": "recipient", "id": '"><script>'}, "This list cannot be searched from here."),
        ({"name": "recipient", "id": "x", "recipient_search": "a" * 101}, "at most 100"),
        ({"name": "recipient", "id": "x", "recipient": "1 OR 1"}, "Choose people from the list."),
        ({"name": "recipient", "id": "x", "blank": "b" * 61}, "cannot be searched"),
        ({"name": "recipient", "id": "x", "recipient_search": "a\x00b"}, "control characters"),
    ],
)
def test_bad_input_is_a_400_with_a_message(client, org, query, message):
    client.force_login(org.rep)
    response = client.get(PICK.format("colleagues"), query)
    assert response.status_code == 400
    assert message in response.content.decode()
