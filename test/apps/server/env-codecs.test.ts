import { expect } from 'chai'
import type * as t from 'io-ts'
import * as codecs from '../../../apps/server/env-codecs.js'
import { expectRight } from '../../support/either.js'

type EnvCodec = t.Type<unknown, string | undefined, unknown>

// Each codec with a text it reads and values that are not settings of its kind.
const cases: ReadonlyArray<readonly [string, EnvCodec, string, ReadonlyArray<unknown>]> = [
  ['Port', codecs.Port, '8080', ['8080', 70_000, -1, 1.5, null]],
  ['Host', codecs.Host, '::1', ['a host', 42, '']],
  ['BasePath', codecs.BasePath, '/api/v1', ['/api/', 'api', 7]],
  ['BearerTokens', codecs.BearerTokens, 'first-token-0123456789', [['short'], 'first-token-0123456789', [1]]],
  ['Origins', codecs.Origins, 'https://app.example.com', [['https://app.example.com/'], ['*'], 'https://app.example.com']],
  ['MongoUri', codecs.MongoUri, 'mongodb://127.0.0.1:27017', ['http://127.0.0.1', 27017]],
  ['MongoDbName', codecs.MongoDbName, 'plant_store', ['plant.store', 'x'.repeat(64), 3]],
  ['Milliseconds', codecs.Milliseconds, '2500', [99, 600_001, '2500', 2500.5]],
  ['DelayMilliseconds', codecs.DelayMilliseconds, '0', [-1, 600_001, '0']],
  ['ConnectionCount', codecs.ConnectionCount, '100', [0, '100']],
  ['ByteSize', codecs.ByteSize, '64kb', [0, 16 * 1024 ** 2 + 1, '64kb', 1.5]],
  ['MemorySize', codecs.MemorySize, '64MiB', [1023, '64MiB']],
  ['PlantCount', codecs.PlantCount, '500', [0, '500']],
  ['LogLevel', codecs.LogLevel, 'WARN', ['WARN', 'loud', 1]],
  ['OnOff', codecs.OnOff, 'off', ['off', 'on', 0]],
]

describe('environment codecs', function () {
  for (const [name, codec, text, others] of cases) {
    it(`${name}: 'is' answers true for what it decodes and for unset, false for anything else`, function () {
      const decoded = expectRight(codec.decode(text))
      expect(codec.is(decoded), `${name}.is(${String(decoded)})`).to.equal(true)
      expect(codec.is(undefined)).to.equal(true)
      for (const other of others) expect(codec.is(other), `${name}.is(${JSON.stringify(other)})`).to.equal(false)
    })

    it(`${name}: writes back the text of what it decodes`, function () {
      const decoded = expectRight(codec.decode(text))
      expect(expectRight(codec.decode(codec.encode(decoded)))).to.deep.equal(decoded)
    })
  }
})
