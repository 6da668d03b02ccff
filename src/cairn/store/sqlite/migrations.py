"""Ordered schema migrations for the SQLite store, recorded in the ``migrations`` table.

Each migration is applied once, in order, inside a transaction. Never edit a released
migration: append a new one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass


def _fill_text_facts(conn: sqlite3.Connection) -> None:
    from cairn.store.sqlite.text_facts import fill_text_facts

    fill_text_facts(conn)


@dataclass(frozen=True, slots=True)
class Migration:
    """One schema step: its SQL, then ``fill`` (Python, in the same transaction) when a
    step computes what SQL cannot."""

    version: int
    name: str
    sql: str
    fill: Callable[[sqlite3.Connection], None] | None = None


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "core: collections, documents, passages, FTS5 (stemmed + CJK bigram), links, journal",
        """
        CREATE TABLE meta (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        );
        CREATE TABLE collections (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            root TEXT NOT NULL,
            include_globs TEXT NOT NULL,     -- JSON list
            exclude_globs TEXT NOT NULL,     -- JSON list
            context TEXT,
            created_at TEXT NOT NULL,
            last_indexed_at TEXT
        );
        -- One row per file ever seen. docid is assigned once and survives edits and
        -- renames; content identity is source_hash (bytes) and text_hash (normalised text).
        CREATE TABLE documents (
            id INTEGER PRIMARY KEY,
            docid TEXT NOT NULL UNIQUE,
            collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
            path TEXT NOT NULL,
            title TEXT NOT NULL,
            kind TEXT NOT NULL,              -- markdown | text | code
            converter TEXT NOT NULL,
            converter_version TEXT NOT NULL,
            size INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            source_hash TEXT NOT NULL,
            text_hash TEXT NOT NULL,
            encoding TEXT NOT NULL,
            line_count INTEGER NOT NULL,
            metadata TEXT NOT NULL,          -- JSON: frontmatter
            tags TEXT NOT NULL,              -- JSON list (denormalised copy of document_tags)
            aliases TEXT NOT NULL,           -- JSON list
            doc_date TEXT NOT NULL,          -- frontmatter date, else file mtime (ISO 8601)
            author TEXT,
            active INTEGER NOT NULL DEFAULT 1,
            first_seen_at TEXT NOT NULL,
            indexed_at TEXT NOT NULL,
            UNIQUE (collection_id, path)
        );
        CREATE INDEX documents_source_hash ON documents(source_hash);
        CREATE INDEX documents_text_hash ON documents(text_hash);
        CREATE TABLE document_text (
            document_id INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
            text TEXT NOT NULL
        );
        CREATE TABLE headings (
            document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            level INTEGER NOT NULL,
            text TEXT NOT NULL,
            line INTEGER NOT NULL,
            PRIMARY KEY (document_id, seq)
        ) WITHOUT ROWID;
        CREATE TABLE document_tags (
            document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            tag TEXT NOT NULL,
            PRIMARY KEY (document_id, tag)
        ) WITHOUT ROWID;
        CREATE INDEX document_tags_tag ON document_tags(tag);
        -- Links as written; resolution into a graph is derived later.
        CREATE TABLE links (
            document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            kind TEXT NOT NULL,              -- wiki | markdown | frontmatter
            target TEXT NOT NULL,
            anchor TEXT,
            alias TEXT,
            embed INTEGER NOT NULL,
            line INTEGER NOT NULL,
            col INTEGER NOT NULL,
            raw TEXT NOT NULL,
            PRIMARY KEY (document_id, seq)
        ) WITHOUT ROWID;
        CREATE INDEX links_target ON links(target COLLATE NOCASE);
        -- Passages: line spans of document_text. Their text lives in passages_fts.body
        -- (rowid = passages.id) and is always equal to the span's lines.
        CREATE TABLE passages (
            id INTEGER PRIMARY KEY,
            document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            start_line INTEGER NOT NULL,
            end_line INTEGER NOT NULL,
            heading_path TEXT NOT NULL,      -- JSON list
            passage_hash TEXT NOT NULL,
            token_count INTEGER NOT NULL,
            UNIQUE (document_id, seq)
        );
        CREATE INDEX passages_hash ON passages(passage_hash);
        CREATE VIRTUAL TABLE passages_fts USING fts5(
            title, headings, body,
            tokenize = 'porter unicode61 remove_diacritics 2'
        );
        -- Only passages containing CJK text get a row here (body = overlapping bigrams).
        CREATE VIRTUAL TABLE passages_cjk USING fts5(body, tokenize = 'unicode61');
        CREATE TABLE file_errors (
            collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
            path TEXT NOT NULL,
            code TEXT NOT NULL,
            message TEXT NOT NULL,
            seen_at TEXT NOT NULL,
            PRIMARY KEY (collection_id, path)
        ) WITHOUT ROWID;
        CREATE TABLE index_runs (
            id INTEGER PRIMARY KEY,
            started_at TEXT NOT NULL,
            finished_at TEXT,
            status TEXT NOT NULL,            -- running | completed (a crashed run stays running)
            collections TEXT NOT NULL,       -- JSON list
            counts TEXT                      -- JSON IndexCounts
        );
        -- The change journal (knowledge delta): one row per document change, never the body.
        CREATE TABLE changes (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            run_id INTEGER NOT NULL,
            kind TEXT NOT NULL,              -- create | update | rename | delete | reactivate
            docid TEXT NOT NULL,
            collection TEXT NOT NULL,
            old_path TEXT,
            new_path TEXT,
            old_source_hash TEXT,
            new_source_hash TEXT,
            old_text_hash TEXT,
            new_text_hash TEXT,
            at TEXT NOT NULL
        );
        CREATE INDEX changes_docid ON changes(docid);
        """,
    ),
    Migration(
        2,
        "vectors keyed by passage text hash and model fingerprint; page numbers on passages",
        """
        -- One vector per distinct passage text per model: identical text is never embedded
        -- twice, and switching models leaves the old vectors stale, not wrong.
        CREATE TABLE vectors (
            passage_hash TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            dims INTEGER NOT NULL,
            vector BLOB NOT NULL,            -- float32 little-endian, L2-normalised
            token_count INTEGER NOT NULL,    -- exact, from the model's tokenizer
            embedded_at TEXT NOT NULL,
            PRIMARY KEY (passage_hash, fingerprint)
        ) WITHOUT ROWID;
        -- Page (PDF), slide (PPTX) or sheet number of a passage, where the format has one.
        ALTER TABLE passages ADD COLUMN page INTEGER;
        """,
    ),
    Migration(
        3,
        "index vectors by model fingerprint",
        """
        -- "Does this model have vectors?" and counts per model, without reading the blobs.
        CREATE INDEX IF NOT EXISTS vectors_fingerprint ON vectors(fingerprint);
        """,
    ),
    Migration(
        4,
        "collections may declare their documents a sequence (chat turns, journal days)",
        """
        -- 1: numbered sibling files (D1-3.md, D1-4.md) are consecutive, and hybrid query
        -- lets a document share its neighbours' relevance (cairn.retrieval.hybrid).
        ALTER TABLE collections ADD COLUMN sequence INTEGER NOT NULL DEFAULT 0;
        """,
    ),
    Migration(
        5,
        "file errors remember the failed file's size, mtime and hash",
        """
        -- A file whose content failed (a .docx that times out) is not read again while
        -- its size and mtime, or its bytes, stay the same. NULL: not a content failure.
        ALTER TABLE file_errors ADD COLUMN size INTEGER;
        ALTER TABLE file_errors ADD COLUMN mtime_ns INTEGER;
        ALTER TABLE file_errors ADD COLUMN source_hash TEXT;
        """,
    ),
    # --- agent memory (issue 14) ---
    Migration(
        6,
        "agent memory: records, evidence, signals, history, hook events, BM25 over memory",
        """
        -- One row per memory record (observation or claim); body is the record's JSON as
        -- cairn.memory.records defines it. Nothing is deleted: archive flips status.
        CREATE TABLE memory_records (
            rowid INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,         -- obs_... | clm_...
            kind TEXT NOT NULL,              -- observation | claim
            project TEXT NOT NULL,
            owner TEXT,
            visibility TEXT NOT NULL,        -- personal | project | team
            status TEXT NOT NULL,            -- active | archived
            topic_key TEXT,                  -- observations: upsert key
            conflict_key TEXT,               -- claims: subject + predicate
            revision INTEGER NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            body TEXT NOT NULL
        );
        CREATE INDEX memory_records_topic ON memory_records(project, topic_key);
        CREATE INDEX memory_records_conflict ON memory_records(project, conflict_key);
        CREATE INDEX memory_records_project ON memory_records(project, status);
        -- Evidence refs of the current revision: which records cite a docid or a file.
        CREATE TABLE memory_evidence (
            record_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            kind TEXT NOT NULL,              -- passage | file | commit
            target TEXT NOT NULL,
            hash TEXT,
            start_line INTEGER,
            end_line INTEGER,
            relation TEXT NOT NULL,
            PRIMARY KEY (record_id, seq)
        ) WITHOUT ROWID;
        CREATE INDEX memory_evidence_target ON memory_evidence(kind, target);
        -- Append-only outcome signals and transitions.
        CREATE TABLE memory_signals (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            record_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            note TEXT,
            at TEXT NOT NULL,
            actor TEXT
        );
        CREATE INDEX memory_signals_record ON memory_signals(record_id, seq);
        CREATE TABLE memory_history (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            record_id TEXT NOT NULL,
            action TEXT NOT NULL,
            before TEXT,
            after TEXT,
            at TEXT NOT NULL,
            actor TEXT
        );
        CREATE INDEX memory_history_record ON memory_history(record_id, seq);
        -- What coding-agent hooks reported (session start, prompt, edit, stop): appended
        -- in the foreground, read later.
        CREATE TABLE memory_events (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            at TEXT NOT NULL,
            event TEXT NOT NULL,
            session_id TEXT,
            cwd TEXT,
            payload TEXT NOT NULL
        );
        -- BM25 over memory, the same tokenizer as passages (rowid = memory_records.rowid).
        CREATE VIRTUAL TABLE memory_fts USING fts5(
            title, narrative, facts, concepts,
            tokenize = 'porter unicode61 remove_diacritics 2'
        );
        -- The changes of one index run (source-changed signals after a run).
        CREATE INDEX changes_run ON changes(run_id);
        """,
    ),
    # The resident runtime (issue 16): job queue, heartbeat, event log.
    Migration(
        7,
        "the resident runtime: durable job queue, heartbeat, event log",
        """
        -- One row per job of the runtime; a queued job with the same kind and key absorbs a
        -- new one (changed paths of one collection are merged into one index job).
        CREATE TABLE jobs (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            kind TEXT NOT NULL CHECK (kind IN ('index', 'embed', 'reverify')),
            key TEXT,
            payload TEXT NOT NULL DEFAULT '{}',
            state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
            attempts INTEGER NOT NULL DEFAULT 0,
            error TEXT,
            created_at TEXT NOT NULL,
            started_at TEXT,
            finished_at TEXT
        );
        CREATE INDEX jobs_state ON jobs(state, id);
        -- The runtime's last sign of life: a stale last_beat is a runtime that stopped.
        CREATE TABLE runtime_heartbeat (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            pid INTEGER NOT NULL,
            started_at TEXT NOT NULL,
            last_beat TEXT NOT NULL,
            lag_ms INTEGER NOT NULL DEFAULT 0,
            last_error TEXT,
            stopped_at TEXT
        );
        -- Committed events, ids monotonic (AUTOINCREMENT never reuses one): the SSE ids a
        -- client resumes from with Last-Event-ID. Pruned by count.
        CREATE TABLE events (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            kind TEXT NOT NULL,
            data TEXT NOT NULL,
            at TEXT NOT NULL
        );
        """,
    ),
    # --- knowledge delta (issue 16) ---
    Migration(
        8,
        "knowledge delta: journal epoch and failure detail, revision structures, saved capsules",
        """
        -- A random id per index: a journal cursor names it, so a cursor from another index
        -- (or an index rebuilt from scratch) is recognised instead of read as a position.
        INSERT OR IGNORE INTO meta(key, value) VALUES ('journal_epoch', lower(hex(randomblob(8))));
        -- fail: the error code of the failed file.
        ALTER TABLE changes ADD COLUMN detail TEXT;
        CREATE INDEX IF NOT EXISTS changes_at ON changes(at);
        -- One compact structure snapshot per document revision (headings, paragraph block
        -- hashes and spans, links, tags, frontmatter; never the body): the "before" side of
        -- a structural diff. Pruned with the journal.
        CREATE TABLE revisions (
            docid TEXT NOT NULL,
            text_hash TEXT NOT NULL,
            seen_at TEXT NOT NULL,
            structure BLOB NOT NULL,         -- zlib-compressed JSON (cairn.ingest.structure)
            PRIMARY KEY (docid, text_hash)
        ) WITHOUT ROWID;
        -- Capsules saved by name, their canonical JSON exactly as built (signed).
        CREATE TABLE saved_capsules (
            name TEXT PRIMARY KEY,
            capsule_id TEXT NOT NULL,
            goal TEXT NOT NULL,
            capsule TEXT NOT NULL,
            saved_at TEXT NOT NULL
        );
        CREATE TABLE saved_capsule_sources (
            name TEXT NOT NULL REFERENCES saved_capsules(name) ON DELETE CASCADE,
            docid TEXT NOT NULL,
            PRIMARY KEY (name, docid)
        ) WITHOUT ROWID;
        CREATE INDEX saved_capsule_sources_docid ON saved_capsule_sources(docid);
        -- One row per reverification of a saved capsule.
        CREATE TABLE capsule_receipts (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL REFERENCES saved_capsules(name) ON DELETE CASCADE,
            capsule_id TEXT NOT NULL,
            status TEXT NOT NULL,            -- fresh | stale
            stale TEXT NOT NULL,             -- JSON list of the stale evidence items
            checked_at TEXT NOT NULL
        );
        CREATE INDEX capsule_receipts_name ON capsule_receipts(name, id);
        """,
    ),
    # --- the code graph (issue 15) ---
    Migration(
        9,
        "code graph: snapshots of project roots, file manifests, symbols, edges, facts cache",
        """
        CREATE TABLE code_snapshots (
            id INTEGER PRIMARY KEY,
            root TEXT NOT NULL,
            git_revision TEXT,
            fingerprint TEXT NOT NULL,       -- hash of (path, content hash, status) of every file
            complete INTEGER NOT NULL,
            reason TEXT NOT NULL,            -- why incomplete ('' when complete)
            coverage TEXT NOT NULL,          -- JSON: each provider's coverage report
            file_count INTEGER NOT NULL,
            symbol_count INTEGER NOT NULL,
            edge_count INTEGER NOT NULL,
            created_at TEXT NOT NULL
        );
        CREATE INDEX code_snapshots_root ON code_snapshots(root, id);
        CREATE TABLE code_files (
            snapshot_id INTEGER NOT NULL REFERENCES code_snapshots(id) ON DELETE CASCADE,
            path TEXT NOT NULL,
            size INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            content_hash TEXT NOT NULL,
            language TEXT NOT NULL,
            status TEXT NOT NULL,            -- parsed | failed | skipped
            reason TEXT NOT NULL,
            PRIMARY KEY (snapshot_id, path)
        ) WITHOUT ROWID;
        CREATE INDEX code_files_hash ON code_files(content_hash);
        CREATE TABLE code_symbols (
            snapshot_id INTEGER NOT NULL REFERENCES code_snapshots(id) ON DELETE CASCADE,
            qualname TEXT NOT NULL,
            name TEXT NOT NULL,
            kind TEXT NOT NULL,
            path TEXT NOT NULL,
            start_line INTEGER NOT NULL,
            end_line INTEGER NOT NULL,
            signature_hash TEXT NOT NULL,
            body_hash TEXT NOT NULL,
            PRIMARY KEY (snapshot_id, qualname)
        ) WITHOUT ROWID;
        CREATE TABLE code_edges (
            snapshot_id INTEGER NOT NULL REFERENCES code_snapshots(id) ON DELETE CASCADE,
            kind TEXT NOT NULL,              -- import | call | reference
            source TEXT NOT NULL,
            target TEXT NOT NULL,
            path TEXT NOT NULL,
            line INTEGER NOT NULL
        );
        -- One index: impact reads edges by target; a snapshot's rows are its prefix.
        CREATE INDEX code_edges_target ON code_edges(snapshot_id, target);
        -- Parsed facts by provider/version/content hash: unchanged content is never re-parsed.
        CREATE TABLE code_facts (
            key TEXT PRIMARY KEY,
            content_hash TEXT NOT NULL,
            language TEXT NOT NULL,
            facts TEXT NOT NULL              -- JSON (cairn.code.model.FileFacts)
        ) WITHOUT ROWID;
        CREATE INDEX code_facts_hash ON code_facts(content_hash);
        """,
    ),
    # Code graph (issue 15): a snapshot's manifest names, per file, a content-addressed set
    # of symbol rows and one of edge rows, so snapshots share what did not change. Edge sets
    # are keyed by target first (impact reads the edges into nodes); symbols are found by
    # qualified name or by file. Existing snapshots are kept: each of their files becomes
    # its own set ("m<snapshot>:<path>"), shared by nothing; new snapshots share.
    Migration(
        10,
        "code graph: symbols and edges in content-addressed per-file sets shared between snapshots",
        """
        CREATE TABLE code_symbol_sets (
            set_id TEXT NOT NULL,
            qualname TEXT NOT NULL,
            name TEXT NOT NULL,
            kind TEXT NOT NULL,
            path TEXT NOT NULL,
            start_line INTEGER NOT NULL,
            end_line INTEGER NOT NULL,
            signature_hash TEXT NOT NULL,
            body_hash TEXT NOT NULL,
            PRIMARY KEY (set_id, qualname)
        ) WITHOUT ROWID;
        CREATE INDEX code_symbol_sets_qualname ON code_symbol_sets(qualname);
        CREATE TABLE code_edge_sets (
            set_id TEXT NOT NULL,
            kind TEXT NOT NULL,              -- import | call | reference
            source TEXT NOT NULL,
            target TEXT NOT NULL,
            path TEXT NOT NULL,
            line INTEGER NOT NULL,
            PRIMARY KEY (set_id, target, source, kind, path, line)
        ) WITHOUT ROWID;
        CREATE INDEX code_edge_sets_target ON code_edge_sets(target);
        ALTER TABLE code_files ADD COLUMN symbol_set TEXT NOT NULL DEFAULT '';
        ALTER TABLE code_files ADD COLUMN edge_set TEXT NOT NULL DEFAULT '';
        INSERT OR IGNORE INTO code_symbol_sets SELECT 'm' || snapshot_id || ':' || path, qualname, name, kind,
            path, start_line, end_line, signature_hash, body_hash FROM code_symbols;
        INSERT OR IGNORE INTO code_edge_sets SELECT 'm' || snapshot_id || ':' || path, kind, source, target,
            path, line FROM code_edges;
        UPDATE code_files SET symbol_set = 'm' || snapshot_id || ':' || path
            WHERE (snapshot_id, path) IN (SELECT DISTINCT snapshot_id, path FROM code_symbols);
        UPDATE code_files SET edge_set = 'm' || snapshot_id || ':' || path
            WHERE (snapshot_id, path) IN (SELECT DISTINCT snapshot_id, path FROM code_edges);
        DROP TABLE code_symbols;
        DROP TABLE code_edges;
        CREATE INDEX code_files_symbol_set ON code_files(symbol_set, snapshot_id);
        CREATE INDEX code_files_edge_set ON code_files(edge_set, snapshot_id);
        """,
    ),
    # Plan speed (issue 14, third round): memory's BM25 inputs outside FTS5.
    Migration(
        11,
        "memory BM25 inputs: each record's tokens with weighted frequency, and its length",
        """
        -- The tokens FTS5 made of each record (doc = its memory_fts rowid), occurrences
        -- weighted by column (title 4, narrative 1, facts 2, concepts 2), and its token
        -- count: a plain OR query over memory is scored from these, as bm25() would.
        CREATE TABLE memory_terms (
            term TEXT NOT NULL,
            doc INTEGER NOT NULL,
            freq REAL NOT NULL,
            PRIMARY KEY (term, doc)
        ) WITHOUT ROWID;
        CREATE INDEX memory_terms_doc ON memory_terms(doc);
        CREATE TABLE memory_lengths (
            doc INTEGER PRIMARY KEY,
            tokens INTEGER NOT NULL
        );
        -- Filled from FTS5's own instances of the records written before.
        CREATE VIRTUAL TABLE memory_fts_instances USING fts5vocab(memory_fts, 'instance');
        INSERT INTO memory_terms(term, doc, freq) SELECT term, doc,
            sum(CASE col WHEN 'title' THEN 4.0 WHEN 'narrative' THEN 1.0 ELSE 2.0 END)
            FROM memory_fts_instances GROUP BY term, doc;
        INSERT INTO memory_lengths(doc, tokens) SELECT doc, count(*) FROM memory_fts_instances GROUP BY doc;
        INSERT INTO memory_lengths(doc, tokens) SELECT rowid, 0 FROM memory_records
            WHERE rowid NOT IN (SELECT doc FROM memory_lengths);
        DROP TABLE memory_fts_instances;
        """,
    ),
    # Plan speed (issue 14, fifth round): recall reads what it needs of every record from
    # columns, and decodes only the records it returns.
    Migration(
        12,
        "memory records: the content address of the embedded text, and observed_at, in columns",
        """
        -- embed_hash: sha256 of the record's embedded text (cairn.memory.texts.embed_hash),
        -- the key of its vector; observed_at: an observation's session date. Existing rows
        -- are filled by cairn_embed_hash(body), a function the store registers on its
        -- connection (SQLite has no sha256 of its own).
        ALTER TABLE memory_records ADD COLUMN embed_hash TEXT;
        ALTER TABLE memory_records ADD COLUMN observed_at TEXT;
        UPDATE memory_records SET embed_hash = cairn_embed_hash(body),
            observed_at = json_extract(body, '$.observed_at');
        -- Recall reads these keys of every visible record from this index alone (the
        -- table's rows hold the records' bodies: a scan of it reads them all).
        CREATE INDEX memory_records_keys ON memory_records(status, project, visibility, owner, kind,
            observed_at, embed_hash, id);
        """,
    ),
    # Plan speed (issue 14, twelfth round): what a plan reads of each text, stored with it.
    Migration(
        13,
        "token counts and word stems of memory records' and passages' texts, by text hash",
        """
        -- hash: sha256 of the exact text (a record's full text or compact form, a passage's
        -- stripped text or compact form); counter: the budget token counter's name;
        -- stems: the light stems of the text's words, sorted, space-separated
        -- (cairn.memory.facts). Existing texts are filled by the migration's Python step.
        CREATE TABLE text_facts (
            hash TEXT PRIMARY KEY,
            counter TEXT NOT NULL,
            tokens INTEGER NOT NULL,
            stems TEXT NOT NULL
        ) WITHOUT ROWID;
        """,
        _fill_text_facts,
    ),
)

SCHEMA_VERSION = MIGRATIONS[-1].version
