import { expect } from 'chai'
import { helpText } from '../../../../apps/server/command-line.js'
import { loadConfig, SERVICE_SETTINGS } from '../../../../apps/server/config.js'
import { expectRight } from '../../../support/either.js'

// `--help` states each variable's default from the codec the configuration decodes it with, in
// words a person reads one way: "default X", "default empty" or "default none". Set to the value
// its line states, a variable must configure the service as when it is unset.
const HELP = helpText('0.0.0', SERVICE_SETTINGS)
const lineOf = (name: string): string => HELP.split('\n').find((line) => new RegExp(`^ {2}${name} `).test(line)) ?? expect.fail(`no line for ${name}`)
const statedDefault = (name: string): string | undefined => {
  const stated = /^ {2}[A-Z0-9_]+ +default (.*?): /.exec(lineOf(name))?.[1] ?? expect.fail(`${name}: no default stated`)
  return stated === 'none' ? undefined : stated === 'empty' ? '' : stated.split(' ')[0]
}

const JWT = { JWT_SECRET: 'a shared secret of at least 32 bytes', JWT_ISSUER: 'https://issuer.example', JWT_AUDIENCE: 'plant-store' }
const BASES: ReadonlyArray<Readonly<Record<string, string>>> = [{}, { MONGODB_URI: 'mongodb://127.0.0.1:27017/' }, JWT]

describe('--help', function () {
  it('says of NODE_ENV that unset is development, and of SHUTDOWN_GRACE_MS the 10000 it takes', function () {
    expect(lineOf('NODE_ENV')).to.match(/ default development: production, development or test$/)
    expect(lineOf('SHUTDOWN_GRACE_MS')).to.match(/ default 10000 \(MONGODB_TIMEOUT_MS with MONGODB_URI, when longer\): /)
  })

  for (const name of Object.keys(SERVICE_SETTINGS)) {
    it(`${name}: set to the default its line states, configures the service as when it is unset`, function () {
      const value = statedDefault(name)
      // A JWT_ variable has an effect only where JWT authentication is configured.
      for (const base of name.startsWith('JWT_') ? [JWT] : BASES) {
        if (value === undefined || name in base) continue
        expect(expectRight(loadConfig({ ...base, [name]: value })), JSON.stringify(base)).to.deep.equal(expectRight(loadConfig(base)))
      }
    })
  }
})
