// ESLint guards the structure, not the style (prettier formats, tsc types): the import boundaries between the parts and
// React's rules of hooks. Run it with `npm run lint`, which also runs scripts/check-cycles.mjs (import circles, which
// import-x/no-cycle found at many times the cost); CI (.ci/run) fails on an error.
import { readdirSync } from "node:fs";
import { defineConfig } from "eslint/config";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

const parts = ["console", "extension", "server", "shared"];
const foldersIn = (path) =>
  readdirSync(new URL(path, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
const consoleFeatures = foldersIn("./console/src/features");
const serverModules = foldersIn("./server/modules");

/**
 * Who may import what (files under `target` may not import from `from`). Tests may also use the one test kit that
 * starts a real server (server/testing), and may reach into the modules they exercise, which is why the zones are built
 * twice. Tests leave out the modules' door rule.
 */
function boundaries({ tests, doors = !tests }) {
  const except = (part) => (tests && part === "server" ? ["./testing"] : []);
  const others = (part) => parts.filter((p) => p !== part && p !== "shared");
  return [
    // console, extension and server import shared/ and never each other (nor the tools around them).
    ...["console", "extension", "server"].flatMap((part) =>
      [...others(part), "e2e", "bench", "scripts"].map((from) => ({
        target: `./${part}`,
        from: `./${from}`,
        except: except(from),
        message: `${part}/ imports shared/ only, not ${from}/.`,
      })),
    ),
    // shared/ is imported by all of them and imports none of them.
    ...["console", "extension", "server"].map((from) => ({
      target: "./shared",
      from: `./${from}`,
      except: except(from),
      message: `shared/ imports none of console/, extension/ or server/.`,
    })),
    // A console feature imports no other feature and not the app shell (bulletproof-react's unidirectional rule).
    ...consoleFeatures.map((feature) => ({
      target: `./console/src/features/${feature}`,
      from: "./console/src/features",
      except: [`./${feature}`],
      message: "A console feature imports no other feature: move what both need to components/ or lib/.",
    })),
    { target: "./console/src/features", from: "./console/src/app", message: "Console features do not import the app shell." },
    { target: "./server/db", from: "./server/modules", message: "server/db/ imports no module." },
    // A server module reaches another only through its door, index.ts (what the others use of it: types, constants,
    // pure helpers, functions over a transaction); another module's service is handed to its factory by deps.ts.
    ...(doors
      ? serverModules.map((module) => ({
          target: `./server/modules/${module}`,
          from: "./server/modules",
          except: [`./${module}`, ...serverModules.filter((other) => other !== module).map((other) => `./${other}/index.ts`)],
          message: "A module imports another only through its index.ts; a service it uses comes from deps.ts.",
        }))
      : []),
    // The layers the modules stand on import none of them: what they need of one moves below them (db/, http/) or is
    // handed to them at assembly (deps.ts). Their tests may drive a module's code through them (the endpoint tests).
    ...(tests
      ? []
      : ["http", "jobs", "integrations"].map((layer) => ({
          target: `./server/${layer}`,
          from: "./server/modules",
          message: `server/${layer}/ imports no module: move what it needs below the modules or pass it in at assembly.`,
        }))),
  ];
}

export default defineConfig([
  {
    ignores: [
      "**/node_modules/",
      ".output/",
      ".build/",
      ".wxt/",
      "console/dist/",
      "data/",
      "**/.data/",
      ".ci/out/",
      "e2e/artifacts/",
      "tmp/",
    ],
  },
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { parser: tseslint.parser, ecmaVersion: "latest", sourceType: "module" },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    plugins: { "import-x": importX },
    settings: {
      // The cycle rule follows imports into TypeScript files only when told to parse them.
      "import-x/extensions": [".ts", ".tsx", ".js", ".mjs"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/resolver-next": [
        createTypeScriptImportResolver({
          project: ["tsconfig.json", "console/tsconfig.json", "extension/tsconfig.json"],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      // An import the resolver cannot follow would pass the boundary and cycle rules unseen.
      "import-x/no-unresolved": "error",
      "import-x/no-restricted-paths": ["error", { zones: boundaries({ tests: false }) }],
    },
  },
  {
    files: ["**/*.test.{ts,tsx}", "**/testing/**"],
    rules: {
      "import-x/no-restricted-paths": ["error", { zones: boundaries({ tests: true }) }],
    },
  },
  {
    files: ["console/**/*.{ts,tsx}", "extension/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
    },
  },
]);
