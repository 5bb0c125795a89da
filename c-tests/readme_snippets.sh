#!/bin/sh
# Runs the code snippets of README.md as a reader would.
#
#   readme_snippets.sh LANG README SOURCE_DIR WORK_DIR [LIBWURL]
#
# LANG c: every ```c block is saved as app.c and built with the README's own
#   command (the line starting `cc -Iinclude app.c target/release/libwurl.a`,
#   run verbatim in WORK_DIR, where include/ and target/release/libwurl.a
#   point to SOURCE_DIR/include and LIBWURL, the built static library);
#   then ./app runs and must exit 0.
# LANG cpp: the same for every ```cpp block, saved as app.cpp and built with
#   the README's line starting `c++ -std=c++17 -Iinclude app.cpp
#   target/release/libwurl.a` (a C++ compiler, CXX or c++, runs it;
#   -Wall -Wextra -Werror are added, and with CXXSTD=20 the block is built
#   as C++20 too).
# LANG perl / ruby: every ```perl / ```ruby block runs from SOURCE_DIR (as
#   the README's "from the repository" instructions say) with WURL_LIB=LIBWURL
#   (the built libwurl.so) and must exit 0.
#
# LANG rust: the ```rust blocks run as doctests: `rustdoc --test README`
#   with the library built by cargo (LIBWURL is then cargo's output
#   directory, holding libwurl.rlib and deps/).
#
# When a block is followed (blank lines apart) by a ```text block, that block
# is the expected standard output and must match exactly. Fails when README
# has no block of LANG, so a renamed fence cannot pass silently.
set -eu

lang="$1" readme="$2" src="$3" work="$4" lib="${5:-}"

rm -rf "$work"
mkdir -p "$work/blocks"

# Split README into blocks/NN.<lang> and, when a ```text block directly
# follows one (blank lines apart), blocks/NN.expected.
awk -v dir="$work/blocks" -v want="$lang" '
  BEGIN { n = 0; state = "out"; pending = 0 }
  state == "out" && /^```/ {
    tag = substr($0, 4)
    if (tag == want) {
      n++; file = sprintf("%s/%02d.%s", dir, n, want); printf "" > file
      state = "code"; next
    }
    if (tag == "text" && pending) {
      file = sprintf("%s/%02d.expected", dir, n); printf "" > file
      state = "expect"; pending = 0; next
    }
    state = "other"; pending = 0; next
  }
  state != "out" && /^```[ \t]*$/ {
    if (state == "code" || state == "expect") close(file)
    pending = (state == "code"); state = "out"; next
  }
  state == "code" || state == "expect" { print > file; next }
  state != "out" { next }
  /^[ \t]*$/ { next }
  { pending = 0 }
' "$readme"

count=$(ls "$work"/blocks/*."$lang" 2>/dev/null | wc -l)
if [ "$count" -eq 0 ]; then
  echo "no \`\`\`$lang block in $readme" >&2
  exit 1
fi

case "$lang" in
  c)
    cmd=$(grep -m1 '^cc -Iinclude app\.c target/release/libwurl\.a' "$readme" | sed 's/[ \t]*#.*$//')
    if [ -z "$cmd" ]; then
      echo "README has no 'cc -Iinclude app.c target/release/libwurl.a ...' line" >&2
      exit 1
    fi
    mkdir -p "$work/target/release"
    ln -s "$src/include" "$work/include"
    ln -s "$lib" "$work/target/release/libwurl.a"
    echo "build command (from README): $cmd"
    ;;
  cpp)
    cmd=$(grep -m1 '^c++ -std=c++17 -Iinclude app\.cpp target/release/libwurl\.a' "$readme" | sed 's/[ \t]*#.*$//')
    if [ -z "$cmd" ]; then
      echo "README has no 'c++ -std=c++17 -Iinclude app.cpp target/release/libwurl.a ...' line" >&2
      exit 1
    fi
    # The compiler CMake found, and warnings as errors.
    cmd=$(printf '%s\n' "$cmd" | sed "s|^c++ |\"\${CXX:-c++}\" -Wall -Wextra -Werror |")
    mkdir -p "$work/target/release"
    ln -s "$src/include" "$work/include"
    ln -s "$lib" "$work/target/release/libwurl.a"
    echo "build command (from README, with -Wall -Wextra -Werror): $cmd"
    ;;
esac

if [ "$lang" = rust ]; then
  echo "rustdoc --test $readme ($count rust block(s))"
  cd "$work"
  if ! rustdoc --test "$readme" --edition 2024 --test-run-directory "$src" \
      --extern "wurl=$lib/libwurl.rlib" -L "dependency=$lib/deps" > rustdoc.log 2>&1; then
    cat rustdoc.log
    exit 1
  fi
  cat rustdoc.log
  # Every block ran (none ignored or left out).
  grep -q "test result: ok. $count passed" rustdoc.log || { echo "expected $count passed" >&2; exit 1; }
  exit 0
fi

failed=0
for f in "$work"/blocks/*."$lang"; do
  base="${f%.*}"
  name=$(basename "$base")
  out="$base.out"
  case "$lang" in
    c)
      cp "$f" "$work/app.c"
      rm -f "$work/app"
      if ! (cd "$work" && sh -c "$cmd"); then
        echo "snippet $name: does not build:"; cat -n "$f"; failed=1; continue
      fi
      if ! (cd "$work" && ./app > "$out"); then
        echo "snippet $name: exit status not 0:"; cat -n "$f"; failed=1; continue
      fi
      ;;
    cpp)
      cp "$f" "$work/app.cpp"
      for std in 17 ${CXXSTD:-}; do
        rm -f "$work/app"
        c=$(printf '%s\n' "$cmd" | sed "s|-std=c++17|-std=c++$std|")
        if ! (cd "$work" && sh -c "$c"); then
          echo "snippet $name: does not build as C++$std:"; cat -n "$f"; failed=1; continue 2
        fi
        if ! (cd "$work" && ./app > "$out"); then
          echo "snippet $name: exit status not 0 (C++$std):"; cat -n "$f"; failed=1; continue 2
        fi
        if [ -f "$base.expected" ] && ! cmp -s "$out" "$base.expected"; then
          echo "snippet $name (C++$std): output differs from the README's:"
          diff "$base.expected" "$out" || true
          failed=1
          continue 2
        fi
      done
      ;;
    perl)
      if ! (cd "$src" && WURL_LIB="$lib" perl "$f" > "$out"); then
        echo "snippet $name: perl failed:"; cat -n "$f"; failed=1; continue
      fi
      ;;
    ruby)
      if ! (cd "$src" && WURL_LIB="$lib" ruby "$f" > "$out"); then
        echo "snippet $name: ruby failed:"; cat -n "$f"; failed=1; continue
      fi
      ;;
    *) echo "unknown language $lang" >&2; exit 2 ;;
  esac
  if [ -f "$base.expected" ]; then
    if ! cmp -s "$out" "$base.expected"; then
      echo "snippet $name: output differs from the README's:"
      diff "$base.expected" "$out" || true
      failed=1
      continue
    fi
    echo "snippet $name: ok (output as in the README)"
  else
    echo "snippet $name: ok (runs; the README shows no output block)"
  fi
done
echo "$count $lang snippet(s) of $readme checked"
exit $failed
