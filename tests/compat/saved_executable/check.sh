# Compile in one process, save the executable, run it in another: same results, same profile.
# The loading process runs elsewhere, with an empty codelet cache and no codelet source at hand,
# so the codelet object must come from the executable itself.
set -euo pipefail
here=$(pwd)
work=$here/../exe
rm -rf "$work"
mkdir -p "$work/compile" "$work/load"
cd "$work/compile"
"$here/saved_executable" --report direct > direct.txt
"$here/saved_executable" --save-exe prog.exe
cd "$work/load"
TESSERA_CODELET_CACHE="$work/load/empty-cache" \
  "$here/saved_executable" --load-exe ../compile/prog.exe --report loaded > loaded.txt
diff -u "$here/expected.txt" loaded.txt
diff -u ../compile/direct.txt loaded.txt
/usr/bin/python3 "$here/compare_profiles.py" ../compile/direct/scaleAndAdd loaded/scaleAndAdd

# A damaged file is a clear error, not a crash.
head -c 300 ../compile/prog.exe > truncated.exe
if "$here/saved_executable" --load-exe truncated.exe > bad.txt 2>&1; then
  echo "check.sh: a truncated executable loaded" >&2; exit 1
fi
grep -q "the executable is truncated" bad.txt || { cat bad.txt >&2; exit 1; }
echo "a truncated executable: $(grep -o 'the executable is truncated[^:]*' bad.txt | head -1)"
