"""Session 19b (issue 12): the mutation harness's last false supports, by mechanism — a
column given another column's whole cell, a row named by a quantity word of its label,
a bracket's or an apposition's partner swapped, a one-letter label "A" read as the
article.

Every table and sentence is written for these tests (not taken from the verify set or
the harness)."""

from __future__ import annotations

import pytest

from tests.answer.verdicts import verdict

ROUTES = """| Verb | Route | Action | Limit |
|---|---|---|---|
| PUT | /v3/invoices/{id}/void | Void an invoice | 20 requests/min |
| GET | /v3/invoices | List invoices | 100 requests/min |"""

PASSES = """| pass | adult | senior | student | lasts |
|---|---|---|---|---|
| monthly pass | €48.00 | €30.00 | €24.00 | 30 days from first use |
| daily pass | €6.00 | €4.00 | €3.50 | 1 day |"""


@pytest.mark.parametrize(
    "claim",
    [
        "The route of PUT is Void an invoice.",
        "The route of GET is List invoices.",
        "The lasts of monthly pass is €24.00.",
        "The lasts of daily pass is €3.50.",
    ],
)
def test_a_column_given_another_columns_cell_is_refused(claim: str) -> None:
    assert verdict(claim, ROUTES + "\n\n" + PASSES) != "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "The action of PUT is Void an invoice.",
        "For GET, the action is List invoices.",
        "The route of PUT is /v3/invoices/{id}/void.",
        "The student of monthly pass is €24.00.",
        "The senior of daily pass is €4.00.",
    ],
)
def test_the_named_columns_own_cell_stays_supported(claim: str) -> None:
    assert verdict(claim, ROUTES + "\n\n" + PASSES) == "supported"


STAFF = (
    "Keys to the archive may only be signed out by Nadia Brandt or her assistant, Piet Hollander. "
    "The chair, Omar Qureshi, opened the meeting."
)


@pytest.mark.parametrize(
    "claim",
    [
        "Keys to the archive may only be signed out by Piet Hollander or her assistant, Nadia Brandt.",
        "The chair, Nadia Brandt, opened the meeting.",
    ],
)
def test_an_appositions_name_swapped_is_refused(claim: str) -> None:
    assert verdict(claim, STAFF) != "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "Keys to the archive may only be signed out by Nadia Brandt or her assistant, Piet Hollander.",
        "Keys to the archive may only be signed out by her assistant, Piet Hollander, or Nadia Brandt.",
        "The chair, Omar Qureshi, opened the meeting.",
    ],
)
def test_an_apposition_kept_stays_supported(claim: str) -> None:
    assert verdict(claim, STAFF) == "supported"


@pytest.mark.parametrize(
    ("evidence", "claim"),
    [
        (
            "Site contact: Facilities (Joanna Wu, estates manager).",
            "Site contact: Joanna Wu (Facilities, estates manager).",
        ),
        (
            "[Verbose] List every open port:",
            "[List] Verbose every open port:",
        ),
    ],
)
def test_words_swapped_across_a_bracket_are_refused(evidence: str, claim: str) -> None:
    assert verdict(claim, evidence) != "supported"


@pytest.mark.parametrize(
    ("evidence", "claim"),
    [
        (
            "Site contact: Facilities (Joanna Wu, estates manager).",
            "Site contact: Facilities (Joanna Wu, estates manager).",
        ),
        (
            "The kit includes two items (a torch and a blanket).",
            "The kit includes two items (a blanket and a torch).",
        ),
        ("[Verbose] List every open port:", "[Verbose] List every open port:"),
        ("Site contact: Facilities (Joanna Wu, estates manager).", "Site contact: Facilities."),
    ],
)
def test_a_bracket_kept_or_reordered_inside_stays_supported(evidence: str, claim: str) -> None:
    assert verdict(claim, evidence) == "supported"


BERTHS = "Boats on pontoon C and pontoon F must leave a key at the office. Pontoon A has no power."


@pytest.mark.parametrize(
    "claim",
    [
        "Boats on pontoon A and pontoon F must leave a key at the office.",
        "Boats on pontoon C and pontoon A must leave a key at the office.",
    ],
)
def test_a_one_letter_label_a_is_no_article(claim: str) -> None:
    assert verdict(claim, BERTHS) != "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "Boats on pontoon C and pontoon F must leave a key at the office.",
        "Boats on pontoon F and pontoon C must leave a key at the office.",
        "Pontoon A has no power.",
    ],
)
def test_the_labels_given_stay_supported(claim: str) -> None:
    assert verdict(claim, BERTHS) == "supported"


def test_a_lower_case_article_after_a_labelled_word_is_not_a_label() -> None:
    evidence = "Each group B member receives a badge. A group keeps its own log."
    assert verdict("Each group B member receives a badge.", evidence) == "supported"



ROOMS = """| Room | Maximum seated guests | Maximum standing guests | Minimum booking |
|---|---|---|---|
| Hall | 120 | 200 | 3 hours |
| Studio | 40 | 60 | 2 hours |

| Trailer | Axles | Payload |
|---|---|---|
| Flatbed | 2 | up to 3,500 kg |"""


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        ("The Hall has 200 seated guests.", False),
        ("The Studio has 40 standing guests.", False),
        ("The Hall has 200 standing guests.", True),
        ("The Studio has 40 seated guests.", True),
    ],
)
def test_a_plain_number_keeps_to_the_column_the_claim_names(claim: str, expected: bool) -> None:
    assert (verdict(claim, ROOMS) == "supported") is expected


FLIGHTS = """| Flight | Boarding gate | Crew |
|---|---|---|
| BA12 | 14 | 6 |
| BA15 | 9 | 5 |"""


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        ("Flight BA12 has 6 crew at gate 14.", True),
        ("Flight BA15 has 5 crew at gate 9.", True),
        ("Flight BA12 has 14 crew.", False),
        ("Flight BA12 has 9 crew at gate 14.", False),
    ],
)
def test_a_count_given_its_own_column_leaves_the_other_cell_readable(claim: str, expected: bool) -> None:
    assert (verdict(claim, FLIGHTS) == "supported") is expected


# --- Table-cell readings: a capacity verb with "up to", "by"/"from" a supplier ---


@pytest.mark.parametrize(
    "claim",
    [
        "The Hall seats up to 120 guests.",
        "The Studio holds up to 60 standing guests.",
        "The Flatbed trailer carries up to 3,500 kg.",
    ],
)
def test_a_capacity_verb_with_up_to_reads_a_maximum(claim: str) -> None:
    assert verdict(claim, ROOMS) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "The Studio seats up to 120 guests.",
        "The Hall holds at least 200 standing guests.",
        "The Hall takes up to 3 hours.",
        "The Hall allows up to 200 seated guests.",
        "The Hall seats 120 guests or more.",
        "The Flatbed trailer carries at least 3,500 kg.",
    ],
)
def test_a_capacity_verb_reads_no_other_cell(claim: str) -> None:
    assert verdict(claim, ROOMS) != "supported"


GRAINS = """| Ingredient | Supplier | Amount |
|---|---|---|
| Rye malt | Kestrel Mills | 25 kg |
| Flaked oats | Harlow Grain | 6 kg |

| Work | Artist | Year |
|---|---|---|
| Low Tide | Mara Lind | 1911 |"""


@pytest.mark.parametrize(
    "claim",
    [
        "The rye malt was supplied by Kestrel Mills.",
        "Flaked oats from Harlow Grain.",
        "Low Tide is a work by Mara Lind.",
    ],
)
def test_by_or_from_reads_a_supplier_or_maker_cell(claim: str) -> None:
    assert verdict(claim, GRAINS) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "The rye malt was supplied by Harlow Grain.",
        "Kestrel Mills was supplied by rye malt.",
        "Flaked oats from Kestrel Mills.",
        "Low Tide is a work from Mara Lind.",
        "Low Tide is a work by 1911.",
        "Mara Lind is a work by Low Tide.",
    ],
)
def test_by_or_from_reads_no_other_cell(claim: str) -> None:
    assert verdict(claim, GRAINS) != "supported"
