"""Session 19a (issue 12): a verbless label line read as the sentences it stands for
(answer/label_lines.py).

Each meaning-preserving restatement stands next to meaning-changing neighbours that must
NOT be supported. The sentences are written for these tests, not taken from the verify
set."""

from __future__ import annotations

import pytest

from cairn.answer.label_lines import label_readings
from tests.answer.verdicts import verdict as _verdict

_HANDBOOK = "Handbook version 5.1, approved by the finance director Ola Berg on 2027-06-03, effective from 1 July 2027.\n"
_PERMIT = "Permit reference HW-2031-77, revision 2, issued on 2027-08-19 and valid for 14 days.\n"
_MINUTES = "These minutes are version 3, drafted by the clerk Ana Ruiz and approved by the chair Tom Baker on 4 May 2027.\n"
_REGISTER = "Register kept by the site nurse, Ms Ama Osei; audited by the health lead, Dr Ben Cho, on 12 April 2027.\n"


@pytest.mark.parametrize(
    "claim",
    [
        "Version 5.1 of the handbook was approved by the finance director Ola Berg on 3 June 2027.",
        "Handbook version 5.1 was approved by the finance director Ola Berg on June 3, 2027 and is effective from 2027-07-01.",
        "Handbook version 5.1 is effective from 1 July 2027 and was approved by the finance director Ola Berg on 3 June 2027.",
        "The finance director Ola Berg approved handbook version 5.1 on 2027-06-03.",
        "Version 5.1 of the handbook is effective from July 1, 2027.",
    ],
)
def test_label_line_with_edition(claim: str) -> None:
    assert _verdict(claim, _HANDBOOK) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        # the two dates exchanged between the predicates
        "Handbook version 5.1 was approved by the finance director Ola Berg on 1 July 2027.",
        "Handbook version 5.1 is effective from 3 June 2027.",
        # another edition, another agent, another date
        "Handbook version 5.2 was approved by the finance director Ola Berg on 3 June 2027.",
        "The finance director Ola Berg approved handbook version 5.0 on 2027-06-03.",
        "The chief executive Ola Berg approved handbook version 5.1 on 2027-06-03.",
        "Handbook version 5.1 was approved by the finance director Ola Berg on 4 June 2027.",
        # tense, modality, negation
        "Handbook version 5.1 will be approved by the finance director Ola Berg on 3 June 2027.",
        "Handbook version 5.1 must be approved by the finance director Ola Berg.",
        "Handbook version 5.1 was not approved by the finance director Ola Berg on 3 June 2027.",
        "Handbook version 5.1 is no longer effective from 1 July 2027.",
        # the role reversed: the document does not approve
        "Handbook version 5.1 approved the finance director Ola Berg on 2027-06-03.",
        # a condition or a scope added
        "Handbook version 5.1 is effective from 1 July 2027 for all staff.",
    ],
)
def test_label_line_keeps_values_and_roles(claim: str) -> None:
    assert _verdict(claim, _HANDBOOK) != "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "Revision 2 of permit HW-2031-77 was issued on 19 August 2027.",
        "Revision 2 of HW-2031-77 is valid for 14 days.",
        "Permit HW-2031-77 revision 2 was issued on August 19, 2027 and is valid for 14 days.",
    ],
)
def test_reference_and_apposed_edition(claim: str) -> None:
    assert _verdict(claim, _PERMIT) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "Revision 3 of permit HW-2031-77 was issued on 19 August 2027.",
        "Revision 2 of permit HW-2031-77 was issued on 18 August 2027.",
        "Revision 2 of permit HW-2031-77 is valid for 14 weeks.",
        "Revision 2 of permit HW-2031-77 is valid for at least 14 days.",
        "Revision 2 of permit HW-2031-77 was withdrawn on 19 August 2027.",
    ],
)
def test_reference_and_apposed_edition_neighbours(claim: str) -> None:
    assert _verdict(claim, _PERMIT) != "supported"


def test_demonstrative_version_line_in_the_active_voice() -> None:
    assert _verdict("The chair Tom Baker approved version 3 on 2027-05-04.", _MINUTES) == "supported"
    assert _verdict("The clerk Ana Ruiz drafted version 3 of the minutes.", _MINUTES) == "supported"
    # roles swapped between the two participles, the date moved to the other participle
    assert _verdict("The clerk Ana Ruiz approved version 3 on 2027-05-04.", _MINUTES) != "supported"
    assert _verdict("The chair Tom Baker drafted version 3 of the minutes.", _MINUTES) != "supported"
    assert _verdict("The clerk Ana Ruiz drafted version 3 on 2027-05-04.", _MINUTES) != "supported"
    assert _verdict("The chair Tom Baker approved version 4 on 2027-05-04.", _MINUTES) != "supported"


def test_subjectless_parts_after_a_semicolon_share_the_head() -> None:
    assert _verdict("The health lead, Dr Ben Cho, audited the register on April 12, 2027.", _REGISTER) == "supported"
    assert _verdict("The register was kept by the site nurse, Ms Ama Osei.", _REGISTER) == "supported"
    assert _verdict("The site nurse, Ms Ama Osei, audited the register on April 12, 2027.", _REGISTER) != "supported"
    assert _verdict("The health lead, Dr Ben Cho, audited the register on April 13, 2027.", _REGISTER) != "supported"
    assert _verdict("The health lead, Dr Ben Cho, kept the register.", _REGISTER) != "supported"


def test_no_reading_for_a_sentence_with_a_finite_verb() -> None:
    # "…, was replaced": a finite verb after a comma is not a label line
    assert label_readings("Handbook version 5.1, approved by Ola Berg, was replaced on d20270901.") == ()
    # a head with a verb ("The board approved the budget") is no document name
    assert label_readings("The board approved the budget, agreed by the finance team on d20270901.") == ()
    # a head that names no edition or reference: no reading
    assert label_readings("The pump, serviced by Acme on d20270901.") == ()
    # an active verb after a one-word head takes no "by": no reading ("Staff paid the fee")
    assert label_readings("Staff paid the fee.") == ()
    text = "The pump, serviced by Acme on 1 September 2027, failed on 3 September 2027.\n"
    assert _verdict("Acme serviced the pump on 3 September 2027.", text) != "supported"


# --- an edition described at the end of a sentence

_FOLLOWS = "This batch follows cleaning procedure version 2.4, which replaced version 2.3 on 8 June 2027.\n"
_ADOPTED = "This log follows sampling protocol edition 5, adopted by the board on 2 March 2027.\n"


def test_edition_described_after_a_comma() -> None:
    assert _verdict("Cleaning procedure version 2.4 replaced version 2.3 on 2027-06-08.", _FOLLOWS) == "supported"
    assert _verdict("Sampling protocol edition 5 was adopted by the board on March 2, 2027.", _ADOPTED) == "supported"
    assert _verdict("The board adopted sampling protocol edition 5 on 2027-03-02.", _ADOPTED) == "supported"


@pytest.mark.parametrize(
    ("claim", "text"),
    [
        # roles swapped, another version, another date, a modal, a negation
        ("Cleaning procedure version 2.3 replaced version 2.4 on 2027-06-08.", _FOLLOWS),
        ("Cleaning procedure version 2.5 replaced version 2.3 on 2027-06-08.", _FOLLOWS),
        ("Cleaning procedure version 2.4 replaced version 2.3 on 2027-06-09.", _FOLLOWS),
        ("Cleaning procedure version 2.4 will replace version 2.3 on 2027-06-08.", _FOLLOWS),
        ("Sampling protocol edition 5 was not adopted by the board on March 2, 2027.", _ADOPTED),
        ("Sampling protocol edition 5 was adopted by the committee on March 2, 2027.", _ADOPTED),
        ("Sampling protocol edition 5 must be adopted by the board.", _ADOPTED),
        # the batch is not what was adopted or what replaced anything
        ("This batch replaced version 2.3 on 2027-06-08.", _FOLLOWS),
    ],
)
def test_edition_described_after_a_comma_neighbours(claim: str, text: str) -> None:
    assert _verdict(claim, text) != "supported"


def test_relative_clause_with_its_own_comma_or_negation_is_not_read() -> None:
    assert label_readings("The site uses pump version 2, which failed on d20270101, and pump 3.") == ()
    neg = "The site uses pump version 2, which was not serviced on 1 January 2027.\n"
    assert _verdict("Pump version 2 was serviced on 1 January 2027.", neg) != "supported"


# --- "version N of <date>" is the edition's date

_SUPERSEDED = "Price list edition 4 of 2027-02-10 is withdrawn; its rates no longer apply.\n"


def test_edition_of_a_date_is_its_date() -> None:
    assert _verdict("Price list edition 4, dated February 10, 2027, is withdrawn.", _SUPERSEDED) == "supported"
    assert _verdict("Price list edition 4, dated February 11, 2027, is withdrawn.", _SUPERSEDED) != "supported"
    assert _verdict("Price list edition 5, dated February 10, 2027, is withdrawn.", _SUPERSEDED) != "supported"
    assert _verdict("Price list edition 4, dated February 10, 2027, is not withdrawn.", _SUPERSEDED) != "supported"
    # the date of an edition is not the date it is withdrawn or takes effect
    assert _verdict("Price list edition 4 was withdrawn on February 10, 2027.", _SUPERSEDED) != "supported"
    assert _verdict("Price list edition 4 takes effect on February 10, 2027.", _SUPERSEDED) != "supported"


# --- a programme line's verbless event said with "is" (document_subject.py)

_PROGRAMME = "3 May 2027, 19:30 — Welcome dinner.\n4 May 2027, 09:00 — Opening keynote in hall B.\n"


@pytest.mark.parametrize(
    "claim",
    [
        "The welcome dinner is at 7:30 pm on 3 May 2027.",
        "Welcome dinner is on 2027-05-03 at 19:30.",
        "The opening keynote in hall B is at 9 am on May 4, 2027.",
    ],
)
def test_programme_line_event(claim: str) -> None:
    assert _verdict(claim, _PROGRAMME) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        # another time, another day, the two events' slots exchanged
        "The welcome dinner is at 8:30 pm on 3 May 2027.",
        "The welcome dinner is at 7:30 pm on 4 May 2027.",
        "The opening keynote in hall B is at 7:30 pm on 3 May 2027.",
        "The welcome dinner is at 9 am on 4 May 2027.",
        # another place, a negation, a modal
        "The opening keynote in hall C is at 9 am on May 4, 2027.",
        "The welcome dinner is not at 7:30 pm on 3 May 2027.",
        "The welcome dinner must be at 7:30 pm on 3 May 2027.",
    ],
)
def test_programme_line_event_neighbours(claim: str) -> None:
    assert _verdict(claim, _PROGRAMME) != "supported"


# --- participles coordinated after one subject and "was"; a person's title left out
# (round 2 of session 19a: written after the check splits test19/test20 had been read)

_POLICY = (
    "Version 6 of this guide was drafted by the quality lead, Nina Holt, and approved by the "
    "head of operations, Omar Farouk, on 9 September 2027.\n"
)
_STAFF = "Version 2 of the rota was approved by staff at Kelso Ltd on 1 March 2027.\n"


@pytest.mark.parametrize(
    "claim",
    [
        "Version 6 of this guide was approved by Omar Farouk on 2027-09-09.",
        "Version 6 of this guide was approved by the head of operations, Omar Farouk, on 2027-09-09.",
        "Version 6 of this guide was drafted by Nina Holt.",
        "Version 6 of this guide was drafted by the quality lead, Nina Holt.",
    ],
)
def test_coordinated_participles_each_of_the_subject(claim: str) -> None:
    assert _verdict(claim, _POLICY) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        # the agents exchanged; the date moved to the other participle; another date
        "Version 6 of this guide was approved by Nina Holt on 2027-09-09.",
        "Version 6 of this guide was drafted by Omar Farouk.",
        "Version 6 of this guide was drafted by Nina Holt on 2027-09-09.",
        "Version 6 of this guide was approved by Omar Farouk on 2027-09-10.",
        # another edition, a negation, a modal, the future
        "Version 7 of this guide was approved by Omar Farouk on 2027-09-09.",
        "Version 6 of this guide was not approved by Omar Farouk on 2027-09-09.",
        "Version 6 of this guide must be approved by Omar Farouk.",
        "Version 6 of this guide will be approved by Omar Farouk on 2027-09-09.",
    ],
)
def test_coordinated_participles_neighbours(claim: str) -> None:
    assert _verdict(claim, _POLICY) != "supported"


def test_a_title_is_left_out_only_before_a_name() -> None:
    # "staff at Kelso Ltd" is not Kelso Ltd
    assert _verdict("Version 2 of the rota was approved by Kelso Ltd on 1 March 2027.", _STAFF) != "supported"
    line = "Rota version 3, approved by night manager Pia Lund on 2027-04-02, effective from 5 April 2027.\n"
    assert _verdict("Rota version 3 was approved by Pia Lund on 2 April 2027.", line) == "supported"
    assert _verdict("Rota version 3 was approved by Pia Moss on 2 April 2027.", line) != "supported"
    assert _verdict("Rota version 3 was approved by day manager Pia Lund on 2 April 2027.", line) != "supported"
