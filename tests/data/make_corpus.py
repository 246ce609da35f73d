#!/usr/bin/python3
"""Writes the corpus of broken report and debug files that tests/pva/test_corpus.cpp opens.

Each file is small and deterministic; run this script again (from any directory) to recreate
them. Files derived from real reports (truncated, with garbage blobs, ...) are made at test
time from a fresh report instead, so they always match the current format.
"""
import os
import random
import sqlite3
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(20261123)


def path(name):
    return os.path.join(HERE, name)


def write(name, data):
    with open(path(name), "wb") as f:
        f.write(data)


def sqlite_file(name, statements):
    p = path(name)
    if os.path.exists(p):
        os.remove(p)
    db = sqlite3.connect(p)
    db.execute("PRAGMA page_size = 512")
    for s in statements:
        db.execute(s)
    db.commit()
    db.execute("VACUUM")
    db.close()


def meta(fmt, version):
    return ["CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            f"INSERT INTO meta VALUES ('format', '{fmt}')",
            f"INSERT INTO meta VALUES ('format_version', '{version}')"]


# --- profile.pop look-alikes ---------------------------------------------------------------------
write("empty.pop", b"")
write("text.pop", b"this is a text file, not a profile report\n")
write("random.pop", bytes(rng.getrandbits(8) for _ in range(4096)))
write("sqlite_magic_only.pop", b"SQLite format 3\x00" + bytes(20))
sqlite_file("plain_sqlite.pop", ["CREATE TABLE t (x INTEGER)", "INSERT INTO t VALUES (1)"])
sqlite_file("wrong_format.pop", meta("someone-elses-format", "1.0.0"))
sqlite_file("newer_major.pop", meta("tessera-profile", "2.0.0"))
sqlite_file("newer_minor.pop", meta("tessera-profile", "1.9.0"))
sqlite_file("older_major.pop", meta("tessera-profile", "0.9.0"))
sqlite_file("bad_version.pop", meta("tessera-profile", "one.two"))
sqlite_file("missing_tables.pop", meta("tessera-profile", "1.0.0"))
# A valid database cut in the middle of its pages.
sqlite_file("cut.pop", meta("tessera-profile", "1.0.0") +
            ["CREATE TABLE filler (x BLOB)"] +
            [f"INSERT INTO filler VALUES (x'{bytes(rng.getrandbits(8) for _ in range(400)).hex()}')" for _ in range(20)])
with open(path("cut.pop"), "rb") as f:
    whole = f.read()
write("cut.pop", whole[: len(whole) // 2])

# --- debug.cbor look-alikes (hand-encoded CBOR) --------------------------------------------------


def cbor_text(s):
    b = s.encode()
    assert len(b) < 24
    return bytes([0x60 + len(b)]) + b


def cbor_map(pairs):
    assert len(pairs) < 24
    return bytes([0xA0 + len(pairs)]) + b"".join(cbor_text(k) + v for k, v in pairs)


write("empty.cbor", b"")
write("random.cbor", bytes(rng.getrandbits(8) for _ in range(512)))
write("json.cbor", b'{"format": "tessera-debug"}')
write("wrong_format.cbor", cbor_map([("format", cbor_text("other-debug")), ("version", cbor_text("1.0.0"))]))
write("newer.cbor", cbor_map([("format", cbor_text("tessera-debug")), ("version", cbor_text("2.0.0")),
                              ("reportId", cbor_text("0" * 8)), ("contexts", b"\x80")]))
whole = cbor_map([("format", cbor_text("tessera-debug")), ("version", cbor_text("1.0.0")),
                  ("reportId", cbor_text("0" * 8)), ("contexts", b"\x80")])
write("truncated.cbor", whole[: len(whole) - 5])
# A context whose parent comes after it (hostile: would loop when walking parents).
context = cbor_map([("id", b"\x00"), ("name", cbor_text("x")), ("path", cbor_text("x")),
                    ("layer", cbor_text("user")), ("opType", cbor_text("")), ("parent", b"\x05"),
                    ("location", cbor_map([("file", cbor_text("")), ("function", cbor_text("")), ("line", b"\x00")]))])
write("bad_parent.cbor", cbor_map([("format", cbor_text("tessera-debug")), ("version", cbor_text("1.0.0")),
                                   ("reportId", cbor_text("0" * 8)), ("contexts", b"\x81" + context)]))
# A newer minor version with a key this reader does not know, at the top and in a context: read
# (the unknown keys ignored) up to the report id check (docs/formats.md, "Format versions").
context = cbor_map([("id", b"\x00"), ("name", cbor_text("x")), ("path", cbor_text("x")),
                    ("layer", cbor_text("user")), ("opType", cbor_text("")), ("parent", b"\xf6"),
                    ("addedLater", cbor_text("ignored")),
                    ("location", cbor_map([("file", cbor_text("")), ("function", cbor_text("")), ("line", b"\x00")]))])
write("newer_minor.cbor", cbor_map([("format", cbor_text("tessera-debug")), ("version", cbor_text("1.5.0")),
                                    ("addedLater", b"\x01"), ("reportId", cbor_text("0" * 8)),
                                    ("contexts", b"\x81" + context)]))
print("corpus written to", HERE)
