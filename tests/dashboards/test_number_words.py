"""The dashboards' number filters that put a number into a sentence."""

import pytest

from dashboards.templatetags.team_numbers import own_against_others


@pytest.mark.parametrize(
    ("gap", "words"),
    [
        (0.5, "0.5 higher than theirs"),
        (-0.25, "0.25 lower than theirs"),
        (-1 / 6, "0.17 lower than theirs"),
        (0, "the same as theirs"),
        (0.001, "the same as theirs"),  # what rounds to nothing reads as nothing
        (-0.004, "the same as theirs"),
    ],
)
def test_a_self_vs_others_gap_reads_as_words(gap, words):
    assert own_against_others(gap) == words
