import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect } from 'chai'
import { parse } from 'yaml'

// `npm run test:fast` runs what .mocharc.fast.yml leaves of the suite. A test that can start a
// process, a browser or a mongod is heavy: it lives in test/e2e/ or is listed in that file's
// ignore. Read from the imports, so the list cannot drift from the tests: a new heavy test fails
// here until it is placed, and a test that no longer starts anything leaves test/e2e/.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const HEAVY_MODULES = /^(node:)?child_process$|^playwright-core$|^mongodb-memory-server$/
const HEAVY_FOLDER = 'test/e2e/**'

const IMPORTS = /^\s*(?:import|export)\s+(?!type\b)[^'"]*?\sfrom\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm

/** The module a file imports at run time (type-only imports are erased) by a relative specifier. */
const resolveLocal = (from: string, specifier: string): string | undefined =>
  [specifier.replace(/\.js$/, '.ts'), specifier].map((candidate) => join(dirname(from), candidate)).find((path) => existsSync(path))

/** The chain of imports from a file to a heavy module, when there is one. */
const heavyChain = (file: string, seen = new Set<string>()): ReadonlyArray<string> | undefined => {
  if (seen.has(file)) return undefined
  seen.add(file)
  for (const match of readFileSync(file, 'utf8').matchAll(IMPORTS)) {
    const specifier = match[1] ?? match[2] ?? match[3] ?? ''
    if (HEAVY_MODULES.test(specifier)) return [specifier]
    const local = specifier.startsWith('.') ? resolveLocal(file, specifier) : undefined
    const chain = local === undefined ? undefined : heavyChain(local, seen)
    if (local !== undefined && chain !== undefined) return [relative(ROOT, local), ...chain]
  }
  return undefined
}

const testFiles = (): ReadonlyArray<string> =>
  readdirSync(join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => `test/${file}`)
    .sort()

type MochaConfig = Record<string, unknown> & { readonly ignore: ReadonlyArray<string> }
const full = JSON.parse(readFileSync(join(ROOT, '.mocharc.json'), 'utf8')) as MochaConfig
const fast = parse(readFileSync(join(ROOT, '.mocharc.fast.yml'), 'utf8')) as MochaConfig
const listed = fast.ignore.filter((entry) => !full.ignore.includes(entry) && entry !== HEAVY_FOLDER)
const inHeavyFolder = (file: string) => file.startsWith('test/e2e/')
const fastFiles = () => testFiles().filter((file) => !inHeavyFolder(file) && !listed.includes(file))

describe('the fast tests (npm run test:fast)', () => {
  it('are run with the settings of .mocharc.json, ignoring test/e2e/ and the files listed', () => {
    const { ignore: fullIgnore, ...settings } = full
    const { ignore: fastIgnore, ...fastSettings } = fast
    expect(fastSettings).to.deep.equal(settings)
    expect(fastIgnore).to.include.members([...fullIgnore, HEAVY_FOLDER])
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts['test:fast']).to.equal('mocha --config .mocharc.fast.yml')
  })

  it('list only test files that exist, each once', () => {
    expect(listed.filter((file) => !testFiles().includes(file)), 'listed but no test file').to.deep.equal([])
    expect(new Set(listed).size).to.equal(listed.length)
    expect(fastFiles().length).to.be.greaterThan(0)
  })

  it('include no test that can start a process, a browser or a mongod', () => {
    const heavy = fastFiles().flatMap((file) => {
      const chain = heavyChain(join(ROOT, file))
      return chain === undefined ? [] : [`${file} > ${chain.join(' > ')}`]
    })
    expect(heavy, 'move these to test/e2e/ or list them in .mocharc.fast.yml').to.deep.equal([])
  })

  it('leave in test/e2e/ only tests that start a process, a browser or a mongod', () => {
    const light = testFiles().filter((file) => inHeavyFolder(file) && heavyChain(join(ROOT, file)) === undefined)
    expect(light, 'these start nothing: test them beside the code they test').to.deep.equal([])
  })
})
