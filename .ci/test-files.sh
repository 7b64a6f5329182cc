#!/usr/bin/env bash
# The test files of each of CI's two runs: `.ci/test-files.sh pglite` and `.ci/test-files.sh postgres`.
#
# postgres: the files that reach a database (they start a test server or the app, open a database, or use a kit that
# does: server/testing/'s harness and the kits built on it, the e2e kits). Every other file (pure logic of the console,
# the extension, shared/ and the server) gives the same answer on either database. So do the files whose only kit starts
# no database: the adapter's contract session (server/testing/meli-contract.ts), the sandbox's own kit
# (server/testing/sandbox-kit.ts, a sandbox in memory or in a file) and the extension's fake browser (extension/testing/).
#
# pglite: every file but the browser tests. Those drive the screens through the same server calls the server tests run
# on both databases, so they run once, on PostgreSQL, where the app's SQL costs less CPU than in PGlite's WASM (about a
# quarter of a browser file's CPU, measured in docs/decisions.md); the first start of the whole product
# (e2e/fresh-start.test.ts, what `npm start` gives a newcomer) runs on both.
cd "$(dirname "$0")/.."
run=${1:?usage: .ci/test-files.sh pglite|postgres}
both_browser='e2e/fresh-start.test.ts'
reaches='testing/|/db/|app-process|e2e/|DATABASE_URL|from "\./(harness|app-process|browser|extension-kit|publish-rig|demo-publishing)'
no_database_kits='(from|import) "[./]*/testing/(meli-contract|sandbox-kit|fake-browser)\.ts"'
is_browser() { [ "$1" != "$both_browser" ] && grep -q -E 'launchChromium|from "\./(browser|extension-kit)' "$1"; }
git ls-files '*.test.ts' '*.test.tsx' |
  while read -r f; do
    if [ "$run" = pglite ]; then
      is_browser "$f" || echo "$f"
      continue
    fi
    # The file's code without its comments and without the imports of kits that start no database.
    grep -v -E "^\s*//|$no_database_kits" "$f" | grep -q -E "$reaches" && echo "$f"
  done | sort
