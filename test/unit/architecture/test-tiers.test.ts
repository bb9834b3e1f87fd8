import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect } from 'chai'

// A test's tier is its folder, and the folder is checked against what the test does, read from
// its imports and those of the test helpers it loads, so no list can drift from the tests:
// - test/unit/: no socket, no process, no wait on real time;
// - test/integration/: sockets (in-process servers, the wire peer, raw HTTP) or real timers, but
//   no process started;
// - test/e2e/: child processes (the built service, tsc, eslint, mocha, npm), a browser or a mongod.
// `npm test` runs the first two; a test that starts a process there fails here until it moves.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const TIERS = ['unit', 'integration', 'e2e'] as const
type Tier = (typeof TIERS)[number]

// Followed through every module (a bench harness or the service's own code may start them).
const PROCESS_MODULES = /^(node:)?child_process$|^playwright-core$|^mongodb-memory-server$/
// Followed through test code only: the product's modules import node:net or node:http for their
// own use, which starts no server in a test that only calls them.
const SOCKET_MODULES = /^(node:)?(net|http|https|http2|tls|dgram)$/
const SOCKET_CALLS = /\.listen\(|\bfetch\(/
// A bare call of the process's timers: a virtual clock's `fake.setTimeout(` waits on no real time.
const REAL_TIME = /(?<![.\w])set(?:Timeout|Interval)\(|\bsetTimeout as\b/

const IMPORTS = /^\s*(?:import|export)\s+(?!type\b)[^'"]*?\sfrom\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm

/** The module a file imports at run time (type-only imports are erased) by a relative specifier. */
const resolveLocal = (from: string, specifier: string): string | undefined =>
  [specifier.replace(/\.js$/, '.ts'), specifier]
    .map((candidate) => join(dirname(from), candidate))
    .find((path) => existsSync(path) && statSync(path).isFile())

/** The code of a file without its comment lines, where a word such as fetch( says nothing. */
const codeOf = (file: string): string =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\/?\*)/.test(line))
    .join('\n')

interface Probe {
  readonly modules: RegExp
  readonly calls?: RegExp
  readonly follow: (local: string) => boolean
}

/** The chain of imports from a file to what the probe looks for, when there is one. */
const chainTo = (probe: Probe, file: string, seen = new Set<string>()): ReadonlyArray<string> | undefined => {
  if (seen.has(file)) return undefined
  seen.add(file)
  const code = codeOf(file)
  const call = probe.calls?.exec(code)
  if (call !== null && call !== undefined) return [call[0]]
  for (const match of code.matchAll(IMPORTS)) {
    const specifier = match[1] ?? match[2] ?? match[3] ?? ''
    if (probe.modules.test(specifier)) return [specifier]
    const local = specifier.startsWith('.') ? resolveLocal(file, specifier) : undefined
    const chain = local === undefined || !probe.follow(local) ? undefined : chainTo(probe, local, seen)
    if (local !== undefined && chain !== undefined) return [relative(ROOT, local), ...chain]
  }
  return undefined
}

const startsProcesses: Probe = { modules: PROCESS_MODULES, follow: () => true }
const usesSocketsOrTime: Probe = {
  modules: SOCKET_MODULES,
  calls: new RegExp(`${SOCKET_CALLS.source}|${REAL_TIME.source}`),
  follow: (local) => relative(ROOT, local).startsWith('test/'),
}

const testFiles = (): ReadonlyArray<string> =>
  readdirSync(join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => `test/${file}`)
    .sort()

const tierOf = (file: string): Tier | undefined => TIERS.find((tier) => file.startsWith(`test/${tier}/`))
const inTier = (tier: Tier) => testFiles().filter((file) => tierOf(file) === tier)
const why = (probe: Probe, file: string) => {
  const chain = chainTo(probe, join(ROOT, file))
  return chain === undefined ? [] : [`${file} > ${chain.join(' > ')}`]
}

describe('the test tiers (test/unit, test/integration, test/e2e)', () => {
  it('hold every test file', () => {
    expect(testFiles().filter((file) => tierOf(file) === undefined)).to.deep.equal([])
    for (const tier of TIERS) expect(inTier(tier), tier).to.have.length.above(0)
  })

  it('keep processes, browsers and mongod in test/e2e/', () => {
    const heavy = [...inTier('unit'), ...inTier('integration')].flatMap((file) => why(startsProcesses, file))
    expect(heavy, 'these start a process, a browser or a mongod: move them to test/e2e/').to.deep.equal([])
  })

  it('keep sockets and real time out of test/unit/', () => {
    const waiting = inTier('unit').flatMap((file) => why(usesSocketsOrTime, file))
    expect(waiting, 'these open sockets or wait on real time: move them to test/integration/').to.deep.equal([])
  })

  it('leave in test/integration/ only tests with sockets or real time', () => {
    const light = inTier('integration').filter((file) => why(usesSocketsOrTime, file).length === 0)
    expect(light, 'these open no socket and wait on no clock: move them to test/unit/').to.deep.equal([])
  })

  it('leave in test/e2e/ only tests that start a process, a browser or a mongod', () => {
    const light = inTier('e2e').filter((file) => why(startsProcesses, file).length === 0)
    expect(light, 'these start nothing: move them to test/integration/ or test/unit/').to.deep.equal([])
  })

  it('see a socket, a wait and a process where there is one', () => {
    expect(why(usesSocketsOrTime, 'test/integration/adapters/mongodb/slow-database.test.ts')).to.have.length.above(0)
    expect(why(usesSocketsOrTime, 'test/integration/adapters/http/routes/create-plant.test.ts')).to.have.length.above(0)
    expect(why(startsProcesses, 'test/e2e/service.test.ts')).to.have.length.above(0)
    expect(why(usesSocketsOrTime, 'test/unit/core/create-plant.test.ts')).to.deep.equal([])
  })
})
