// @ts-check
// Lint for Plant Store: typescript-eslint's strict rules, a few type-aware rules that catch lost
// promises, no import cycles, and the hexagon's layer rules. This file is the one layer checker;
// test/unit/architecture/lint-rules.test.ts proves each layer rule fires.
import { readdirSync } from 'node:fs'
import { defineConfig, globalIgnores } from 'eslint/config'
import importX, { createNodeResolver } from 'eslint-plugin-import-x'
import tseslint from 'typescript-eslint'

// The wire (wire/) is what the HTTP side of the house shares beside the core: the operation's one
// definition, the Error document, the exact JSON reader, the option checks. It imports only the
// core, fp-ts, io-ts and the packages named here for one of its folders ('' is the rest of it). A
// folder with packages of its own has an index of its own, which the rest of the wire never
// imports: an adapter importing wire/index.js (the client, in-memory storage) installs nothing.
const WIRE_PACKAGES = {
  // The exact JSON reader, which embedders also import alone (plant-store/json).
  'exact-json': ['lossless-json'],
  // How the modules that use an optional peer load it (wire/peers/load-peers.ts says why), with
  // Node's module loader, which the adapters do not import themselves (PEERS_THROUGH_THE_WIRE).
  peers: ['node:module', 'node:url', 'node:util'],
  '': [],
}
const WIRE_FOLDERS_WITH_PACKAGES = Object.keys(WIRE_PACKAGES).filter((folder) => folder !== '')

// Each folder of adapters/ is an adapter; read at load time so a new adapter is fenced in too.
const adapterNames = readdirSync(new URL('./adapters/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)

// An import of an adapter's file other than its index, written from anywhere: `adapters/x/y.js`.
const adapterInternals = (allowed = '') =>
  `(^|/)adapters/${allowed === '' ? '' : `(?!${allowed}/)`}[^/]+/(?!index\\.js$)[^/]+`

// The helpers and contract suites one adapter's tests share across the test tiers.
const testHelpersOf = (name) => [`test/support/${name}/**`, `test/contract/${name}/**`]

const THROUGH_INDEX =
  'Import an adapter through its index (adapters/<name>/index.js): the index is its public surface, ' +
  'and what it does not export is free to change.'

const WIRE_THROUGH_INDEX =
  'Import the wire through its index (wire/index.js), or the exact JSON reader through its own ' +
  '(wire/exact-json/index.js): an index is the public surface.'

// An import of a file of the wire other than its indexes, written from anywhere.
const WIRE_INTERNALS = {
  regex: `(^|/)wire/(?!(?:(?:${WIRE_FOLDERS_WITH_PACKAGES.join('|')})/)?index\\.js$).+`,
  message: WIRE_THROUGH_INDEX,
}

// node:module in an adapter: a peer loaded there, around the one way (wire/peers/) that names a
// missing peer, its subpath and its install command, and loads each as import would.
const PEERS_THROUGH_THE_WIRE = {
  regex: '^(node:)?module$',
  message:
    'An adapter loads its optional peers through loadPeers (wire/peers/index.js), which names a missing one; ' +
    'a file inside a package is peerFile(specifier) from there, not createRequire.',
}

const WIRE_KEEPS_PACKAGES_APART =
  'The rest of the wire does not import a folder of it that needs a package (exact-json/ needs lossless-json): ' +
  'whatever imports wire/index.js would need that package too.'

const WIRE_ONLY_CORE =
  'The wire (wire/) imports only the core (and fp-ts, io-ts, and the packages eslint.config.js names for it): ' +
  'it is what the adapters share, not an adapter, and knows none of them.'

// Any package but fp-ts, io-ts and those named (node:* and bare Node built-ins included).
const onlyPackages = (names) => `^(?!(?:${['fp-ts', 'io-ts', ...names].map((name) => name.replaceAll('.', '\\.')).join('|')})(?:/|$)|\\.{1,2}/)`

const KIT_ONLY_CORE =
  'The testing kit (testing/) imports only the core, fp-ts, io-ts and node:assert: an embedder runs it beside any adapter, with no runner or library of ours.'

// The folders of the HTTP adapter are floors, lowest first: each imports only the floors below it,
// and app.ts and index.ts stand on top of them all. The request's context (its state, its id, how
// it is answered) is the ground every floor above it reads; the server is the top floor, which
// nothing beneath the app reaches into.
const HTTP_FLOORS = ['peers', 'ports', 'errors', 'context', 'body', 'request', 'routes', 'openapi', 'server']

const HTTP_FLOORS_MESSAGE =
  `The folders of adapters/http/ are floors (${HTTP_FLOORS.join(', ')}, lowest first): a folder imports only ` +
  'the floors below it, never one above, app.ts or index.ts. Move what two floors share down to the lower one.'

const SHIPPED_NOT_KIT = 'Shipped code never imports the testing kit (testing/): it is for tests, and brings node:assert.'

const CORE_ONLY_FP =
  'The core imports only fp-ts, io-ts and itself: no frameworks, drivers or Node I/O. ' +
  'Put this in an adapter and give the core a port.'

const MOCHA_GLOBAL =
  "Call mocha's globals where they are used: a test helper that keeps one registers a later file's tests in an " +
  'earlier (finished) suite under mocha --parallel, where they never run.'

// Said wherever shipped code reads real time or sets a timer of its own.
const THROUGH_THE_CLOCK =
  'Time is a port: read the time and set timers through the Clock a policy is given (core/ports/clock.ts; systemClock from the wire in production, a virtual clock in tests), never the process\'s own: wire/system-clock.ts is the one place that reads real time. A wait for a turn of the event loop, which no clock measures, says so where it disables this rule.'

export default defineConfig([
  globalIgnores(['dist/', 'bench/dist/', 'node_modules/', 'coverage/']),

  tseslint.configs.strict,
  {
    name: 'plant-store/unused',
    rules: {
      // As tsc's noUnusedParameters: a leading underscore marks a parameter unused on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },

  {
    name: 'plant-store/type-aware',
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // A `default` is a deliberate answer for the rest (an open set, or `absurd(x)`); a switch
      // without one must name every member of the union.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },

  {
    name: 'plant-store/imports',
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      // Sources import `./x.js` and mean `./x.ts` (NodeNext); the resolver must follow that.
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.js', '.json', '.node'],
          extensionAlias: { '.js': ['.ts', '.js'] },
        }),
      ],
    },
    rules: {
      // Cycles are ours to find; walking into node_modules costs most of the lint time.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
    },
  },

  {
    name: 'plant-store/layers/core',
    files: ['core/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            // Any package but fp-ts and io-ts (node:* and bare Node built-ins included).
            { regex: '^(?!(?:fp-ts|io-ts)(?:/|$)|\\.{1,2}/)', message: CORE_ONLY_FP },
          ],
        },
      ],
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            {
              target: './core',
              from: '.',
              except: ['./core', './node_modules'],
              message: 'The core imports only itself (and fp-ts, io-ts): never the wire, adapters, apps or tests.',
            },
          ],
        },
      ],
    },
  },

  {
    // The kit a tester imports beside their adapter: the core's ports and Node's assert, nothing else.
    name: 'plant-store/layers/testing',
    files: ['testing/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(?!(?:fp-ts|io-ts|node:assert)(?:/|$)|\\.{1,2}/)', message: KIT_ONLY_CORE }] },
      ],
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [{ target: './testing', from: '.', except: ['./testing', './core', './node_modules'], message: KIT_ONLY_CORE }],
        },
      ],
    },
  },
  {
    // apps/ compose everything shipped; the kit is not shipped code. (The core's and the adapters'
    // own zones below keep the kit out of them.)
    name: 'plant-store/layers/apps',
    files: ['apps/**'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { basePath: import.meta.dirname, zones: [{ target: './apps', from: './testing', message: SHIPPED_NOT_KIT }] },
      ],
    },
  },

  {
    name: 'plant-store/layers/adapters',
    files: ['adapters/**'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            {
              target: './adapters',
              from: './apps',
              message: 'Adapters never import apps: apps compose adapters, not the other way round.',
            },
            { target: './adapters', from: './testing', message: SHIPPED_NOT_KIT },
            ...adapterNames.map((name) => ({
              target: `./adapters/${name}`,
              from: './adapters',
              except: [`./${name}`],
              message: `Adapters never import each other: adapters/${name} may import the core (../../core/index.js), not another adapter. Compose them in apps/.`,
            })),
            // In the same rule as the zones above: a second config setting it would replace them.
            ...HTTP_FLOORS.map((floor, level) => ({
              target: `./adapters/http/${floor}`,
              from: './adapters/http',
              except: HTTP_FLOORS.slice(0, level + 1).map((below) => `./${below}`),
              message: HTTP_FLOORS_MESSAGE,
            })),
          ],
        },
      ],
    },
  },

  {
    // Outside the wire, its index is the only way in (here for the adapters, below for the rest;
    // the core imports none of it at all).
    name: 'plant-store/layers/wire-through-index',
    files: ['adapters/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [WIRE_INTERNALS, PEERS_THROUGH_THE_WIRE] }],
    },
  },

  ...Object.entries(WIRE_PACKAGES).map(([folder, packages]) => ({
    name: `plant-store/layers/wire${folder === '' ? '' : `/${folder}`}`,
    files: [folder === '' ? 'wire/**' : `wire/${folder}/**`],
    ignores: folder === '' ? WIRE_FOLDERS_WITH_PACKAGES.map((other) => `wire/${other}/**`) : [],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: onlyPackages(packages), message: WIRE_ONLY_CORE },
            ...(folder === '' ? WIRE_FOLDERS_WITH_PACKAGES.map((other) => ({ regex: `(^|/)${other}/`, message: WIRE_KEEPS_PACKAGES_APART })) : []),
          ],
        },
      ],
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [{ target: './wire', from: '.', except: ['./wire', './core', './node_modules'], message: WIRE_ONLY_CORE }],
        },
      ],
    },
  })),

  {
    // Outside an adapter, its index is the only way in (an adapter's own files are fenced above).
    name: 'plant-store/layers/through-index',
    files: ['**/*.ts', '**/*.js'],
    // The core and the kit import no adapter at all; their own rules say so. So does the wire's.
    ignores: ['core/**', 'testing/**', 'wire/**', 'adapters/**', 'test/*/adapters/**', 'test/*/wire/**', ...adapterNames.flatMap(testHelpersOf)],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: adapterInternals(), message: THROUGH_INDEX }, WIRE_INTERNALS] }],
    },
  },
  // An adapter's own tests (in each tier) and their helpers may look inside it, and only inside it;
  // the wire's tests inside the wire.
  ...adapterNames.map((name) => ({
    name: `plant-store/layers/through-index/test-${name}`,
    files: [`test/*/adapters/${name}/**`, ...testHelpersOf(name)],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: adapterInternals(name), message: THROUGH_INDEX }, WIRE_INTERNALS] }],
    },
  })),
  {
    name: 'plant-store/layers/through-index/test-wire',
    files: ['test/*/wire/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: adapterInternals(), message: THROUGH_INDEX }] }],
    },
  },

  {
    // stdout belongs to mocha's reporter: one stray line there breaks `mocha --reporter json`.
    // Tests say why they are pending on stderr (test/support/pending.ts).
    name: 'plant-store/tests-leave-stdout-to-the-reporter',
    files: ['test/**'],
    // Commands of their own: the peer (npm run mongo-peer), the wire fuzzer (npm run fuzz), and the
    // consumer programs the install test runs.
    ignores: ['test/support/mongo-peer/main.ts', 'test/support/wire-fuzz/main.ts', 'test/e2e/consumer/**'],
    rules: {
      'no-console': 'error',
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'stdout', message: 'stdout belongs to the reporter; write to process.stderr.' },
      ],
    },
  },

  {
    // Mocha gives each test file `describe`, `it` and the hooks of its own; a parallel worker runs
    // several files and keeps the modules they import. A helper module that takes one of them as a
    // value keeps the first file's, and a later file's tests go into a finished suite, unrun and
    // unreported. Helpers call them where they are used, so each call finds the running file's.
    name: 'plant-store/test-helpers-call-mocha-globals',
    files: ['test/support/**', 'test/contract/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        // `describe` and `it` anywhere but called (or named as a key); the hooks, whose names are
        // common words for locals too, where a value is kept: a shorthand property, an initializer.
        {
          selector: 'Identifier[name=/^(describe|it)$/]:not(CallExpression > .callee, Property > .key, MemberExpression > .property)',
          message: MOCHA_GLOBAL,
        },
        {
          selector: ':matches(Property[shorthand=true] > .value, VariableDeclarator > .init)[name=/^(before|after|beforeEach|afterEach)$/]',
          message: MOCHA_GLOBAL,
        },
      ],
    },
  },

  {
    // Time is a port: shipped code reads the time and sets timers through a Clock
    // (core/ports/clock.ts), so every timed policy runs on virtual time in its tests and gives the
    // same answer at any machine load. wire/system-clock.ts is the one place that reads real time.
    name: 'plant-store/time-is-a-port',
    files: ['core/**', 'wire/**', 'adapters/**', 'apps/**', 'testing/**'],
    ignores: ['wire/system-clock.ts'],
    rules: {
      'no-restricted-globals': ['error', ...['setTimeout', 'setInterval', 'setImmediate'].map((name) => ({ name, message: THROUGH_THE_CLOCK }))],
      'no-restricted-properties': [
        'error',
        ...[
          ['performance', 'now'],
          ['Date', 'now'],
          ['process', 'hrtime'],
          ['AbortSignal', 'timeout'],
          ...['setTimeout', 'setInterval', 'setImmediate'].map((name) => ['globalThis', name]),
        ].map(([object, property]) => ({ object, property, message: THROUGH_THE_CLOCK })),
      ],
      'no-restricted-syntax': [
        'error',
        { selector: 'NewExpression[callee.name="Date"][arguments.length=0]', message: THROUGH_THE_CLOCK },
        ...['ImportDeclaration', 'ExportNamedDeclaration', 'ExportAllDeclaration', 'ImportExpression'].map((node) => ({
          selector: `${node}[source.value=/^(node:)?timers(\\u002Fpromises)?$/]`,
          message: THROUGH_THE_CLOCK,
        })),
      ],
    },
  },

  {
    name: 'plant-store/shipped-code',
    files: ['core/**', 'wire/**', 'adapters/**', 'apps/**'],
    rules: {
      'no-warning-comments': ['error', { terms: ['todo', 'fixme', 'xxx'], location: 'start' }],
    },
  },
])
