"""English stopword lists, each named for what it is used for.

There are two on purpose. Search drops the words that carry no topic in a question;
claim verification drops the function words a paraphrase may add or lose without
changing a fact, and keeps negations and quantifiers ("no", "not", "all", "most"),
which change facts.
"""

from __future__ import annotations

__all__ = ["CLAIM_STOPWORDS", "QUERY_STOPWORDS"]

# A small English list: articles, pronouns, auxiliaries, prepositions and question
# words, the words that carry no topic in "what is the effect of X on Y?".
_QUERY_STOPWORD_TEXT = """
    a about above after again against all am an and any are as at be because been
    before being below between both but by can could did do does doing down during
    each few for from further had has have having he her here hers herself him himself
    his how i if in into is it its itself just me more most my myself no nor not of off
    on once only or other our ours ourselves out over own same she should so some such
    than that the their theirs them themselves then there these they this those through
    to too under until up very was we were what when where which while who whom why
    will with would you your yours yourself yourselves
"""
#: Words dropped from search queries (retrieval), capsule goal facets and feedback terms.
QUERY_STOPWORDS = frozenset(_QUERY_STOPWORD_TEXT.split())

# Function words, hedges and connectives; no negation, quantifier or relation of order
# or place ("before", "over"), which a claim can get wrong.
_CLAIM_STOPWORD_TEXT = """
    a about across again along already also although am among an and another any
    anyone anything are around as at be became because been being between but by can
    could did do does doing done during either else etc even ever for from further
    had has have having he her here hers herself him himself his how however i if in
    into is it its itself just let like made make makes may me might mine must my
    myself of off on one's onto or other others otherwise our ours ourselves out own
    per perhaps quite rather really shall she should since so some something such
    than that the their theirs them themselves then there these they this those
    though through thus to too toward towards until up upon us via was we were what
    whatever when where whereas whether which while who whom whose why will with
    within would yet you your yours yourself yourselves
"""
#: Words that are not content words of a claim: claim verification need not find them
#: in the evidence.
CLAIM_STOPWORDS = frozenset(_CLAIM_STOPWORD_TEXT.split())
