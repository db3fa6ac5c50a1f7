"""The scorecard library and its editor. Everyone signed in reads the library and a
template's versions; only programme admins write: a new scorecard with anchors, an
edit of an unused version in place, an edit of a used one as a new version (old
scorecards keep theirs, and the template page shows both), retiring and offering
again. Everyone else gets 404 on the editor and on retire, and nothing changes."""

import pytest

from scorecards import services
from scorecards.models import Anchor, Criterion, CriterionVersion, Scorecard, Template
from tests.support.scorecards_pages import text_of

from .conftest import DISCOVERY, submit

pytestmark = pytest.mark.django_db

NOT_ADMINS = ["head", "manager", "rep", "hr"]


def criterion(title, behaviour="Something you can hear on the call.", **extra):
    return {
        "title": title,
        "behaviour": behaviour,
        "scale_max": "4",
        "weight": "1",
        "anchors": "",
        "criterion": "",
        "ORDER": "",
        **extra,
    }


def editor_body(name, rows, *, description="", initial=0):
    """What the editor posts: the template's fields and the "criteria" formset."""
    data = {
        "name": name,
        "description": description,
        "criteria-TOTAL_FORMS": str(len(rows)),
        "criteria-INITIAL_FORMS": str(initial),
        "criteria-MIN_NUM_FORMS": "0",
        "criteria-MAX_NUM_FORMS": "1000",
    }
    for n, row in enumerate(rows):
        data.update({f"criteria-{n}-{key}": value for key, value in row.items()})
    return data


def rows_of(template):
    """The current version's criteria as the editor shows them, lineage ids included."""
    version = services.current_version(template)
    return [
        criterion(
            c.title,
            c.behaviour,
            scale_max=str(c.scale_max),
            weight=str(c.weight),
            criterion=str(c.criterion_id),
            ORDER=str(c.position),
            anchors="\n".join(
                {a.level: a.description for a in c.anchors.all()}.get(n, "")
                for n in range(1, c.scale_max + 1)
            ),
        )
        for c in version.criteria.order_by("position")
    ]


# --- Reading -----------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["rep", "peer", "manager", "hr", "admin"])
def test_everyone_signed_in_reads_the_library(client, org, template, who):
    client.force_login(getattr(org, who))
    page = text_of(client, "/scorecards/templates/")
    assert "Discovery call" in page and "Open questions" in page and "Version 1" in page
    assert ("New scorecard" in page) is (who == "admin")
    page = text_of(client, f"/scorecards/templates/{template.pk}/")
    assert "Three open questions before the demo" in page  # an anchor
    assert "Rated 1–4, no anchors written." in page
    assert (f'href="/scorecards/templates/{template.pk}/edit/"' in page) is (who == "admin")
    assert ("Retire" in page) is (who == "admin")


def test_an_unknown_template_is_404(client, org):
    client.force_login(org.admin)
    assert client.get("/scorecards/templates/999999/").status_code == 404
    assert client.get("/scorecards/templates/999999/edit/").status_code == 404
    assert client.post("/scorecards/templates/999999/retire/").status_code == 404


# --- Writing -----------------------------------------------------------------------------------


def test_an_admin_creates_a_scorecard_with_anchors(client, org):
    client.force_login(org.admin)
    page = text_of(client, "/scorecards/templates/new/")
    assert "New scorecard" in page and 'name="criteria-TOTAL_FORMS"' in page
    body = editor_body(
        "Negotiation call",
        [
            criterion(
                "Holds the price",
                "Names the price once and stops talking.",
                anchors="Discounts unasked\n\nPauses after the price\nTrades, never gives",
                weight="2",
            ),
            criterion(
                "Trades concessions", "Asks for something back for every concession.", scale_max="5"
            ),  # fmt: skip
        ],
        description="For pricing conversations.",
    )
    response = client.post("/scorecards/templates/new/", body)
    template = Template.objects.get(name="Negotiation call")
    assert response.status_code == 302
    assert response["Location"] == f"/scorecards/templates/{template.pk}/"
    version = services.current_version(template)
    assert version.number == 1 and version.created_by == org.admin
    first, second = version.criteria.order_by("position")
    assert (first.title, first.weight, first.scale_max) == ("Holds the price", 2, 4)
    assert dict(first.anchors.values_list("level", "description")) == {
        1: "Discounts unasked",
        3: "Pauses after the price",
        4: "Trades, never gives",
    }
    assert (second.title, second.scale_max) == ("Trades concessions", 5)
    page = text_of(client, f"/scorecards/templates/{template.pk}/")
    assert "Pauses after the price" in page and "weight 2" in page
    assert "For pricing conversations." in page


def test_the_editor_shows_the_current_criteria_with_their_lineage(client, org, template):
    client.force_login(org.admin)
    page = text_of(client, f"/scorecards/templates/{template.pk}/edit/")
    assert (
        'value="Open questions"' in page and "Pitches straight away\n\nThree open questions" in page
    )
    for c in services.current_version(template).criteria.all():
        assert f'value="{c.criterion_id}"' in page


def test_editing_an_unused_scorecard_changes_it_in_place(client, org, template):
    lineages = list(Criterion.objects.order_by("pk").values_list("pk", flat=True))
    rows = rows_of(template)
    rows[0]["title"] = "Open questions first"
    rows[2]["DELETE"] = "on"  # "Listening" goes
    client.force_login(org.admin)
    response = client.post(
        f"/scorecards/templates/{template.pk}/edit/",
        editor_body("Discovery call", rows, initial=len(rows)),
        follow=True,
    )
    assert response.status_code == 200 and "Saved as version 1." in response.content.decode()
    assert template.versions.count() == 1
    titles = list(
        services.current_version(template)
        .criteria.order_by("position")
        .values_list("title", "criterion")
    )
    assert titles == [("Open questions first", lineages[0]), ("Next step", lineages[1])]
    # A criterion dropped before anyone scored with it leaves no lineage behind.
    assert list(Criterion.objects.order_by("pk").values_list("pk", flat=True)) == lineages[:2]


def test_editing_a_used_scorecard_makes_a_new_version_and_old_scorecards_keep_theirs(
    client, org, template, call
):
    scoring = services.self_assessment_open(actor=org.rep, work=call, template=template)
    card = submit(org.rep, scoring, [3, 2, 1])
    old = services.current_version(template)
    rows = rows_of(template)
    rows[0]["title"] = "Asks before telling"
    rows[1]["ORDER"], rows[2]["ORDER"] = "3", "2"  # Listening before Next step now
    rows.append(criterion("Agenda", "Agrees an agenda in the first two minutes."))
    client.force_login(org.admin)
    response = client.post(
        f"/scorecards/templates/{template.pk}/edit/",
        editor_body("Discovery call", rows, initial=3),
        follow=True,
    )
    assert "Saved as version 2." in response.content.decode()
    new = services.current_version(template)
    assert new.number == 2 and new.pk != old.pk
    assert list(new.criteria.order_by("position").values_list("title", flat=True)) == [
        "Asks before telling",
        "Listening",
        "Next step",
        "Agenda",
    ]
    # The same lineages run through both versions; version 1 is as it was.
    assert list(old.criteria.order_by("position").values_list("title", flat=True)) == [
        "Open questions",
        "Next step",
        "Listening",
    ]
    assert set(old.criteria.values_list("criterion", flat=True)) < set(
        new.criteria.values_list("criterion", flat=True)
    )
    card.refresh_from_db()
    scoring.refresh_from_db()
    assert card.version == old and scoring.version == old
    assert Scorecard.objects.get().scores.count() == 3
    # The template page shows the new version and links the old one.
    page = text_of(client, f"/scorecards/templates/{template.pk}/")
    assert "Scorecard · version 2" in page and "Asks before telling" in page
    assert "<strong>Version 2</strong>" in page and 'href="?version=1"' in page
    page = text_of(client, f"/scorecards/templates/{template.pk}/?version=1")
    assert "Scorecard · version 1" in page and "Open questions" in page
    assert "Asks before telling" not in page and 'href="?version=2"' in page
    # The old round still shows what it was scored on.
    client.force_login(org.rep)
    page = text_of(client, f"/scorecards/rounds/{scoring.pk}/")
    assert "Discovery call, version 1" in page and "Open questions" in page


@pytest.mark.parametrize("version", ["99", "abc", ""])
def test_an_unknown_version_shows_the_newest(client, org, template, version):
    client.force_login(org.rep)
    page = text_of(client, f"/scorecards/templates/{template.pk}/?version={version}")
    assert "Scorecard · version 1" in page


def template_choices(client, call) -> str:
    """The options of the "which scorecard" select on a call's page (the page has other
    selects, whose ids may equal a template's)."""
    page = text_of(client, f"/scorecards/calls/{call.pk}/")
    return page.split('name="template"', 1)[1].split("</select>", 1)[0]


def test_retiring_and_offering_again(client, org, template, call):
    client.force_login(org.admin)
    response = client.post(
        f"/scorecards/templates/{template.pk}/retire/", {"retired": "1"}, follow=True
    )
    page = response.content.decode()
    assert "retired: kept for old scorecards, no longer offered" in page
    assert "Offer it again" in page and f"/scorecards/templates/{template.pk}/edit/" not in page
    template.refresh_from_db()
    assert template.is_retired
    assert "Discovery call" not in text_of(client, "/scorecards/templates/")
    library = text_of(client, "/scorecards/templates/?retired=1")
    assert "Discovery call" in library and "retired</span>" in library
    # Not offered where scoring starts; not editable until offered again.
    client.force_login(org.rep)
    assert f'value="{template.pk}"' not in template_choices(client, call)
    assert "Discovery call" not in text_of(client, "/scorecards/templates/?retired=1")
    client.force_login(org.admin)
    response = client.post(
        f"/scorecards/templates/{template.pk}/edit/",
        editor_body("Discovery call", rows_of(template), initial=3),
    )
    assert response.status_code == 400
    assert "This template is retired: restore it before editing." in response.content.decode()
    response = client.post(
        f"/scorecards/templates/{template.pk}/retire/", {"retired": "0"}, follow=True
    )
    assert "“Discovery call” is offered again." in response.content.decode()
    template.refresh_from_db()
    assert not template.is_retired
    client.force_login(org.rep)
    assert f'value="{template.pk}"' in template_choices(client, call)


@pytest.mark.parametrize("choice", [None, "", "2", "999999999", "yes"])
def test_retire_without_a_choice_of_retire_or_offer_again_is_refused(client, org, template, choice):
    """Only "1" (retire) or "0" (offer again): anything else used to retire."""
    client.force_login(org.admin)
    data = {} if choice is None else {"retired": choice}
    response = client.post(f"/scorecards/templates/{template.pk}/retire/", data)
    assert response.status_code == 400
    assert "Choose to retire the scorecard or offer it again." in response.content.decode()
    template.refresh_from_db()
    assert template.retired_at is None


@pytest.mark.parametrize("who", NOT_ADMINS)
def test_everyone_but_programme_admins_gets_404_on_the_editor_and_retire(
    client, org, template, who
):
    client.force_login(getattr(org, who))
    assert client.get("/scorecards/templates/new/").status_code == 404
    assert client.get(f"/scorecards/templates/{template.pk}/edit/").status_code == 404
    posts = {
        "/scorecards/templates/new/": editor_body("Sneaky", [criterion("A")]),
        f"/scorecards/templates/{template.pk}/edit/": editor_body(
            "Renamed", rows_of(template), initial=3
        ),
        f"/scorecards/templates/{template.pk}/retire/": {"retired": "1"},
    }
    for path, data in posts.items():
        assert client.post(path, data).status_code == 404, path
    template.refresh_from_db()
    assert (template.name, template.retired_at) == ("Discovery call", None)
    assert Template.objects.count() == 1 and template.versions.count() == 1
    assert CriterionVersion.objects.count() == len(DISCOVERY)


# --- Bad input in the editor ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "rows", "reason"),
    [
        ("Discovery call", [criterion("A")], "There is already a template called"),
        ("discovery CALL", [criterion("A")], "There is already a template called"),
        ("", [criterion("A")], "This field is required."),
        ("Empty", [], "Give the template at least one criterion."),
        ("Twice", [criterion("Same"), criterion("same")], "Two criteria are called"),
        ("Anchors", [criterion("A", anchors="1\n2\n3\n4\n5")],
         "5 anchor lines for a scale of 1–4: one line per level."),
        ("Scale", [criterion("A", scale_max="11")], "less than or equal to 10"),
        ("Scale", [criterion("A", scale_max="1")], "greater than or equal to 2"),
        ("Weight", [criterion("A", weight="0")], "greater than or equal to 0.01"),
        ("No behaviour", [criterion("A", behaviour="")], "This field is required."),
        ("Lineage", [criterion("A", criterion="abc")], "Enter a whole number."),
    ],
)  # fmt: skip
def test_a_bad_new_scorecard_is_a_400_with_the_reason_and_nothing_saved(
    client, org, template, name, rows, reason
):
    client.force_login(org.admin)
    response = client.post("/scorecards/templates/new/", editor_body(name, rows))
    assert response.status_code == 400
    assert reason in response.content.decode()
    assert Template.objects.count() == 1


def test_continuing_a_criterion_of_another_template_is_refused(client, org, template):
    other = services.template_create(actor=org.admin, name="Demo call", criteria=DISCOVERY)
    foreign = services.current_version(other).criteria.first().criterion_id
    rows = rows_of(template)
    rows[0]["criterion"] = str(foreign)
    client.force_login(org.admin)
    response = client.post(
        f"/scorecards/templates/{template.pk}/edit/", editor_body("Discovery call", rows, initial=3)
    )
    assert response.status_code == 400
    assert "Criterion 1: unknown criterion to continue." in response.content.decode()
    assert list(
        services.current_version(template).criteria.values_list("criterion", flat=True)
    ) != [foreign]
    assert Anchor.objects.count() == 2 * 2  # each template's two anchors, untouched


def test_a_weight_reads_as_written_in_the_library_and_on_the_scorecard(client, org, call):
    specs = [
        services.CriterionSpec("Holds the price", "Stops talking after the price.", weight="1.50"),
        services.CriterionSpec("Next step", "Ends with a dated next step.", weight="2"),
    ]
    template = services.template_create(actor=org.admin, name="Pricing", criteria=specs)
    client.force_login(org.manager)
    library = text_of(client, f"/scorecards/templates/{template.pk}/")
    assert "weight 1.5" in library and "weight 2" in library and "1.50" not in library
    scoring = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    scorecard = text_of(client, f"/scorecards/rounds/{scoring.pk}/")
    assert "weight 1.5" in scorecard and "weight 2" in scorecard and "1.50" not in scorecard
