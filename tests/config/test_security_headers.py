import pytest


@pytest.mark.django_db
def test_pages_carry_a_strict_content_security_policy_and_security_headers(client, org):
    client.force_login(org.rep)
    response = client.get("/me/")
    csp = response["Content-Security-Policy"]
    assert "default-src 'self'" in csp
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"


@pytest.mark.django_db
def test_htmx_is_served_from_our_own_static_files(client, org):
    client.force_login(org.rep)
    page = client.get("/me/").content.decode()
    assert '<script src="/static/vendor/htmx/htmx-2.0.11.min.js" defer></script>' in page
    assert "X-CSRFToken" in page  # hx-headers carries the CSRF token for HTMX requests
