// Finds circles of run-time imports among the parts' files (console/, extension/, server/, shared/) and fails when there
// is one: `node scripts/check-cycles.mjs` (part of `npm run lint`). Type-only imports vanish when compiled, so they are
// left out; a dynamic import() counts, since it runs. It reads each file with TypeScript's parser only (no types), so the
// whole tree takes a few seconds of CPU, where ESLint's import-x/no-cycle spent over a minute of CI's CPU on the same graph.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";

const parts = ["console", "extension", "server", "shared"];
const sourceFile = /\.(ts|tsx|mjs|js)$/;
const tryExtensions = ["", ".ts", ".tsx", ".mjs", ".js", "/index.ts", "/index.tsx"];

/** The specifiers a file imports at run time: static imports and re-exports that are not type-only, and import(). */
function runtimeImports(path, text) {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, path.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found = [];
  const typeOnly = (clause) => {
    if (!clause) return false;
    if (clause.isTypeOnly) return true;
    const named = clause.namedBindings;
    return !clause.name && named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && !typeOnly(node.importClause))
      found.push(node.moduleSpecifier.text);
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.exportClause;
      const allTypes = clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
      if (!node.isTypeOnly && !allTypes) found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) found.push(arg.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The repository file a specifier names (relative or `#shared/…`), or null for a package. */
function resolve(from, specifier, known) {
  let base;
  if (specifier.startsWith(".")) base = join(dirname(from), specifier);
  else if (specifier.startsWith("#shared/")) base = join("shared", specifier.slice("#shared/".length));
  else return null;
  // A file that is not a source file (css, json) or not in the parts is no link in a circle among them.
  return tryExtensions.map((ext) => base + ext).find((path) => known.has(path)) ?? null;
}

/** Every circle (a strongly connected group of two or more files, or a file importing itself), each as a file list. */
export function importCycles(root, files) {
  const known = new Set(files);
  const edges = new Map(
    files.map((f) => [f, runtimeImports(f, readFileSync(join(root, f), "utf8")).flatMap((s) => resolve(f, s, known) ?? [])]),
  );
  // Tarjan's strongly connected components, iteratively (a deep import chain would overflow the stack).
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const cycles = [];
  let next = 0;
  for (const start of files) {
    if (index.has(start)) continue;
    const work = [[start, 0]];
    (index.set(start, next), low.set(start, next++), stack.push(start), onStack.add(start));
    while (work.length) {
      const frame = work[work.length - 1];
      const [node, i] = frame;
      const targets = (edges.get(node) ?? []).filter((t) => known.has(t));
      if (i < targets.length) {
        frame[1]++;
        const t = targets[i];
        if (!index.has(t)) {
          (index.set(t, next), low.set(t, next++), stack.push(t), onStack.add(t));
          work.push([t, 0]);
        } else if (onStack.has(t)) low.set(node, Math.min(low.get(node), index.get(t)));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const group = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          group.push(member);
        } while (member !== node);
        if (group.length > 1 || targets.includes(node)) cycles.push(group.sort());
      }
    }
  }
  return cycles;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", ...parts], { cwd: root, encoding: "utf8" })
    .split("\n")
    .filter((f) => sourceFile.test(f) && existsSync(join(root, f)));
  const cycles = importCycles(root, files);
  for (const group of cycles) console.error(`Import circle (run-time imports) among:\n  ${group.join("\n  ")}`);
  if (cycles.length) {
    console.error(`${cycles.length} import circle(s): break each by moving what both sides need into a third file.`);
    process.exit(1);
  }
}
