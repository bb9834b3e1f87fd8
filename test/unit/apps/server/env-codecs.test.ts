import { expect } from 'chai'
import type * as t from 'io-ts'
import * as codecs from '../../../../apps/server/env-codecs.js'
import { expectRight } from '../../../support/either.js'

interface Case {
  readonly name: string
  readonly is: (u: unknown) => boolean
  /** Decodes the case's text, and decodes again what encoding that gives. */
  readonly decoded: () => { readonly first: unknown; readonly again: unknown }
  readonly others: ReadonlyArray<unknown>
}

const entry = <A>(name: string, codec: t.Type<A, string | undefined, unknown>, text: string, others: ReadonlyArray<unknown>): Case => ({
  name,
  is: (u) => codec.is(u),
  decoded: () => {
    const first = expectRight(codec.decode(text))
    return { first, again: expectRight(codec.decode(codec.encode(first))) }
  },
  others,
})

// Each codec with a text it reads and values that are not settings of its kind.
const cases: ReadonlyArray<Case> = [
  entry('Port', codecs.Port, '8080', ['8080', 70_000, -1, 1.5, null]),
  entry('Host', codecs.Host, '::1', ['a host', 42, '']),
  entry('BasePath', codecs.BasePath, '/api/v1', ['/api/', 'api', 7]),
  entry('BearerTokens', codecs.BearerTokens, 'first-token-0123456789', [['short'], 'first-token-0123456789', [1]]),
  entry('Origins', codecs.Origins, 'https://app.example.com', [['https://app.example.com/'], ['*'], 'https://app.example.com']),
  entry('MongoUri', codecs.MongoUri, 'mongodb://127.0.0.1:27017', ['http://127.0.0.1', 27017]),
  entry('MongoDbName', codecs.MongoDbName, 'plant_store', ['plant.store', 'x'.repeat(64), 3]),
  entry('Milliseconds', codecs.Milliseconds, '2500', [99, 600_001, '2500', 2500.5]),
  entry('DelayMilliseconds', codecs.DelayMilliseconds, '0', [-1, 600_001, '0']),
  entry('ConnectionCount', codecs.ConnectionCount, '100', [0, '100']),
  entry('ByteSize', codecs.ByteSize, '64kb', [0, 16 * 1024 ** 2 + 1, '64kb', 1.5]),
  entry('PlantCount', codecs.PlantCount, '500', [0, '500']),
  entry('LogLevel', codecs.LogLevel, 'WARN', ['WARN', 'loud', 1]),
  entry('OnOff', codecs.OnOff, 'off', ['off', 'on', 0]),
]

describe('environment codecs', function () {
  for (const { name, is, decoded, others } of cases) {
    it(`${name}: 'is' answers true for what it decodes and for unset, false for anything else`, function () {
      const { first } = decoded()
      expect(is(first), `${name}.is(${String(first)})`).to.equal(true)
      expect(is(undefined)).to.equal(true)
      for (const other of others) expect(is(other), `${name}.is(${JSON.stringify(other)})`).to.equal(false)
    })

    it(`${name}: writes back the text of what it decodes`, function () {
      const { first, again } = decoded()
      expect(again).to.deep.equal(first)
    })
  }
})
