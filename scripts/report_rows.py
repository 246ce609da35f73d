#!/usr/bin/python3
"""Every row of every table of a profile.pop, as text, so that two reports of the same program can
be compared row for row (issue 39: a change to how the engine writes reports must not change what
they hold). What differs between two runs of one program by nature is left out: the host times
(meta's created_at, created_at_unix_us and report_id, runs' microseconds_start/_end). Blobs are
shown by their SHA-256, rows sorted, so the order SQLite returns them in does not matter.

  report_rows.py dump profile.pop [OUT]      write the rows (to OUT, else stdout)
  report_rows.py compare A.pop B.pop         exit 1 and show the first differences if the rows differ
"""
import hashlib
import sqlite3
import sys

# (table, column) pairs that hold the host's clock or a random id, not the report's content.
VOLATILE_COLUMNS = {("runs", "microseconds_start"), ("runs", "microseconds_end")}
VOLATILE_META_KEYS = {"created_at", "created_at_unix_us", "report_id"}


def cell(value):
    if isinstance(value, bytes):
        return "blob:" + hashlib.sha256(value).hexdigest()[:16] + f"/{len(value)}"
    return repr(value)


def rows(path):
    """The report's content: a list of lines, table by table."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = [r[0] for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        out = []
        for table in tables:
            columns = [r[1] for r in db.execute(f'PRAGMA table_info("{table}")')]
            kept = [c for c in columns if (table, c) not in VOLATILE_COLUMNS]
            lines = []
            for row in db.execute(f'SELECT {", ".join(chr(34) + c + chr(34) for c in kept)} FROM "{table}"'):
                if table == "meta" and row[0] in VOLATILE_META_KEYS:
                    continue
                lines.append(" | ".join(cell(v) for v in row))
            out.append(f"== {table} ({', '.join(kept)}): {len(lines)} rows")
            out.extend(sorted(lines))
        return out
    finally:
        db.close()


def main(argv):
    if len(argv) >= 3 and argv[1] == "dump":
        text = "\n".join(rows(argv[2])) + "\n"
        if len(argv) > 3:
            with open(argv[3], "w") as f:
                f.write(text)
        else:
            sys.stdout.write(text)
        return 0
    if len(argv) == 4 and argv[1] == "compare":
        a, b = rows(argv[2]), rows(argv[3])
        if a == b:
            print(f"report_rows: same rows ({len(a)} lines)")
            return 0
        import difflib
        diff = list(difflib.unified_diff(a, b, argv[2], argv[3], lineterm="", n=1))
        print("\n".join(diff[:60]))
        print(f"report_rows: the reports differ ({len(diff)} diff lines)", file=sys.stderr)
        return 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
