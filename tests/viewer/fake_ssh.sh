#!/bin/sh
# A stand-in for OpenSSH's client in the viewer's remote-report tests (no network): it takes
# ssh's options and a host, then runs the remote command with this machine's sh in
# $FAKE_SSH_ROOT, the folder it "serves" (relative paths are the login directory's).
#   host containing "unreachable": fails as ssh does when the name does not resolve (exit 255)
#   host containing "denied":      fails as ssh does when no key is accepted (exit 255)
#   $FAKE_SSH_LOG:   every command is appended to it (the tests count the copies)
#   $FAKE_SSH_DELAY: seconds to wait before a copy (`cat`), to cancel one in flight
while [ $# -gt 0 ]; do
  case "$1" in
    -o|-p|-l|-i|-F|-J) shift 2 ;;
    -*) shift ;;
    *) break ;;
  esac
done
host=$1
shift
[ -n "$FAKE_SSH_LOG" ] && printf '%s\t%s\n' "$host" "$*" >>"$FAKE_SSH_LOG"
case "$host" in
  *unreachable*)
    echo "ssh: Could not resolve hostname $host: Name or service not known" >&2
    exit 255 ;;
  *denied*)
    echo "$host: Permission denied (publickey,password)." >&2
    exit 255 ;;
esac
case "$*" in
  cat*) [ -n "$FAKE_SSH_DELAY" ] && sleep "$FAKE_SSH_DELAY" ;;
esac
cd "${FAKE_SSH_ROOT:-/}" || exit 1
exec sh -c "$*"
