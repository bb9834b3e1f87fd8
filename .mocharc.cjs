// Mocha adds a configured `spec` to the files named on the command line instead of replacing it,
// so `npx mocha test/e2e/service.test.ts` would run every test. The whole suite is the spec only
// when no test file or folder is named.
const namesTests = process.argv.slice(2).some((arg) => !arg.startsWith('-') && /(^|\/)test(\/|$)|\.test\.ts$/.test(arg))

module.exports = {
  'node-option': ['import=tsx'],
  extension: ['ts'],
  ...(namesTests ? {} : { spec: ['test/**/*.test.ts'] }),
  recursive: true,
  timeout: 10000,
  reporter: 'spec',
  // Every response a test receives from a server it started is checked against that server's
  // OpenAPI document (test/support/traffic-check.ts).
  require: ['test/support/traffic-check.ts'],
}
