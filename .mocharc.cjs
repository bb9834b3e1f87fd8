// Mocha's settings for every run: `npx mocha` (the whole of test/), `npx mocha FILE` (that file),
// `npm test` (test/unit and test/integration, in parallel) and `npm run test:e2e` (test/e2e).
// No spec is named here: mocha adds a configured spec to the files named on its command line, so
// mocha's default, test/, is read recursively, with every file but the *.test.ts ones ignored.
const { availableParallelism } = process.getBuiltinModule('node:os')

module.exports = {
  'node-option': ['import=tsx'],
  extension: ['ts'],
  recursive: true,
  ignore: ['test/**/!(*.test).ts'],
  // A hang detector, not a bound on the machine's speed: a test held to a time of its own sets it,
  // sized to a yardstick taken in the same run where the bound is about the machine.
  timeout: 60000,
  reporter: 'spec',
  require: ['test/support/traffic-check.ts', 'test/support/property-runs.ts'],
  // Read in parallel mode only. The tiers `npm test` runs spend most of their wall time waiting on
  // sockets and timers (the product's deadlines, a slow peer), not computing, so more workers than
  // cores overlap those waits; each worker is one file at a time.
  jobs: availableParallelism() * 4,
}
