"""Storage backends behind the :class:`~cairn.store.protocol.Store` protocol."""
