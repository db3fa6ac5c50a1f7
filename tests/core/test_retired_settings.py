"""A deployment still setting a variable Tandem no longer reads is warned by `check`."""

from core.checks import no_retired_settings


def test_a_retired_variable_still_set_is_a_warning_naming_what_replaced_it(monkeypatch):
    monkeypatch.setenv("CADENCE_STALE_CLAIM_MINUTES", "10")
    (warning,) = no_retired_settings(None)
    assert warning.id == "tandem.W001" and not warning.is_serious()
    assert "CADENCE_STALE_CLAIM_MINUTES" in warning.msg and "CLAIM_LEASE" in warning.hint


def test_nothing_retired_set_nothing_said(monkeypatch):
    monkeypatch.delenv("CADENCE_STALE_CLAIM_MINUTES", raising=False)
    assert no_retired_settings(None) == []
