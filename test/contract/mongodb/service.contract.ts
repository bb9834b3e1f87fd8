import { expect } from 'chai'
import { Long, type Document } from 'mongodb'
import { loadConfig } from '../../../apps/server/config.js'
import { startService, type RunningService } from '../../../apps/server/service.js'
import { expectRight } from '../../support/either.js'
import { makeMemoryLogger, postPlant, TOKEN } from '../../support/http-app.js'
import { checkTrafficOf, forgetTrafficOf } from '../../support/traffic-check.js'
import { expectErrorDocument, expectPlant } from '../../support/responses.js'
import { freshDbName } from '../../support/mongodb/support.js'

/** A MongoDB deployment for the service to run on, and a way to look at what it stored. */
export interface ServiceBackend {
  /** The connection string for MONGODB_URI; may call `this.skip()` when there is none. */
  readonly uri: (this: Mocha.Context) => string
  /** The documents of a database's `plants` collection, int64 values as Long. */
  readonly documents: (uri: string, dbName: string) => Promise<Document[]>
}

/** Starts the whole service, as `npm start` composes it, with MONGODB_URI and MONGODB_DB set. */
export const startServiceOn = async (uri: string, dbName: string, env: Readonly<Record<string, string>> = {}): Promise<RunningService> => {
  const config = expectRight(
    loadConfig({ PORT: '0', HOST: '127.0.0.1', PLANT_STORE_TOKENS: TOKEN, MONGODB_URI: uri, MONGODB_DB: dbName, SHUTDOWN_DRAIN_MS: '0', ...env }),
  )
  const service = expectRight(await startService(config, makeMemoryLogger()))
  // Every answer a test gets from it is checked against the OpenAPI document it serves.
  await checkTrafficOf(service.url)
  return {
    ...service,
    close: async () => {
      forgetTrafficOf(service.url)
      await service.close()
    },
  }
}

const byId = (a: Document, b: Document): number => (a._id as Long).compare(b._id as Long)

/**
 * The rows of the service's contract (docs/http-api.md) that reach storage, through the whole service (HTTP, use case, MongoDB
 * adapter) on a MongoDB deployment, with what ends up stored.
 */
export const serviceContract = (label: string, backend: ServiceBackend): void => {
  describe(`the service on MongoDB: ${label}`, function () {
    let uri: string
    let dbName: string
    let url: string
    const services: RunningService[] = []
    const startOnBackend = async (): Promise<RunningService> => {
      const service = await startServiceOn(uri, dbName)
      services.push(service)
      return service
    }
    const stored = async () => (await backend.documents(uri, dbName)).sort(byId)
    const readyz = (at: string) => fetch(`${at}/readyz`)

    beforeEach(async function () {
      uri = backend.uri.call(this)
      dbName = freshDbName('service')
      url = (await startOnBackend()).url
    })
    afterEach(async function () {
      await Promise.all(services.splice(0).map((service) => service.close()))
    })

    it('answers 200 with exactly name and tag, and stores {_id: int64, name, tag}', async function () {
      await expectPlant(await postPlant(url, '{"id":1,"name":"Monstera","tag":"aroid","colour":"green"}'), {
        name: 'Monstera',
        tag: 'aroid',
      })
      expect(await stored()).to.deep.equal([{ _id: Long.fromBigInt(1n), name: 'Monstera', tag: 'aroid' }])
    })

    it('answers a replay with the stored plant, another plant under the id with 409, and keeps the first', async function () {
      const body = '{"id":7,"name":"Aloe","tag":"succulent"}'
      await expectPlant(await postPlant(url, body), { name: 'Aloe', tag: 'succulent' })
      await expectPlant(await postPlant(url, body), { name: 'Aloe', tag: 'succulent' })
      await expectErrorDocument(await postPlant(url, '{"id":7,"name":"Aloe"}'), 409)
      await expectErrorDocument(await postPlant(url, '{"id":7,"name":"Agave","tag":"succulent"}'), 409)
      expect(await stored()).to.deep.equal([{ _id: Long.fromBigInt(7n), name: 'Aloe', tag: 'succulent' }])
    })

    it('keeps ids exact: 2^53 and 2^53 + 1 are two plants, and both ends of int64 are stored', async function () {
      for (const [id, name] of [
        ['9007199254740992', 'even'],
        ['9007199254740993', 'odd'],
        ['-9223372036854775808', 'min'],
        ['9223372036854775807', 'max'],
      ]) {
        await expectPlant(await postPlant(url, `{"id":${id},"name":"${name}"}`), { name: name ?? '' })
      }
      expect((await stored()).map((document) => String(document._id))).to.deep.equal([
        '-9223372036854775808',
        '9007199254740992',
        '9007199254740993',
        '9223372036854775807',
      ])
      await expectErrorDocument(await postPlant(url, '{"id":9007199254740993,"name":"even"}'), 409)
    })

    it('stores and answers Unicode exactly as sent', async function () {
      const name = 'Ficus \u{1F331} cafe\u0301 \u0000'
      await expectPlant(await postPlant(url, JSON.stringify({ id: 4, name, tag: '\u{10FFFF}' })), {
        name,
        tag: '\u{10FFFF}',
      })
      expect(await stored()).to.deep.equal([{ _id: Long.fromBigInt(4n), name, tag: '\u{10FFFF}' }])
    })

    it('refuses what the contract refuses without storing anything', async function () {
      const refusals: Array<[Promise<Response>, number]> = [
        [postPlant(url, '{"id":1,"name":"x"}', { Authorization: '' }), 401],
        [postPlant(url, '{"id":1,"name":"x"}', { Authorization: 'Bearer unknown-token-0123456789' }), 401],
        [postPlant(url, '{"id":1,"name":"x"}', { 'Content-Type': 'text/plain' }), 415],
        [postPlant(url, JSON.stringify({ id: 1, name: 'x'.repeat(70 * 1024) })), 413],
        [postPlant(url, '{"id":1,'), 400],
        [postPlant(url, '{"id":9223372036854775808,"name":"x"}'), 400],
        [postPlant(url, '{"id":1,"name":"x","tag":null}'), 400],
        [postPlant(url, '{"id":1,"name":"\\ud800"}'), 400],
      ]
      for (const [response, status] of refusals) await expectErrorDocument(await response, status)
      expect(await stored()).to.deep.equal([])
    })

    it('answers /readyz 200 while MongoDB answers', async function () {
      expect((await readyz(url)).status).to.equal(200)
    })

    it('two instances creating the same ids at once store exactly one plant per id', async function () {
      const [first, second] = [await startOnBackend(), await startOnBackend()]
      const ids = Array.from({ length: 15 }, (_, i) => 9007199254740985n + BigInt(i)).map(String)
      const responses = await Promise.all(
        ids.flatMap((id) => [
          postPlant(first.url, `{"id":${id},"name":"first"}`),
          postPlant(second.url, `{"id":${id},"name":"second"}`),
        ]),
      )
      const statuses = responses.map((response) => response.status)
      for (const [index, id] of ids.entries()) {
        expect([statuses[2 * index], statuses[2 * index + 1]].sort(), `id ${id}`).to.deep.equal([200, 409])
      }
      const winners = await Promise.all(
        responses.map(async (response) => (response.status === 200 ? ((await response.json()) as { name: string }).name : undefined)),
      )
      const documents = await stored()
      expect(documents).to.have.length(ids.length)
      for (const [index, id] of ids.entries()) {
        const document = documents.find((d) => String(d._id) === id)
        expect(document?.name, `id ${id}`).to.equal(winners[2 * index] ?? winners[2 * index + 1])
      }
    })
  })
}
