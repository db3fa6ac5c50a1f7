"""The path converter for one feedback item: its number, or the random public id
an anonymous answer is known by (`Feedback.ref`). Registered on import, before any
route uses it (feedback.urls, feedback.api_urls)."""

from django.urls import register_converter

FEEDBACK_REF = "feedback_ref"


class FeedbackRefConverter:
    regex = r"[0-9]+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value) -> str:
        return str(value)


register_converter(FeedbackRefConverter, FEEDBACK_REF)
