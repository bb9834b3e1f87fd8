import { expect } from 'chai'
import { makeInMemoryPlantStore } from '../../../adapters/in-memory/index.js'
import {
  authenticatorContract,
  brokenAuthenticators,
  brokenPlantStores,
  correctAuthenticator,
  correctMapStore,
  plantStoreContract,
  registerContract,
  runContract,
  type CaseOutcome,
} from '../../../testing/index.js'

// The kit is only worth shipping if it catches what it claims to: each broken adapter fails the
// rule it breaks, with a message that names it, and correct adapters pass every rule.

const failures = (outcomes: ReadonlyArray<CaseOutcome>) => outcomes.filter((o) => o.outcome === 'failed')

describe('plant-store/testing catches broken adapters', function () {
  this.timeout(20_000)

  it('passes a correct store on every rule, the unavailability rule included', async function () {
    const outcomes = await runContract(plantStoreContract('a correct Map store', correctMapStore))
    expect(outcomes.map((o) => `${o.rule}: ${o.outcome}`)).to.deep.equal(outcomes.map((o) => `${o.rule}: passed`))
  })

  it('passes the in-memory adapter, and says why the unavailability rule cannot run on it', async function () {
    const outcomes = await runContract(plantStoreContract('in-memory', async () => ({ store: makeInMemoryPlantStore(), release: async () => undefined })))
    expect(failures(outcomes)).to.deep.equal([])
    expect(outcomes.filter((o) => o.outcome === 'skipped')).to.deep.equal([
      {
        name: 'answers unavailability as a Left, never a rejection',
        rule: 'plant-store/unavailable-is-a-left',
        outcome: 'skipped',
        reason: 'the fixture gives no cutOff, so storage cannot be cut off',
      },
    ])
  })

  for (const [name, { breaks, fixture }] of Object.entries(brokenPlantStores)) {
    it(`fails the store ${name} on ${breaks}, and its message names the rule`, async function () {
      const failed = failures(await runContract(plantStoreContract(name, fixture)))
      const rules = failed.map((f) => f.rule)
      expect(rules).to.include(breaks)
      const message = failed.find((f) => f.rule === breaks)
      expect(message?.outcome === 'failed' && message.message).to.match(new RegExp(`^${breaks} broken: `))
    })
  }

  it('passes a correct authenticator on every rule', async function () {
    expect(failures(await runContract(authenticatorContract('a correct authenticator', correctAuthenticator)))).to.deep.equal([])
  })

  for (const [name, { breaks, fixture }] of Object.entries(brokenAuthenticators)) {
    it(`fails the authenticator ${name} on ${breaks}, and its message names the rule`, async function () {
      const failed = failures(await runContract(authenticatorContract(name, fixture)))
      expect(failed.map((f) => f.rule)).to.deep.equal([breaks])
      expect(failed[0]?.outcome === 'failed' && failed[0].message).to.match(new RegExp(`^${breaks} broken: `))
    })
  }

  it('registers one test per case with any runner, and hands a case that cannot run to its skip', async function () {
    const registered: Array<{ name: string; test: () => Promise<void> }> = []
    const skipped: string[] = []
    const groups: string[] = []
    registerContract(
      {
        describe: (name, body) => {
          groups.push(name)
          body()
        },
        it: (name, test) => registered.push({ name, test }),
        skip: (reason) => skipped.push(reason),
      },
      plantStoreContract('in-memory', async () => ({ store: makeInMemoryPlantStore(), release: async () => undefined })),
    )
    expect(groups).to.deep.equal(['PlantStore contract: in-memory'])
    expect(registered).to.have.length(7)
    for (const { test } of registered) await test()
    expect(skipped).to.deep.equal(['the fixture gives no cutOff, so storage cannot be cut off'])
  })

  it('fails a case that cannot run when the runner has no skip, so nothing passes unnoticed', async function () {
    const registered: Array<() => Promise<void>> = []
    registerContract(
      { describe: (_name, body) => body(), it: (_name, test) => registered.push(test) },
      plantStoreContract('in-memory', async () => ({ store: makeInMemoryPlantStore(), release: async () => undefined })),
    )
    const last = registered.at(-1) as () => Promise<void>
    let error: unknown
    await last().catch((e: unknown) => (error = e))
    expect(String(error)).to.include('storage cannot be cut off')
  })
})
