"""cairn's text toolkit: the generic language handling that retrieval, capsules and
answers share.

* :mod:`cairn.text.tokens`: unicode61-style words, and the analysed token stream
  (words with light stems, numbers with units, months) that claim verification compares;
* :mod:`cairn.text.stem`: the Porter stemmer of the FTS5 index (Snowball's ``porter``)
  and the two light English stemmers that capsules and claim matching are tuned to;
* :mod:`cairn.text.stopwords`: the English stopword lists, each named for its use;
* :mod:`cairn.text.numbers`: numbers written out in words, units, month names;
* :mod:`cairn.text.sentences`: sentence and clause boundaries of English prose;
* :mod:`cairn.text.cjk`: Han/Kana/Hangul detection and the bigrams of the CJK index.

Everything here is pure and deterministic, and knows nothing of stores or models.
"""
