import { readFileSync } from 'node:fs'
import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import type { HeaderObject, ReferenceObject } from 'openapi3-ts/oas31'
import { DEFAULT_BODY_LIMIT_BYTES, DEFAULT_READINESS_MAX_AGE_MS, openApiDocument } from '../../../adapters/http/index.js'
import { loadConfig } from '../../../apps/server/config.js'
import { connectionCapWithin } from '../../../apps/server/open-files.js'
import { plantStoreContract } from '../../../testing/index.js'
import { expectRight } from '../../support/either.js'

// A size, a duration or a count the README states is derived here from the code that decides it,
// so the two cannot drift: each figure is read from the README's own sentence (a reworded sentence
// fails until its figure is read again), then compared with what the code does. The defaults of
// the Configuration table are held apart (test/unit/apps/server/readme-defaults.test.ts); figures
// no code decides (how long a build or a test run takes) are measurements, in docs/performance.md.
const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8')

/** The captures of the one place the README says this, as numbers. */
const figures = (pattern: RegExp): ReadonlyArray<number> => {
  const match = pattern.exec(README)
  if (match === null) return expect.fail(`the README no longer says ${String(pattern)}`)
  return match.slice(1).map((figure) => Number((figure ?? '').replaceAll(',', '')))
}

const KIB = 1024
const MIB = 1024 * KIB

/** The variables a refusal names: each message starts with its variable. */
const refusedNames = (env: Readonly<Record<string, string>>): ReadonlyArray<string> => {
  const config = loadConfig(env)
  return E.isLeft(config) ? config.left.map((message) => message.slice(0, message.indexOf(':'))) : []
}

/** The Configuration table's rows, as a variable and its "what" cell. */
const configurationRows = (): ReadonlyArray<readonly [string, string]> =>
  README.split('\n')
    .filter((line) => /^\| `[A-Z_]+` \|/.test(line))
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .map(([, name = '', , what = '']) => [name.replaceAll('`', ''), what] as const)

// A bound of one variable is tried alone; these are the values of the variables it is tied to,
// set so that only its own bound can refuse it.
const BESIDE: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  HEADERS_TIMEOUT_MS: { REQUEST_TIMEOUT_MS: '600000' },
  REQUEST_TIMEOUT_MS: { HEADERS_TIMEOUT_MS: '100' },
}

describe("the README's figures", function () {
  describe('the Configuration table', function () {
    const ranged = configurationRows().flatMap(([name, what]) => {
      const range = /\((\d+) to (\d+)\b/.exec(what)
      return range === null ? [] : [{ name, low: Number(range[1]), high: Number(range[2]) }]
    })

    it('gives a range to the numbers it states one for', function () {
      expect(ranged.map(({ name }) => name)).to.include.members(['MONGODB_TIMEOUT_MS', 'HEADERS_TIMEOUT_MS', 'MAX_CONNECTIONS', 'SHUTDOWN_DRAIN_MS', 'IN_MEMORY_MAX_PLANTS'])
    })

    for (const { name, low, high } of ranged) {
      it(`${name}: from ${low} to ${high}, as the service reads it`, function () {
        const beside = BESIDE[name] ?? {}
        for (const value of [low, high]) expect(refusedNames({ ...beside, [name]: String(value) }), `${name}=${value}`).to.deep.equal([])
        for (const value of [low - 1, high + 1]) expect(refusedNames({ ...beside, [name]: String(value) }), `${name}=${value}`).to.deep.equal([name])
      })
    }

    it('BODY_LIMIT: its least and most, and its most with MONGODB_URI', function () {
      const [low = 0, highMiB = 0, mongoMiB = 0, lessKiB = 0] = figures(/`BODY_LIMIT`.*?; (\d+) B to (\d+) MiB, and with `MONGODB_URI` at most (\d+) MiB less (\d+) KiB/)
      for (const bytes of [low, highMiB * MIB]) expect(refusedNames({ BODY_LIMIT: String(bytes) }), `${bytes}`).to.deep.equal([])
      for (const bytes of [low - 1, highMiB * MIB + 1]) expect(refusedNames({ BODY_LIMIT: String(bytes) }), `${bytes}`).to.deep.equal(['BODY_LIMIT'])
      const mongo = { MONGODB_URI: 'mongodb://127.0.0.1:27017/' }
      const most = mongoMiB * MIB - lessKiB * KIB
      expect(refusedNames({ ...mongo, BODY_LIMIT: String(most) })).to.deep.equal([])
      expect(refusedNames({ ...mongo, BODY_LIMIT: String(most + 1) })).to.deep.equal(['BODY_LIMIT'])
    })

    it('PLANT_STORE_TOKENS: the fewest characters of a token', function () {
      const [least = 0] = figures(/`PLANT_STORE_TOKENS`.*?each at least (\d+) characters/)
      expect(refusedNames({ PLANT_STORE_TOKENS: 'a'.repeat(least) })).to.deep.equal([])
      expect(refusedNames({ PLANT_STORE_TOKENS: 'a'.repeat(least - 1) })).to.deep.equal(['PLANT_STORE_TOKENS'])
    })

    it('IN_MEMORY_MAX_PLANTS: the bytes that follow from the plants', function () {
      const [mib = 0, plants = 0] = figures(/`IN_MEMORY_MAX_PLANTS`.*?\((\d+) MiB per ([\d,]+) plants\)/)
      for (const scale of [1, 4, 1 / 4]) {
        const storage = expectRight(loadConfig({ IN_MEMORY_MAX_PLANTS: String(plants * scale) })).storage
        expect(storage, `${plants * scale} plants`).to.deep.equal({ _tag: 'InMemory', limits: { maxPlants: plants * scale, maxBytes: mib * MIB * scale } })
      }
    })

    it('MAX_CONNECTIONS: the files kept beside the connections within the open-files limit', function () {
      const [reserved = 0] = figures(/`MAX_CONNECTIONS`.*?lowered at start to the open-files limit less (\d+)/)
      expect(connectionCapWithin(1000, 1000).maxConnections).to.equal(1000 - reserved)
      expect(connectionCapWithin(1000 - reserved, 1000)).to.deep.equal({ maxConnections: 1000 - reserved })
    })
  })

  it("gives a container's stop the default drain and grace", function () {
    const [seconds = 0] = figures(/Give the stop more than drain and grace \((\d+) s by default\)/)
    const { drainMs, graceMs } = expectRight(loadConfig({})).shutdown
    expect(seconds * 1000).to.equal(drainMs + graceMs)
  })

  it("states the library's default body limit, the service's BODY_LIMIT", function () {
    const [stated = 0] = figures(/`bodyLimitBytes` (\d+) KiB \(the service's `BODY_LIMIT`\)/)
    const [commented = 0] = figures(/createHttpApp\(\{ plantStore, authenticator \}\) \/\/ POST \/plants, (\d+) KiB bodies/)
    expect(DEFAULT_BODY_LIMIT_BYTES).to.equal(stated * KIB)
    expect(commented).to.equal(stated)
    expect(expectRight(loadConfig({})).bodyLimitBytes).to.equal(DEFAULT_BODY_LIMIT_BYTES)
  })

  it("states the service's JSON bounds: a number's length, the depth", function () {
    const [numberLength = 0, depth = 0] = figures(/a number longer than (\d+) characters or nests deeper than (\d+) levels/)
    expect(expectRight(loadConfig({})).jsonLimits).to.deep.equal({ maxNumberLength: numberLength, maxDepth: depth })
  })

  // The OpenAPI document lists, as its examples, every Retry-After the answers of a status give.
  it('states the Retry-After of a 503 for storage or the identity provider out of reach', function () {
    const [seconds = 0] = figures(/^\| 503 \| storage, or the identity provider's key set, unreachable or too slow \| `Retry-After: (\d+)` \|$/m)
    const document = openApiDocument('', { bodyLimitBytes: DEFAULT_BODY_LIMIT_BYTES })
    const { $ref = '' } = (document.paths['/plants']?.post?.responses?.['503'] ?? {}) as Partial<ReferenceObject>
    const answer = document.components.responses[$ref.slice($ref.lastIndexOf('/') + 1)]
    expect(Object.keys(answer?.content?.['application/json']?.examples ?? {})).to.include.members(['StorageUnavailable', 'AuthenticationUnavailable'])
    const retryAfter = answer?.headers?.['Retry-After'] as HeaderObject | undefined
    expect(retryAfter?.schema).to.deep.include({ examples: [seconds] })
  })

  it('asks storage for /readyz at most once a second', function () {
    expect(README).to.match(/`GET \/readyz` .*storage is asked at most once a second \|/)
    expect(DEFAULT_READINESS_MAX_AGE_MS).to.equal(1000)
  })

  it("quotes the storage contract's one-winner rule with its number of concurrent inserts", function () {
    const [contenders = 0] = figures(/`plant-store\/one-winner broken: (\d+) concurrent inserts of\s+one id answer exactly one Inserted/)
    const suite = plantStoreContract('README', () => Promise.reject(new Error('no case runs here')))
    const oneWinner = suite.cases.find(({ rule }) => rule === 'plant-store/one-winner')
    expect(oneWinner?.name).to.equal(`lets exactly one of ${contenders} concurrent inserts of one id win`)
  })
})
