"""The template library through the API: everyone signed in reads it, programme
admins write it (others get 403, nothing saved); editing a used template makes a new
version and old scorecards keep theirs; retired templates are kept, not offered;
never deleted; bad input is a 400 naming the field; the list and the detail cost the
same queries whatever their size."""

import pytest
from django.utils import timezone

from scorecards import services
from scorecards.models import CriterionVersion, Scorecard, Template, TemplateVersion
from tests.support.scorecards_api import client_for, ids, queries

from .conftest import DISCOVERY, submit

pytestmark = pytest.mark.django_db

URL = "/api/v1/scorecard-templates/"
EVERYONE = ["head", "manager", "other_manager", "rep", "peer", "other_rep", "hr", "admin"]
NOT_ADMINS = ["head", "manager", "rep", "hr"]


def criterion(title, behaviour="Something you can hear on the recording.", **extra):
    return {"title": title, "behaviour": behaviour, **extra}


def new_template_body(**extra):
    return {
        "name": "Pricing pushback",
        "description": "Holding the price without discounting first.",
        "criteria": [
            criterion("Asks why", anchors={"1": "Discounts at once", "4": "Asks what's behind it"}),
            criterion("Restates value", scale_max=5, weight="2.5"),
        ],
        **extra,
    }


def body_from(detail, changes=None):
    """A PATCH body continuing every criterion of a template detail, with changes by
    position: {1: {"title": "…"}}."""
    criteria = []
    for row in detail["version"]["criteria"]:
        item = {
            "title": row["title"],
            "behaviour": row["behaviour"],
            "scale_max": row["scale_max"],
            "weight": row["weight"],
            "anchors": {str(a["level"]): a["description"] for a in row["anchors"]},
            "criterion": row["criterion"],
        }
        item.update((changes or {}).get(row["position"], {}))
        criteria.append(item)
    return {"criteria": criteria}


# --- Reading --------------------------------------------------------------------------------


@pytest.mark.parametrize("who", EVERYONE)
def test_everyone_signed_in_reads_the_library(org, template, who):
    client = client_for(getattr(org, who))
    listed = client.get(URL).json()["results"]
    mine = next(row for row in listed if row["id"] == template.pk)
    assert mine["name"] == "Discovery call"
    assert (mine["current_version"], mine["criteria_count"], mine["retired_at"]) == (1, 3, None)
    detail = client.get(f"{URL}{template.pk}/").json()
    assert [c["title"] for c in detail["version"]["criteria"]] == [
        "Open questions",
        "Next step",
        "Listening",
    ]
    first = detail["version"]["criteria"][0]
    assert first["anchors"] == [
        {"level": 1, "description": "Pitches straight away"},
        {"level": 3, "description": "Three open questions before the demo"},
    ]
    assert (first["position"], first["scale_max"], first["weight"]) == (1, 4, 1.0)
    assert detail["versions"][0]["number"] == 1


def test_anonymous_callers_get_401(template):
    assert client_for().get(URL).status_code == 401
    assert client_for().get(f"{URL}{template.pk}/").status_code == 401
    assert client_for().post(URL, new_template_body(), format="json").status_code == 401


def test_an_unknown_template_or_version_is_404(org, template):
    client = client_for(org.rep)
    assert client.get(f"{URL}987654/").status_code == 404
    assert client.get(f"{URL}{template.pk}/", {"version": 7}).status_code == 404
    assert client.get(f"{URL}{template.pk}/", {"version": "first"}).status_code == 400


# --- Writing ---------------------------------------------------------------------------------


def test_a_programme_admin_adds_a_template(org):
    response = client_for(org.admin).post(URL, new_template_body(), format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["name"] == "Pricing pushback" and body["versions"][0]["number"] == 1
    asks, restates = body["version"]["criteria"]
    assert asks["anchors"] == [
        {"level": 1, "description": "Discounts at once"},
        {"level": 4, "description": "Asks what's behind it"},
    ]
    assert (restates["scale_max"], restates["weight"]) == (5, 2.5)
    assert asks["criterion"] != restates["criterion"]


@pytest.mark.parametrize("who", NOT_ADMINS)
def test_everyone_else_gets_403_on_every_write_and_nothing_changes(org, template, who):
    client = client_for(getattr(org, who))
    created = client.post(URL, new_template_body(), format="json")
    assert created.status_code == 403
    assert created.json() == {"detail": "Only programme admins can change this."}
    detail = client.get(f"{URL}{template.pk}/").json()
    edited = client.patch(
        f"{URL}{template.pk}/", body_from(detail, {1: {"title": "Mine"}}), format="json"
    )
    assert edited.status_code == 403
    assert client.post(f"{URL}{template.pk}/retire/").status_code == 403
    assert client.post(f"{URL}{template.pk}/restore/").status_code == 403
    assert not Template.objects.filter(name="Pricing pushback").exists()
    template.refresh_from_db()
    assert template.retired_at is None
    assert services.current_version(template).criteria.get(position=1).title == "Open questions"


def test_templates_are_never_deleted_nor_replaced_whole(org, template):
    client = client_for(org.admin)
    assert client.delete(f"{URL}{template.pk}/").status_code == 405
    assert client.put(f"{URL}{template.pk}/", new_template_body(), format="json").status_code == 405
    assert Template.objects.filter(pk=template.pk).exists()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"name": ""}, "name"),
        ({"name": "x" * 121}, "name"),
        ({"name": "discovery CALL"}, "name"),  # taken, whatever the case
        ({"criteria": []}, "criteria"),
        ({"criteria": "Open questions"}, "criteria"),
        ({"criteria": [criterion("")]}, "criteria"),
        ({"criteria": [criterion("A"), criterion("a")]}, "criteria"),
        ({"criteria": [criterion("A", scale_max=1)]}, "criteria"),
        ({"criteria": [criterion("A", scale_max=11)]}, "criteria"),
        ({"criteria": [criterion("A", scale_max="big")]}, "criteria"),
        ({"criteria": [criterion("A", weight=0)]}, "criteria"),
        ({"criteria": [criterion("A", weight="heavy")]}, "criteria"),
        ({"criteria": [criterion("A", anchors={"5": "too high"})]}, "criteria"),
        ({"criteria": [criterion("A", anchors={"top": "x"})]}, "criteria"),
        ({"criteria": [criterion("A", criterion=987654)]}, "criteria"),
        ({"criteria": [criterion("A", criterion="abc")]}, "criteria"),
        ({"criteria": [criterion("A", colour="red")]}, "criteria"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_templates_are_a_400_naming_the_field_and_nothing_is_saved(
    org, template, change, field
):
    before = (Template.objects.count(), CriterionVersion.objects.count())
    response = client_for(org.admin).post(URL, {**new_template_body(), **change}, format="json")
    assert response.status_code == 400
    assert field in response.json(), response.json()
    assert (Template.objects.count(), CriterionVersion.objects.count()) == before


def test_a_criterion_of_another_template_cannot_be_continued(org, template):
    other = services.template_create(actor=org.admin, name="Cold call", criteria=DISCOVERY)
    client = client_for(org.admin)
    body = body_from(client.get(f"{URL}{other.pk}/").json())
    body["criteria"][0]["criterion"] = (
        services.current_version(template).criteria.first().criterion_id
    )
    response = client.patch(f"{URL}{other.pk}/", body, format="json")
    assert response.status_code == 400
    assert "unknown criterion" in response.json()["criteria"][0]


def test_a_rename_keeps_the_criteria_and_makes_no_new_version(org, template, call):
    services.self_assessment_open(actor=org.rep, work=call, template=template)  # now used
    client = client_for(org.admin)
    response = client.patch(f"{URL}{template.pk}/", {"name": "Discovery"}, format="json")
    assert response.status_code == 200, response.json()
    template.refresh_from_db()
    assert template.name == "Discovery" and template.versions.count() == 1
    sent_back = body_from(client.get(f"{URL}{template.pk}/").json())
    assert client.patch(f"{URL}{template.pk}/", sent_back, format="json").status_code == 200
    assert template.versions.count() == 1  # the same criteria again: no new version


def test_an_empty_patch_is_refused(org, template):
    response = client_for(org.admin).patch(f"{URL}{template.pk}/", {}, format="json")
    assert response.status_code == 400
    assert response.json() == {"non_field_errors": ["Send any of: name, description, criteria."]}


# --- Versions --------------------------------------------------------------------------------


def test_an_unused_template_is_edited_in_place(org, template):
    client = client_for(org.admin)
    detail = client.get(f"{URL}{template.pk}/").json()
    body = body_from(detail, {1: {"title": "Open questions first"}}) | {"name": "Discovery"}
    response = client.patch(f"{URL}{template.pk}/", body, format="json")
    assert response.status_code == 200, response.json()
    after = response.json()
    assert after["name"] == "Discovery"
    assert [v["number"] for v in after["versions"]] == [1]
    assert after["version"]["criteria"][0]["title"] == "Open questions first"


def test_editing_a_used_template_makes_a_new_version_and_old_scorecards_keep_theirs(
    org, template, call
):
    scoring = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    card = submit(org.manager, scoring, [3, 2, 3])
    client = client_for(org.admin)
    old = client.get(f"{URL}{template.pk}/").json()
    body = body_from(old, {1: {"title": "Open questions first", "scale_max": 5}})
    body["criteria"].append(criterion("Pain quantified"))
    response = client.patch(f"{URL}{template.pk}/", body, format="json")
    assert response.status_code == 200, response.json()
    new = response.json()
    assert [v["number"] for v in new["versions"]] == [2, 1]
    assert new["version"]["number"] == 2
    assert [c["title"] for c in new["version"]["criteria"]] == [
        "Open questions first",
        "Next step",
        "Listening",
        "Pain quantified",
    ]
    # The edited criterion continues its lineage; the added one starts its own.
    assert new["version"]["criteria"][0]["criterion"] == old["version"]["criteria"][0]["criterion"]
    assert new["version"]["criteria"][3]["criterion"] not in {
        c["criterion"] for c in old["version"]["criteria"]
    }
    # The old version is still there to read, and the scorecard points at it.
    v1 = client.get(f"{URL}{template.pk}/", {"version": 1}).json()["version"]
    assert [c["title"] for c in v1["criteria"]] == ["Open questions", "Next step", "Listening"]
    card.refresh_from_db()
    assert card.version_id == v1["id"]
    shown = client_for(org.rep).get(f"/api/v1/scorecards/{card.pk}/")
    assert shown.status_code == 404  # the rep has not scored: nothing to see yet
    shown = client_for(org.manager).get(f"/api/v1/scorecards/{card.pk}/").json()
    assert shown["version"] == 1 and shown["scores"][0]["title"] == "Open questions"
    listed = client.get(URL).json()["results"]
    assert next(r for r in listed if r["id"] == template.pk)["current_version"] == 2


def test_retiring_hides_a_template_from_the_library_and_from_new_scoring(org, template, call):
    client = client_for(org.admin)
    retired = client.post(f"{URL}{template.pk}/retire/")
    assert retired.status_code == 200 and retired.json()["retired_at"] is not None
    assert template.pk not in ids(client_for(org.rep).get(URL))
    assert template.pk in ids(client_for(org.rep).get(URL, {"all": 1}))
    assert client_for(org.rep).get(f"{URL}{template.pk}/").status_code == 200
    edit = client.patch(
        f"{URL}{template.pk}/", body_from(retired.json(), {1: {"title": "X"}}), format="json"
    )
    assert edit.status_code == 400 and "retired" in str(edit.json())
    restored = client.post(f"{URL}{template.pk}/restore/")
    assert restored.status_code == 200 and restored.json()["retired_at"] is None
    assert template.pk in ids(client_for(org.rep).get(URL))


# --- Costs -----------------------------------------------------------------------------------


def test_the_list_and_the_detail_cost_the_same_queries_whatever_their_size(org, template):
    client = client_for(org.rep)
    # session, user, count, the page (current version and criteria count as subqueries)
    few = queries(client, URL)
    # session, user, template, versions, the version, its criteria, their anchors
    detail = queries(client, f"{URL}{template.pk}/")
    assert (few, detail) == (4, 7)
    for n in range(6):
        services.template_create(
            actor=org.admin,
            name=f"Template {n}",
            criteria=[*DISCOVERY, services.CriterionSpec(f"Extra {n}", "More of it.")],
        )
    big = services.template_create(
        actor=org.admin,
        name="Big",
        criteria=[
            services.CriterionSpec(f"C{n}", "x", anchors={1: "a", 2: "b", 3: "c", 4: "d"})
            for n in range(12)
        ],
    )
    call = services.recorded_call_create(
        actor=org.rep,
        person=org.rep,
        title="c",
        call_date=timezone.localdate(),
        url="https://x.example",
    )
    services.self_assessment_open(actor=org.rep, work=call, template=big)
    services.template_update(
        actor=org.admin,
        template=big,
        criteria=[services.CriterionSpec(f"C{n}", "y") for n in range(12)],
    )
    assert TemplateVersion.objects.filter(template=big).count() == 2
    assert queries(client, URL) == few
    assert queries(client, f"{URL}{big.pk}/") == detail
    assert Scorecard.objects.count() == 0


def test_the_template_endpoints_are_in_the_schema(org):
    schema = client_for(org.rep).get("/api/schema/", {"format": "json"}).json()
    for path in (URL, f"{URL}{{id}}/", f"{URL}{{id}}/retire/", f"{URL}{{id}}/restore/"):
        assert path in schema["paths"], path
    assert "delete" not in schema["paths"][f"{URL}{{id}}/"]


def test_the_browsable_api_renders_the_edit_form_with_the_current_criteria(org, template):
    # The browsable API fills its PATCH form through the view's serializer from the
    # template shown: it gets the criteria as they would be sent back.
    page = client_for(org.admin).get(f"{URL}{template.pk}/", HTTP_ACCEPT="text/html")
    assert page.status_code == 200
    assert "Open questions" in page.content.decode() and "PATCH" in page.content.decode()
    listing = client_for(org.admin).get(URL, HTTP_ACCEPT="text/html")
    assert listing.status_code == 200 and "criteria" in listing.content.decode()
