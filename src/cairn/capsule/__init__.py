"""Context Capsules: budgeted, exact, verifiable evidence for a goal.

:mod:`.build` selects and assembles (pure), :mod:`.canonical` defines the bytes and ids,
:mod:`.verify` re-checks a saved capsule without any model, :mod:`.render` prints
Markdown, :mod:`.source` reads what they need from the store.
"""
