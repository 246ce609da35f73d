# The profile summary follows Poplar's layout, and the report reads the same from Python.
set -euo pipefail
out=$1
for label in '^Target:' '^  Number of IPUs:' '^  Tiles per IPU:' '^Memory Usage:' 'Including Gaps:' \
             'Excluding Gaps:' '^Execution:' 'Total cycles:'; do
  grep -qE "$label" "$out" || { echo "check.sh: the profile summary has no line matching '$label'" >&2; exit 1; }
done
grep -q '^libpva: 64 tiles, 1 run(s), memory used, cycles recorded$' "$out"
/usr/bin/python3 read_report.py ../run/report
