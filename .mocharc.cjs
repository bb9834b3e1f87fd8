// Mocha's configuration. `npx mocha` and `npm test` run the whole suite, `test/**/*.test.ts`;
// `npx mocha FILE...` runs the files named. Mocha adds a configured spec to the files named on its
// command line, so the suite is configured only when the command line names no test file.
const { existsSync } = require('node:fs')

const SUITE = 'test/**/*.test.ts'
// Options whose value is a path that is not a test file to run.
const PATH_VALUED = new Set(['--require', '-r', '--file', '--config', '--package', '--ignore', '--exclude'])

const namesTestFiles = process.argv
  .slice(2)
  .some((arg, index, args) => !arg.startsWith('-') && !PATH_VALUED.has(args[index - 1] ?? '') && (existsSync(arg) || /[*?{[]/.test(arg)))

module.exports = {
  'node-option': ['import=tsx'],
  extension: ['ts'],
  recursive: true,
  timeout: 10000,
  reporter: 'spec',
  require: ['test/support/traffic-check.ts'],
  ...(namesTestFiles ? {} : { spec: [SUITE] }),
}
