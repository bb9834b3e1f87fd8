import { expect } from 'chai'
import * as fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { loadConfig } from '../../../../apps/server/config.js'
import { expectRight } from '../../../support/either.js'

const TOKEN = 'guard-rail-token-0123456789'
const MONGODB_URI = 'mongodb://127.0.0.1:27017/'
const JWT = { JWT_SECRET: 'a shared secret of at least 32 bytes', JWT_ISSUER: 'https://issuer.example', JWT_AUDIENCE: 'plant-store' }

const refusal = (env: Record<string, string>): ReadonlyArray<string> => {
  const result = loadConfig(env)
  if (E.isRight(result)) expect.fail(`expected the configuration to be refused: ${JSON.stringify(env)}`)
  return result.left
}

describe('the configuration under NODE_ENV=production', function () {
  const production = { NODE_ENV: 'production' }

  it('refuses in-memory storage, naming MONGODB_URI, why, and the variable that allows it', function () {
    const [message, ...others] = refusal({ ...production, PLANT_STORE_TOKENS: TOKEN })
    expect(others).to.deep.equal([])
    expect(message).to.match(/^MONGODB_URI: expected with NODE_ENV=production/)
    expect(message).to.include('lost when the process stops')
    expect(message).to.include('ALLOW_IN_MEMORY_STORAGE=on')
  })

  it('refuses a generated token, naming PLANT_STORE_TOKENS and JWT_*, why, and the variable that allows it', function () {
    const [message, ...others] = refusal({ ...production, MONGODB_URI })
    expect(others).to.deep.equal([])
    expect(message).to.match(/^PLANT_STORE_TOKENS: expected with NODE_ENV=production, or JWT_\*/)
    expect(message).to.include('generates at each start')
    expect(message).to.include('ALLOW_GENERATED_TOKEN=on')
  })

  it('names both when both are missing', function () {
    expect(refusal(production).map((message) => message.split(':')[0])).to.deep.equal(['MONGODB_URI', 'PLANT_STORE_TOKENS'])
  })

  it('starts on MongoDB with static tokens, or with JWT settings', function () {
    expectRight(loadConfig({ ...production, MONGODB_URI, PLANT_STORE_TOKENS: TOKEN }))
    expectRight(loadConfig({ ...production, MONGODB_URI, ...JWT }))
  })

  it('takes in-memory storage and a generated token when asked for them on purpose', function () {
    const config = expectRight(loadConfig({ ...production, ALLOW_IN_MEMORY_STORAGE: 'on', ALLOW_GENERATED_TOKEN: 'on' }))
    expect(config.storage._tag).to.equal('InMemory')
    expect(config.tokens).to.equal(undefined)
    expect(config.jwt).to.equal(undefined)
  })

  it('reads the ALLOW_ switches as every switch is read: on or off, anything else refused by name', function () {
    expect(refusal({ ...production, ALLOW_IN_MEMORY_STORAGE: 'off', PLANT_STORE_TOKENS: TOKEN })[0]).to.match(/^MONGODB_URI:/)
    expect(refusal({ ALLOW_GENERATED_TOKEN: 'yes' })).to.deep.equal(['ALLOW_GENERATED_TOKEN: expected on or off'])
  })

  it('changes nothing outside production: the configuration is the same as with NODE_ENV unset', function () {
    for (const NODE_ENV of ['development', 'test', '']) {
      expect(expectRight(loadConfig({ NODE_ENV })), NODE_ENV).to.deep.equal(expectRight(loadConfig({})))
    }
  })

  // The rule: NODE_ENV is production, development or test, exactly as written, or unset; any
  // other name is refused by name, with the one it probably stands for when there is one, since
  // read as development it would start a production service on in-memory storage.
  it('refuses any other NODE_ENV, naming the variable, and the name it probably stands for', function () {
    const EXPECTED = 'NODE_ENV: expected production, development or test, exactly as written'
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((text) => !['production', 'development', 'test'].includes(text)),
        (text) => {
          const [message, ...others] = refusal({ NODE_ENV: text, PLANT_STORE_TOKENS: TOKEN })
          expect(others).to.deep.equal([])
          expect(message?.startsWith(EXPECTED), message).to.equal(true)
        },
      ),
    )
    for (const [written, meant] of [
      ['Production', 'production'],
      ['PRODUCTION', 'production'],
      ['prod', 'production'],
      ['production-eu', 'production'],
      ['Dev', 'development'],
      ['TEST', 'test'],
    ] as const) {
      expect(refusal({ NODE_ENV: written }), written).to.deep.equal([`${EXPECTED} (${meant}, probably)`])
    }
    expect(refusal({ NODE_ENV: 'staging' })).to.deep.equal([EXPECTED])
  })
})
