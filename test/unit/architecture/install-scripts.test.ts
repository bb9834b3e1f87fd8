import { expect } from 'chai'
import { existsSync, readdirSync, readFileSync } from 'node:fs'

// npm 11 warns at every install about a locked package whose install script package.json's
// allowScripts does not decide, and npm 12 does not run it: each one is decided, on purpose, in
// the project's manifest and in each tool group's (bench/ and the folders of tools/, installed by
// scripts/install-tools.mjs rather than by the project's `npm ci`).
const ROOT = new URL('../../../', import.meta.url)
const read = (file: string): unknown => JSON.parse(readFileSync(new URL(file, ROOT), 'utf8'))

interface Manifest {
  readonly dependencies?: Record<string, string>
  readonly devDependencies?: Record<string, string>
  readonly allowScripts?: Record<string, boolean>
}
type Locked = Record<string, { readonly hasInstallScript?: boolean }>

const TOOL_GROUPS = [
  'bench',
  ...readdirSync(new URL('tools/', ROOT), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `tools/${entry.name}`),
].filter((folder) => existsSync(new URL(`${folder}/package-lock.json`, ROOT)))

const manifestOf = (folder: string) => read(`${folder}/package.json`) as Manifest
const lockedOf = (folder: string) => (read(`${folder}/package-lock.json`) as { packages: Locked }).packages
const nameOf = (path: string) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)
const lockedNames = (folder: string) => new Set(Object.keys(lockedOf(folder)).filter((path) => path !== '').map(nameOf))

describe('the install scripts of the locked packages', function () {
  for (const folder of ['.', ...TOOL_GROUPS]) {
    it(`are each approved or denied in ${folder === '.' ? '' : `${folder}/`}package.json`, function () {
      const { allowScripts = {} } = manifestOf(folder)
      const withScripts = Object.entries(lockedOf(folder))
        .filter(([path, { hasInstallScript }]) => path !== '' && hasInstallScript === true)
        .map(([path]) => nameOf(path))
      expect(withScripts.filter((name) => !(name in allowScripts)), 'undecided').to.deep.equal([])
    })
  }

  it('deny telemetry wherever it is locked, and the mongod download the tests make themselves when they can', function () {
    const { allowScripts = {} } = manifestOf('.')
    expect(allowScripts).to.include({ 'mongodb-memory-server': false })
    const telemetry = ['.', ...TOOL_GROUPS].filter((folder) => lockedNames(folder).has('@scarf/scarf'))
    expect(telemetry).to.include('tools/linters')
    for (const folder of telemetry) expect(manifestOf(folder).allowScripts, folder).to.include({ '@scarf/scarf': false })
  })
})

describe("the project's own install (npm ci)", function () {
  const heavy = ['fastify', 'express', 'autocannon', 'playwright-core', '@redocly/cli', '@stoplight/spectral-cli', '@action-validator/cli', 'typedoc', '@arethetypeswrong/cli', 'publint']

  it('leaves the heavy tools to the installs of their groups', function () {
    const grouped = new Set(TOOL_GROUPS.flatMap((folder) => Object.keys(manifestOf(folder).dependencies ?? {})))
    expect(heavy.filter((name) => !grouped.has(name)), 'in no tool group').to.deep.equal([])
    expect(heavy.filter((name) => lockedNames('.').has(name)), "in the project's lockfile").to.deep.equal([])
  })

  it("holds none of a tool group's own packages but TypeScript, whose range TypeDoc's group repeats", function () {
    const project = lockedNames('.')
    const both = TOOL_GROUPS.flatMap((folder) =>
      Object.keys(manifestOf(folder).dependencies ?? {})
        .filter((name) => project.has(name))
        .map((name) => `${folder}: ${name}`),
    )
    expect(both).to.deep.equal(['tools/api-docs: typescript'])
    expect(manifestOf('tools/api-docs').dependencies?.['typescript']).to.equal(manifestOf('.').devDependencies?.['typescript'])
  })
})
