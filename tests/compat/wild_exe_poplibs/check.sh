# The loading program does not link PopLibs, yet runs the executable's PopLibs vertices.
set -euo pipefail
here=$(pwd)
run=$(dirname "$1")/run
if ldd "$here/run_saved" | grep -q "libpopops"; then
  echo "check.sh: run_saved links libpopops" >&2; exit 1
fi
mkdir -p "$run/elsewhere"
cd "$run/elsewhere"
"$here/run_saved" ../axpy.exe > loaded.txt
diff -u "$here/expected_loaded.txt" loaded.txt
cat loaded.txt
