import { expect } from 'chai'
import {
  authenticatorContract as suite,
  registerContract,
  tokenPiecesOf,
  type AuthenticatorFixture,
  type AuthenticatorFixtureFactory,
} from '../../testing/index.js'
import { startTestApp } from '../support/http-app.js'
import { mochaRunner } from './mocha-runner.js'

export type { AuthenticatorFixture } from '../../testing/index.js'

/**
 * The kit's authenticator contract (plant-store/testing), run by mocha, and one rule that needs
 * the HTTP adapter beside it: no token reaches a log line.
 */
export const authenticatorContract = (label: string, fixture: AuthenticatorFixtureFactory): void => {
  registerContract(mochaRunner, suite(label, fixture))

  describe(`Authenticator, through the HTTP adapter: ${label}`, function () {
    let current: AuthenticatorFixture | undefined
    beforeEach(async function () {
      current = await fixture()
    })
    afterEach(async function () {
      await current?.release()
      current = undefined
    })

    it('never lets the token reach a log line, whether accepted or refused', async function () {
      if (current === undefined) return expect.fail('the fixture did not start')
      const app = await startTestApp({ authenticator: current.authenticator })
      try {
        const sent = [...current.known.map((k) => k.token), ...current.unknown]
        for (const token of sent) {
          const response = await fetch(`${app.url}/plants`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
            body: '{"id":1,"name":"Fern"}',
          })
          await response.arrayBuffer()
        }
        expect(app.log.lines.length, 'one log line per request').to.be.at.least(sent.length)
        const logged = JSON.stringify(app.log.lines)
        for (const piece of sent.flatMap(tokenPiecesOf)) expect(logged).not.to.include(piece)
      } finally {
        await app.close()
      }
    })
  })
}
