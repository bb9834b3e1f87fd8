import { readFileSync } from 'node:fs'
import { expect } from 'chai'
import { loadConfig, SERVICE_VARIABLES } from '../../../../apps/server/config.js'
import { expectRight } from '../../../support/either.js'

// The README states each variable's default once: in its Configuration table, and for the JWT_
// variables in the table of docs/jwt.md ("default N"). Setting a variable to its documented default must
// change nothing in the configuration the service reads, so a default changed in the code (or in
// an adapter whose constant the service takes) and not in the README, or the other way round,
// fails here.
const README = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8')
const page = (name: string): string => readFileSync(new URL(`../../../../docs/${name}`, import.meta.url), 'utf8')

const section = (heading: string): string => {
  const start = README.indexOf(`\n## ${heading}\n`)
  if (start < 0) expect.fail(`the README has no section "## ${heading}"`)
  const end = README.indexOf('\n## ', start + 1)
  return README.slice(start, end < 0 ? undefined : end)
}

/** The rows of the Markdown tables of a section whose first cell is a `VARIABLE`, as cells. */
const variableRows = (text: string): ReadonlyArray<ReadonlyArray<string>> =>
  text
    .split('\n')
    .filter((line) => /^\| `[A-Z_*]+` \|/.test(line))
    .map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()))

const nameOf = (cell: string): string => cell.replace(/`/g, '')

/** A documented default: a value to set, or none (the variable is then optional). */
type Documented = { readonly name: string; readonly value: string | undefined }

const configurationDefaults: ReadonlyArray<Documented> = variableRows(section('Configuration')).map(([name = '', cell = '']) => ({
  name: nameOf(name),
  value: /^`([^`]*)`/.exec(cell)?.[1] ?? (cell === 'empty' ? '' : undefined),
}))

const jwtDefaults: ReadonlyArray<Documented> = variableRows(page('jwt.md')).map(([name = '', meaning = '']) => ({
  name: nameOf(name),
  value: /\bdefault (\d+)\b/.exec(meaning)?.[1],
}))

const JWT = { JWT_SECRET: 'a shared secret of at least 32 bytes', JWT_ISSUER: 'https://issuer.example', JWT_AUDIENCE: 'plant-store' }
// Each variable is read under each base where it has an effect: in-memory or MongoDB storage,
// with or without a metrics listener, with JWT configured for the JWT_ variables.
const BASES: ReadonlyArray<Readonly<Record<string, string>>> = [{}, { MONGODB_URI: 'mongodb://127.0.0.1:27017/' }, { METRICS_PORT: '9464' }]

describe('the README and docs/ state the defaults the code has', function () {
  it('documents every variable the service reads, in the Configuration or the JWT table', function () {
    const documented = [...configurationDefaults, ...jwtDefaults].map(({ name }) => name).filter((name) => name !== 'JWT_*')
    expect([...documented].sort()).to.deep.equal([...SERVICE_VARIABLES].sort())
    expect(configurationDefaults.map(({ name }) => name)).to.include('JWT_*')
  })

  for (const { name, value } of configurationDefaults.filter(({ name }) => name !== 'JWT_*')) {
    it(`${name}: set to its documented default (${value === undefined ? 'none' : JSON.stringify(value)}), the configuration is as when it is unset`, function () {
      for (const base of BASES) {
        const unset = expectRight(loadConfig(base))
        if (value !== undefined) expect(expectRight(loadConfig({ ...base, [name]: value })), JSON.stringify(base)).to.deep.equal(unset)
      }
    })
  }

  for (const { name, value } of jwtDefaults.filter(({ value }) => value !== undefined)) {
    it(`${name}: set to its documented default (${value}), the configuration is as when it is unset`, function () {
      const unset = expectRight(loadConfig(JWT))
      expect(expectRight(loadConfig({ ...JWT, [name]: value as string }))).to.deep.equal(unset)
    })
  }

  it('names only documented variables in the limits table, and no default there', function () {
    const limits = page('limits.md')
    const table = limits.split('\n').filter((line) => line.startsWith('| '))
    expect(table[0]).to.equal('| bound | set by | when it is reached |')
    const named = new Set([...limits.matchAll(/`([A-Z][A-Z_]+)`/g)].map(([, name]) => name))
    for (const name of named) expect(SERVICE_VARIABLES, name).to.include(name)
  })
})
