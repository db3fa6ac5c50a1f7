"""Every POST form of a page, read with the standard library's HTML parser, and the
hostile submissions to make with each.

`read_page(html, page)` finds each `<form method="post">` — and htmx's `hx-post`, on
a form or on a button — with its fields as a browser would send them (CSRF token
included). `payloads(form, ...)` turns one form into submissions of one hostile kind
each: text far too long, script in text, a NUL character in text, unknown and
forbidden ids in selects, words in number fields, impossible and out-of-range dates,
a time zone that does not exist, garbage times, required fields left out. Every other
field keeps a plausible value, so a refusal is the hostile field's doing.

Used by tests/test_forms_bad_input.py."""

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

SCRIPT = '<script>alert("xss")</script><img src=x onerror=alert(1)>'
# What must never come back raw: the payload's script tag and its event handler.
UNESCAPED = ('<script>alert("xss")', "<img src=x onerror=alert(1)>")
UNKNOWN_ID = "999999999"
OVERSIZED = "x" * 100_000

TEXT_TYPES = {"text", "search", "email", "url", "password", "tel", ""}
IGNORED_TYPES = {"submit", "button", "reset", "image", "file"}


@dataclass
class Field:
    name: str
    kind: str  # an input type, "textarea" or "select"
    value: str = ""
    required: bool = False
    options: list[str] = field(default_factory=list)  # select and radio values
    selected: list[str] = field(default_factory=list)  # what a browser would send
    multiple: bool = False
    attrs: dict = field(default_factory=dict)

    @property
    def textual(self) -> bool:
        return self.kind == "textarea" or self.kind in TEXT_TYPES

    @property
    def choice(self) -> bool:
        return self.kind in ("select", "radio")

    @property
    def ids(self) -> bool:
        """A choice among objects: every option a number (a primary key)."""
        values = [o for o in self.options if o]
        return self.choice and bool(values) and all(v.isdigit() for v in values)


@dataclass
class Form:
    page: str  # the path the form was found on
    action: str  # path (and query) to post to
    htmx: bool
    hx_target: str
    fields: list[Field]
    submit: tuple[str, str] | None  # the first named submit button, as a browser sends it
    fallback: str = ""  # where an htmx form posts without JavaScript (its action)

    @property
    def csrf(self) -> str:
        for f in self.fields:
            if f.name == "csrfmiddlewaretoken":
                return f.value
        return ""

    @property
    def inputs(self) -> list[Field]:
        """The fields a person fills in (not the CSRF token, not hidden ones)."""
        return [f for f in self.fields if f.kind != "hidden"]

    def signature(self) -> tuple:
        return (self.htmx, tuple(sorted((f.name, f.kind) for f in self.fields)))


class _Parser(HTMLParser):
    def __init__(self, page: str):
        super().__init__(convert_charrefs=True)
        self.page = page
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._select: Field | None = None
        self._option: dict | None = None
        self._textarea: Field | None = None
        self._text: list[str] = []
        self.lazy: list[tuple[str, str]] = []  # (path, target id) htmx loads on its own
        self.links: list[str] = []  # links with a query string: pages in another state

    def _url(self, value: str | None) -> str:
        parts = urlsplit(urljoin(self.page, value or self.page))
        return parts.path + (f"?{parts.query}" if parts.query else "")

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if "hx-get" in a and "load" in a.get("hx-trigger", ""):
            self.lazy.append((self._url(a["hx-get"]), a.get("id", "")))
        if tag == "a" and "?" in a.get("href", "") and a["href"].startswith(("/", "?")):
            self.links.append(self._url(a["href"]))
        if tag == "form":
            post = a.get("method", "get").lower() == "post" or "hx-post" in a
            if post:
                hx = "hx-post" in a
                action = self._url(a.get("hx-post") if hx else a.get("action"))
                self._form = Form(self.page, action, hx, a.get("hx-target", ""), [], None)
                if hx and "action" in a:
                    self._form.fallback = self._url(a["action"])
                self.forms.append(self._form)
            else:
                self._form = None
            return
        if tag == "button" and "hx-post" in a and self._form is None:
            # A button posting by itself: what it sends is its own name and value.
            button = Form(
                self.page, self._url(a["hx-post"]), True, a.get("hx-target", ""), [], None
            )
            if a.get("name"):
                button.submit = (a["name"], a.get("value", ""))
            self.forms.append(button)
            return
        form = self._form
        if form is None:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text").lower()
            if kind in IGNORED_TYPES:
                if kind in ("submit", "image") and form.submit is None:
                    form.submit = (name, a.get("value", ""))
                return
            checked = "checked" in a
            value = a.get("value", "on" if kind in ("checkbox", "radio") else "")
            existing = next((f for f in form.fields if f.name == name and f.kind == kind), None)
            if kind == "radio" and existing is not None:
                existing.options.append(value)
                existing.selected += [value] if checked else []
                existing.required |= "required" in a
                return
            f = Field(name, kind, value, "required" in a, attrs=a)
            if kind == "radio":
                f.options, f.selected = [value], [value] if checked else []
            if kind == "checkbox":
                f.selected = [value] if checked else []
            form.fields.append(f)
        elif tag == "textarea" and name:
            self._textarea = Field(name, "textarea", "", "required" in a, attrs=a)
            self._text = []
        elif tag == "select" and name:
            self._select = Field(name, "select", "", "required" in a, multiple="multiple" in a)
            self._select.attrs = a
        elif tag == "option" and self._select is not None:
            self._option = {"value": a.get("value"), "selected": "selected" in a}
            self._text = []
        elif tag == "button" and name and a.get("type", "submit") == "submit" and not form.submit:
            form.submit = (name, a.get("value", ""))

    def handle_data(self, data):
        if self._textarea is not None or self._option is not None:
            self._text.append(data)

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "textarea" and self._textarea is not None and self._form is not None:
            self._textarea.value = "".join(self._text).removeprefix("\n")
            self._form.fields.append(self._textarea)
            self._textarea = None
        elif tag == "option" and self._option is not None and self._select is not None:
            value = self._option["value"]
            value = "".join(self._text).strip() if value is None else value
            self._select.options.append(value)
            if self._option["selected"]:
                self._select.selected.append(value)
            self._option = None
        elif tag == "select" and self._select is not None and self._form is not None:
            self._form.fields.append(self._select)
            self._select = None


@dataclass
class Page:
    forms: list[Form]
    lazy: list[tuple[str, str]]  # fragments htmx loads into it by itself (path, target id)
    links: list[str]  # same-site links with a query string (`?kind=…`, `?to=…`)


def read_page(html: str, page: str) -> Page:
    """The POST forms of a page, the fragments htmx loads into it (whose forms are the
    page's too) and its links to pages in another state."""
    parser = _Parser(page)
    parser.feed(html)
    parser.close()
    return Page(parser.forms, parser.lazy, parser.links)


# --- Submissions -----------------------------------------------------------------------


def _plausible(f: Field) -> list[str]:
    """What a careful person would send in this field (empty: nothing sent)."""
    if f.kind == "checkbox":
        return f.selected
    if f.choice:
        if f.selected:
            return f.selected
        first = next((o for o in f.options if o), None)
        return [first] if first is not None and (f.required or f.kind == "select") else []
    if f.value or f.kind == "hidden":
        return [f.value]
    if not f.required:
        return [""]
    soon = datetime.now() + timedelta(days=7)
    return [
        {
            "email": "someone@example.com",
            "url": "https://example.com/call",
            "number": f.attrs.get("min") or "1",
            "date": soon.date().isoformat(),
            "datetime-local": soon.strftime("%Y-%m-%dT10:00"),
            "time": "10:00",
        }.get(f.kind, "Plain words")
    ]


def baseline(form: Form) -> dict[str, list[str]]:
    data = {f.name: _plausible(f) for f in form.fields}
    data = {k: v for k, v in data.items() if v}
    if form.submit:
        data[form.submit[0]] = [form.submit[1]]
    return data


def _zone(f: Field) -> bool:
    return "zone" in f.name or f.name in ("tz", "timezone")


@dataclass
class Submission:
    kind: str
    data: dict[str, list[str]]
    fields: list[str]  # the hostile ones


# Every hostile kind. Whatever is sent with these must be refused; script in text may
# be saved (and is then shown escaped).
KINDS = (
    "oversized",
    "script",
    "nul_text",
    "unknown_id",
    "unknown_hidden_id",
    "forbidden_id",
    "unknown_choice",
    "number_words",
    "number_huge",
    "date_impossible",
    "date_ancient",
    "date_far",
    "datetime_garbage",
    "datetime_far",
    "time_garbage",
    "time_zone",
    "unknown_button_value",
    "missing_required",
)
MAY_BE_ACCEPTED = {"script"}


def payloads(form: Form, forbidden_id, not_references=frozenset()) -> list[Submission]:
    """One submission per hostile kind this form has a field for.
    `forbidden_id(field)` gives the id of an existing object this person may not
    pick in that select (or None); hidden fields named in `not_references` hold a
    number that names no object, and are left as they are."""
    base = baseline(form)
    out: list[Submission] = []

    def hostile(kind, pick, value):
        chosen = [f for f in form.inputs if pick(f)]
        if not chosen:
            return
        data = dict(base)
        for f in chosen:
            data[f.name] = [value(f) if callable(value) else value]
        out.append(Submission(kind, data, [f.name for f in chosen]))

    text = [f for f in form.inputs if f.textual and not _zone(f)]
    if text:
        hostile("oversized", lambda f: f in text, OVERSIZED)
        hostile("script", lambda f: f in text, SCRIPT)
        # PostgreSQL refuses a NUL in text outright: a form must refuse it first.
        hostile("nul_text", lambda f: f in text, "before\x00after")
    hostile("unknown_id", lambda f: f.ids, UNKNOWN_ID)
    hidden_ids = [
        f
        for f in form.fields
        if f.kind == "hidden" and f.value.isdigit() and f.name not in not_references
    ]
    if hidden_ids:
        data = dict(base) | {f.name: [UNKNOWN_ID] for f in hidden_ids}
        out.append(Submission("unknown_hidden_id", data, [f.name for f in hidden_ids]))
    forbidden = {f.name: forbidden_id(f) for f in form.inputs if f.ids}
    forbidden = {k: v for k, v in forbidden.items() if v is not None}
    if forbidden:
        data = dict(base) | {k: [str(v)] for k, v in forbidden.items()}
        out.append(Submission("forbidden_id", data, list(forbidden)))
    choices = [f for f in form.inputs if f.choice and not f.ids and not _zone(f)]
    if choices:
        hostile("unknown_choice", lambda f: f in choices, "no-such-choice")
    hostile("number_words", lambda f: f.kind == "number", "abc")
    hostile("number_huge", lambda f: f.kind == "number", str(10**20))
    hostile("date_impossible", lambda f: f.kind == "date", "2026-02-31")
    hostile("date_ancient", lambda f: f.kind == "date", date.min.isoformat())
    hostile("date_far", lambda f: f.kind == "date", date.max.isoformat())
    hostile("datetime_garbage", lambda f: f.kind == "datetime-local", "31/02/2026 25:61")
    hostile("datetime_far", lambda f: f.kind == "datetime-local", "9999-12-31T23:59")
    hostile("time_garbage", lambda f: f.kind == "time", "25:61")
    hostile("time_zone", _zone, "Mars/Olympus_Mons")
    if form.submit and form.submit[1]:
        # The value of the button pressed (achieved or dropped, pause or resume).
        name, value = form.submit
        wrong = UNKNOWN_ID if value.isdigit() else "no-such-choice"
        out.append(Submission("unknown_button_value", base | {name: [wrong]}, [name]))
    required = [f for f in form.inputs if f.required]
    if required:
        data = {k: v for k, v in base.items() if k not in {f.name for f in required}}
        out.append(Submission("missing_required", data, [f.name for f in required]))
    assert {s.kind for s in out} <= set(KINDS), "a hostile kind missing from KINDS"
    return out
