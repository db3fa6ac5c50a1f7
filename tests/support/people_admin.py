"""A person's admin change form, as the browser posts it."""


def change_form_data(person, **overrides):
    data = {
        "email": person.email,
        "display_name": person.display_name,
        "time_zone": person.time_zone,
        "reports_to": person.reports_to_id or "",
        "is_active": "on",
        "date_joined_0": "2026-01-01",
        "date_joined_1": "09:00:00",
    }
    data.update(overrides)
    return data
