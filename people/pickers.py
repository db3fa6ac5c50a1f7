"""Choosing people from an organisation of thousands: a search box instead of a list.

A form offers people through a named *source*: a function of the signed-in person (and
a few query parameters, such as the feedback item being shared) giving the people they
may choose. `offer_people` sets the field's queryset from the source; when the source
holds more than `settings.PEOPLE_PICKER_LIST_UP_TO` people, the field's list is swapped
for `PeopleSearch`: a search box whose matches (`people_pick`, an htmx GET) come from
the same source, so the page carries the chosen few instead of 10,000 options, and a
forged id is still "not a valid choice" because the field validates against the source.

Without a search (JavaScript off) the chosen people stay chosen and the form still
validates; only finding new people needs the search. Apps register their sources
(`@source`) in their forms module, which their AppConfig imports when ready.
docs/people-and-roles.md lists them.

A source may offer teams instead (`offers=TEAMS`): an organisation of 10,000 has 900
of them, too many for a list too. They are found by name, with the same widget,
search and rules."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.conf import settings
from django.db.models import Case, Q, QuerySet, When
from django.forms.models import ModelChoiceIteratorValue
from django.http import Http404
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from .models import Team, User
from .selectors import own_team

Source = Callable[[User, Mapping[str, str]], QuerySet]
# labels(user, params, people) -> {person id: label}, for sources whose people are
# shown with more than their name (the pair form's focus-area scores).
Labels = Callable[[User, Mapping[str, str], list[User]], dict[int, str]]


@dataclass(frozen=True)
class Offered:
    """What a source offers, and how its rows are found and shown."""

    matching: Callable[[QuerySet, str], QuerySet]  # rows that match a search, best first
    label: Callable[[Any], str]
    detail: Callable[[Any], str]  # muted beside the label
    placeholder: str
    hint: str
    nothing: str  # "{}": what was typed
    counted: tuple[str, str]  # one, many: "person", "people"
    nobody: tuple[str, str]  # nothing matches: with nobody chosen, with some chosen

    def found(self, matches: int, *, more: bool = False, chosen: bool = False) -> str:
        """A search's matches in a few words, read out instead of every name. The
        matches leave out the chosen, listed first: with some chosen, they are more."""
        if more:
            return f"More than {matches} {self.counted[1]} found: the first {matches} are listed."
        if not matches:
            return self.nobody[1] if chosen else self.nobody[0]
        noun = self.counted[0] if matches == 1 else self.counted[1]
        return f"{matches} more {noun} found." if chosen else f"{matches} {noun} found."


@dataclass(frozen=True)
class _Source:
    people: Source  # or teams: see `offers`
    allowed: Callable[[User], bool] | None
    labels: Labels | None
    offers: Offered


_SOURCES: dict[str, _Source] = {}

MATCHES_SHOWN = 20
QUERY_LIMIT = 100  # characters of a search


def source(
    name: str,
    *,
    allowed: Callable[[User], bool] | None = None,
    labels: Labels | None = None,
    offers: Offered | None = None,
):
    """Register `fn(user, params) -> QuerySet[User]` as the people source `name`.
    `allowed(user)` says whether the search may be used at all (the pages decide for
    their own forms); `fn` raises Http404 for parameters naming what `user` may not see.
    `labels`: how its people are labelled, when not by name. `offers=TEAMS`: its rows
    are teams."""

    def register(fn: Source) -> Source:
        if name in _SOURCES and _SOURCES[name].people is not fn:
            raise ValueError(f"Two people sources are named {name!r}.")
        _SOURCES[name] = _Source(fn, allowed, labels, offers or PEOPLE)
        return fn

    return register


def source_for(name: str, user: User) -> _Source:
    """Source `name` for the search: Http404 if there is none or it is not for `user`."""
    registered = _SOURCES.get(name)
    if registered is None or (registered.allowed is not None and not registered.allowed(user)):
        raise Http404
    return registered


def labels_of(registered: _Source, user: User, params, people: list[User]) -> dict[int, str]:
    """{person id: label} for `people`: the source's own labels, else names."""
    if registered.labels is not None:
        return registered.labels(user, params, people)
    return {person.pk: registered.offers.label(person) for person in people}


def list_up_to() -> int:
    return settings.PEOPLE_PICKER_LIST_UP_TO


def offer_people(
    field: forms.ModelChoiceField,
    *,
    source: str,
    user: User,
    params: Mapping[str, str] | None = None,
    people: QuerySet[User] | None = None,
    validate: bool = True,
) -> None:
    """Offer `field` the people of `source` for `user`: as the field's own list when
    they are few, as a search box when they are many (decided when the field is first
    drawn, by the query the list needed anyway; validating costs nothing more).
    `people`: the source's people when the form has already worked them out with the
    same selector the source calls. `validate=False` leaves the field's own queryset
    to validate against (the pair form lets its service say why someone cannot be
    paired)."""
    params = {key: str(value) for key, value in (params or {}).items()}
    registered = _SOURCES[source]
    if people is None:
        people = registered.people(user, params)
    if validate:
        field.queryset = people
    field.widget = PeopleSearch(
        listed=field.widget,
        people=people,
        source=source,
        params=params,
        labels=lambda rows: labels_of(registered, user, params, rows),
        blank=None if field.required else getattr(field, "empty_label", None),
        offers=registered.offers,
        first=offered_first(registered, user),
    )
    field.widget.is_required = field.required
    field.widget.choices = field.choices


def person_label(person: User) -> str:
    return person.display_name if person.is_active else f"{person.display_name} (left)"


def choice_items(
    people,
    *,
    name: str,
    id_: str,
    multiple: bool,
    labels,
    chosen=(),
    detail: Callable[[Any], str],
    blank: str | None = None,
) -> SafeString:
    """`<li>` items, input then label (`labels`: {person id: label}; `detail` muted
    after it), as `people/templatetags/choices.py` writes a list: the chosen people
    checked, then `people`; `blank` first for "nobody"."""
    kind = "checkbox" if multiple else "radio"
    rows = []
    if blank is not None and not multiple:
        rows.append((kind, name, "", f"{id_}_blank", "" if chosen else " checked", blank, ""))
    for checked, group in ((" checked", chosen), ("", people)):
        rows.extend(
            (kind, name, p.pk, f"{id_}_{p.pk}", checked, labels[p.pk], detail(p)) for p in group
        )
    return format_html_join(
        "",
        '<li><input type="{}" name="{}" value="{}" id="{}"{}> '
        '<label for="{}">{} <span class="muted">{}</span></label></li>',
        ((k, n, v, i, c, i, label, email) for k, n, v, i, c, label, email in rows),
    )


class PeopleSearch(forms.Widget):
    """The field's own list (`listed`) for a few people; for many, a search box over
    the source with the chosen people listed under it as checked boxes (radio buttons
    for one person). Each search sends the chosen ones along, so they stay on the
    list while the matches change."""

    def __init__(
        self, *, listed: forms.Widget, people, source, params, labels, blank, offers, first=None
    ):
        super().__init__(listed.attrs)
        self.listed, self.people, self.source, self.params = listed, people, source, params
        self.labels, self.blank, self.offers, self.first = labels, blank, offers, first
        self.multiple = self.allow_multiple_selected = listed.allow_multiple_selected

    is_hidden = False

    @property
    def choices(self):
        return self.listed.choices

    @choices.setter
    def choices(self, value):  # ModelChoiceField sets it with its queryset
        self.listed.choices = value

    @cached_property
    def searching(self) -> bool:
        """One query reads up to one person more than a list shows: too many, a
        search; else the list is drawn from these rows, with no second query."""
        rows = list(self.people[: list_up_to() + 1])
        if len(rows) > list_up_to():
            return True
        field = self.choices.field  # the field's ModelChoiceIterator's
        labels = self.labels(rows)
        blank = [("", field.empty_label)] if field.empty_label is not None else []
        self.listed.choices = blank + [
            (ModelChoiceIteratorValue(field.prepare_value(p), p), labels[p.pk]) for p in rows
        ]
        return False

    @property
    def input_type(self) -> str:
        """What templates branch on: a search box gets a label and is drawn whole."""
        return "search" if self.searching else self.listed.input_type

    def value_from_datadict(self, data, files, name):
        return self.listed.value_from_datadict(data, files, name)

    def value_omitted_from_data(self, data, files, name):
        return self.listed.value_omitted_from_data(data, files, name)

    def subwidgets(self, name, value, attrs=None):
        return self.listed.subwidgets(name, value, attrs)

    def id_for_label(self, id_):
        return id_ if self.searching else self.listed.id_for_label(id_)

    def use_required_attribute(self, initial):
        return False if self.searching else self.listed.use_required_attribute(initial)

    def _chosen(self, value) -> list:
        raw = value if isinstance(value, list | tuple) else [value]
        ids = [str(v) for v in raw if v not in (None, "")]
        if not ids:
            return []
        try:
            return list(self.people.filter(pk__in=ids))
        except (ValueError, TypeError):
            return []  # a forged id: the field says so, the list shows nobody

    def render(self, name, value, attrs=None, renderer=None):
        if not self.searching:
            return self.listed.render(name, value, attrs, renderer)
        attrs = self.build_attrs(self.attrs, attrs)
        id_ = attrs.get("id") or f"id_{name}"
        results = f"{id_}_results"
        url = reverse("people:people_pick", args=[self.source])
        query = {"name": name, "id": id_, **self.params}
        if self.multiple:
            query["multiple"] = "1"
        if self.blank is not None:
            query["blank"] = self.blank
        described = " ".join(filter(None, [f"{id_}_hint", attrs.get("aria-describedby")]))
        chosen = self._chosen(value)
        team = suggested(self.people, self.first, [p.pk for p in chosen])
        return format_html(
            '<div class="people-search">'
            '<input type="search" id="{id}" name="{name}_search" autocomplete="off" '
            'placeholder="{placeholder}" aria-controls="{results}"{invalid} '
            'aria-describedby="{described}" hx-get="{url}?{query}" '
            'hx-trigger="input changed delay:250ms, search" hx-target="#{results}" '
            'hx-include="#{results}" hx-sync="this:replace">'
            '<p class="help" id="{id}_hint">{hint}</p>'
            # Each search says how many it found here (people_pick fills it in); the
            # list itself is no live region, or every name would be read each time.
            '<p class="visually-hidden" id="{id}_found" role="status"></p>'
            '<ul class="choices people-choices" id="{results}">{items}</ul>'
            "</div>",
            id=id_,
            name=name,
            placeholder=self.offers.placeholder,
            hint=self.offers.hint,
            results=results,
            described=described,
            # Refused: marked as the list's own inputs would be (Django sets it).
            invalid=mark_safe(' aria-invalid="true"') if attrs.get("aria-invalid") else "",
            url=url,
            query=urlencode(query),
            items=choice_items(
                [],
                name=name,
                id_=id_,
                multiple=self.multiple,
                labels=self.labels(chosen),
                chosen=chosen,
                blank=self.blank,
                detail=self.offers.detail,
            )
            + team_items(
                team,
                name=name,
                id_=id_,
                multiple=self.multiple,
                labels=self.labels(team) if team else {},
            ),
        )


def offered_first(registered: _Source, user: User) -> Q | None:
    """Whom a people picker offers first: the picking person's own team
    (`people.selectors.own_team`), only ever among the source's people. Teams: none."""
    if registered.offers is not PEOPLE:
        return None
    return own_team(person=user)


def suggested(people: QuerySet, first: Q | None, chosen_ids) -> list:
    """Before anything is typed: up to MATCHES_SHOWN of the source's people of the
    picker's own team (`first`), by name, the chosen left out (they are listed)."""
    if first is None:
        return []
    team = people.filter(first).exclude(pk__in=list(chosen_ids))
    return list(team.order_by("display_name", "pk")[:MATCHES_SHOWN])


def team_items(team: list, *, name: str, id_: str, multiple: bool, labels) -> SafeString:
    """The suggested people of one's own team, under a few words saying who they are."""
    if not team:
        return mark_safe("")
    return format_html(
        '<li class="muted choices-note">Your team:</li>{}',
        choice_items(
            team, name=name, id_=id_, multiple=multiple, labels=labels, detail=PEOPLE.detail
        ),
    )


def search(
    people: QuerySet, text: str, chosen_ids: list[str], *, offers: Offered, first: Q | None = None
) -> tuple[list, list]:
    """The chosen people (those of `chosen_ids` in `people`) and, for `text`, up to
    MATCHES_SHOWN + 1 others who match it, those of `first` (one's own team) first
    (two queries at most)."""
    chosen = list(people.filter(pk__in=chosen_ids)) if chosen_ids else []
    if not text:
        return chosen, []
    found = offers.matching(people, text)
    if first is not None:
        found = found.order_by(Case(When(first, then=0), default=1), *found.query.order_by)
    return chosen, list(found.exclude(pk__in=chosen_ids)[: MATCHES_SHOWN + 1])


def matching(people: QuerySet[User], text: str) -> QuerySet[User]:
    """People whose name or email holds `text` (case-insensitive), those whose name
    starts with it first."""
    return people.filter(Q(display_name__icontains=text) | Q(email__icontains=text)).order_by(
        Case(When(display_name__istartswith=text, then=0), default=1), "display_name", "pk"
    )


def teams_matching(teams: QuerySet[Team], text: str) -> QuerySet[Team]:
    """Teams whose name holds `text` (case-insensitive), those it starts first."""
    return teams.filter(name__icontains=text).order_by(
        Case(When(name__istartswith=text, then=0), default=1), "name", "pk"
    )


PEOPLE = Offered(
    matching=matching,
    label=person_label,
    detail=lambda person: person.email,
    placeholder="Type a name or an email",
    hint="Type part of a name or an email to find someone.",
    nothing="Nobody matches “{}”.",
    counted=("person", "people"),
    nobody=("Nobody found.", "Nobody else found."),
)
TEAMS = Offered(
    matching=teams_matching,
    label=lambda team: team.name,
    # Which of two "EMEA Retail" teams: sources of teams read their leads along.
    detail=lambda team: f"led by {team.lead.display_name}" if team.lead else "no lead yet",
    placeholder="Type a team's name",
    hint="Type part of the team's name to find it.",
    nothing="No team matches “{}”.",
    counted=("team", "teams"),
    nobody=("No team found.", "No other team found."),
)


@source("colleagues")
def colleagues(user: User, params) -> QuerySet[User]:
    """Everyone active but oneself: whom anyone may give feedback to or ask for it."""
    return User.objects.filter(is_active=True).exclude(pk=user.pk).order_by("display_name")
