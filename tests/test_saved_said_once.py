"""Said once: what a part of a page saved in place says (.saved, e.g. "Saved.") is
read out by the page's own live region, #announcer (static/js/htmx-focus.js); were
the swapped-in words a live region too (role=status), some screen readers would say
them twice. Sighted people still see them where they were."""

import re
from pathlib import Path

import pytest

from tests.support.factories import one_on_one

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
HX = {"HTTP_HX_REQUEST": "true"}
LIVE = re.compile(r'\b(role="(status|alert|log)"|aria-live="(polite|assertive)")')


def saved_tags(html: str) -> list[str]:
    return re.findall(r'<[a-z]+\b[^>]*\bclass="saved"[^>]*>', html)


def test_no_saved_message_is_a_live_region_of_its_own():
    tags = {
        path.relative_to(TEMPLATES).as_posix(): tag
        for path in TEMPLATES.rglob("*.html")
        for tag in saved_tags(path.read_text())
    }
    assert len(tags) >= 8  # the session's parts, the rating, a plan, a draft, an item
    assert {path: tag for path, tag in tags.items() if LIVE.search(tag)} == {}


@pytest.mark.django_db
def test_notes_saved_in_place_say_so_in_words_not_in_a_live_region(client, org):
    session = one_on_one(org.manager, org.rep)
    client.force_login(org.manager)
    response = client.post(
        f"/sessions/{session.pk}/notes/", {"version": 0, "reality": "Two calls."}, **HX
    )
    fragment = response.content.decode()
    assert response.status_code == 200
    assert saved_tags(fragment) == ['<p class="saved">']
    assert '<p class="saved">Saved.</p>' in fragment
    assert not LIVE.search(fragment)  # nothing swapped in is read out on its own
