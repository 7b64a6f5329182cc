#!/usr/bin/env bash
# The test files CI runs a second time, on PostgreSQL: those that reach a database (they start a test server or the
# app, open a database, or use a kit that does: server/testing/'s harness and the kits built on it, the e2e kits),
# except the browser tests. Every other file (pure logic of the console, the extension, shared/ and the server) gives
# the same answer on either database. So do the files whose only kit starts no database: the adapter's contract
# session (server/testing/meli-contract.ts), the sandbox's own kit (server/testing/sandbox-kit.ts, a sandbox in memory
# or in a file) and the extension's fake browser (extension/testing/).
# The browser tests drive the screens through the same server calls the server tests already run on both databases;
# they run once, on PGlite (the database `npm start` gives a newcomer), except the first start of the whole product,
# which runs on both.
cd "$(dirname "$0")/.."
both_browser='e2e/fresh-start.test.ts'
reaches='testing/|/db/|app-process|e2e/|DATABASE_URL|from "\./(harness|app-process|browser|extension-kit|publish-rig|demo-publishing)'
no_database_kits='(from|import) "[./]*/testing/(meli-contract|sandbox-kit|fake-browser)\.ts"'
git ls-files '*.test.ts' '*.test.tsx' |
  while read -r f; do
    # The file's code without its comments and without the imports of kits that start no database.
    grep -v -E "^\s*//|$no_database_kits" "$f" | grep -q -E "$reaches" || continue
    if [ "$f" != "$both_browser" ] && grep -q -E 'launchChromium|from "\./(browser|extension-kit)' "$f"; then continue; fi
    echo "$f"
  done | sort
