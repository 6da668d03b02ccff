"""The two stopword lists and why they differ."""

from __future__ import annotations

from cairn.text.stopwords import CLAIM_STOPWORDS, QUERY_STOPWORDS


def test_query_stopwords_drop_question_words() -> None:
    assert {"what", "is", "the", "of", "how", "not", "no"} <= QUERY_STOPWORDS
    assert "effect" not in QUERY_STOPWORDS


def test_claim_stopwords_keep_what_changes_a_fact() -> None:
    # Negations, quantifiers and order words change a claim's truth: never skipped.
    for word in (
        "not",
        "no",
        "nor",
        "all",
        "most",
        "more",
        "few",
        "only",
        "before",
        "after",
        "over",
    ):
        assert word not in CLAIM_STOPWORDS
    assert {"the", "however", "perhaps", "via"} <= CLAIM_STOPWORDS
    assert all(w == w.lower() and " " not in w for w in CLAIM_STOPWORDS | QUERY_STOPWORDS)
