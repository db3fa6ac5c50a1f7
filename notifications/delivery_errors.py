"""Why a message could not be sent, in plain words for a programme admin.

The outbox and the team channels keep the raw error ("URLError: <urlopen error [Errno
111] Connection refused>") for an operator; the pages lead with what it means and what
to do. The words come from this table alone, never from the error's own text, so
nothing a mail server or webhook echoed back reaches the headline."""

import re

# (pattern in the raw error, words for an email, words for a team channel). The first
# that matches wins, so the specific come before the general.
_KNOWN = [
    (
        r"SMTPRecipientsRefused",
        "The mail server refused the recipient's address.",
        None,
    ),
    (
        r"SMTPSenderRefused",
        "The mail server refused Tandem's sender address: check the email settings.",
        None,
    ),
    (
        r"SMTPAuthenticationError",
        "The mail server refused Tandem's sign-in: check the email settings.",
        None,
    ),
    (
        r"SMTPServerDisconnected",
        "The mail server closed the connection before the email was sent.",
        None,
    ),
    (
        r"CERTIFICATE_VERIFY_FAILED|SSLError|SSL:",
        "No secure connection could be made to the mail server.",
        "No secure connection could be made to the channel's webhook: its certificate "
        "was not accepted.",
    ),
    (
        r"Name or service not known|nodename nor servname|getaddrinfo failed"
        r"|name resolution|No address associated|gaierror",
        "The mail server's address could not be found: check the email settings.",
        "The webhook's address could not be found: check it is spelled right.",
    ),
    (
        r"refused|Errno 111|SMTPConnectError",
        "The mail server could not be reached: it refused the connection.",
        "The channel's webhook could not be reached: it refused the connection. Its "
        "service may be down, or the address wrong.",
    ),
    (
        r"timed out|TimeoutError|timeout",
        "The mail server did not answer in time.",
        "The channel's webhook did not answer in time.",
    ),
]
_HTTP_STATUS = re.compile(r"(?:HTTP Error|HTTPError:|answered)\s*(\d{3})")
_UNKNOWN = {
    False: "The email could not be sent, for a reason Tandem does not recognise.",
    True: "The message could not be posted, for a reason Tandem does not recognise.",
}


def in_words(raw: str, *, channel: bool) -> str:
    """What `raw` (a kept "Type: message" error) means, for an email or (`channel`) a
    team channel's webhook; "" when nothing failed."""
    if not raw:
        return ""
    status = _HTTP_STATUS.search(raw)
    if channel and status:
        return _webhook_answered(int(status.group(1)))
    for pattern, email_words, channel_words in _KNOWN:
        words = channel_words if channel else email_words
        if words and re.search(pattern, raw, re.IGNORECASE):
            return words
    return _UNKNOWN[channel]


def _webhook_answered(status: int) -> str:
    if status in (404, 410):
        return (
            f"The webhook address no longer exists ({status}): it may have been removed. "
            "Paste a new one."
        )
    if status in (401, 403):
        return (
            f"The webhook turned the message away ({status}): it may have been revoked. "
            "Paste a new one."
        )
    if status == 429:
        return "The webhook asked Tandem to slow down (429): too many messages at once."
    if status >= 500:
        return (
            f"The channel's service had a problem of its own ({status}); sending again "
            "later may work."
        )
    return f"The webhook refused the message ({status}): check its address and format."
