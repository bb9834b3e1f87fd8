// `node --import tsx bench/create-costs.ts`: what one create costs the process in objects the
// profiles name, counted rather than timed: promises, timers, AbortControllers and abort
// listeners, for a create alone through the MongoDB store, against the driver's own `insertOne`
// with the same durability (w majority, journaled, an int64 `_id`), on the wire peer in a process
// of its own. Counts do not depend on the machine's load; they say where a lone create's cost is.
import { createHook } from 'node:async_hooks'
import { spawn } from 'node:child_process'
import * as E from 'fp-ts/lib/Either.js'
import { MongoClient } from 'mongodb'
import { openMongoPlantStore } from '../adapters/mongodb/index.js'
import { PlantId, PlantName, type NewPlant } from '../core/index.js'

const CREATES = 2000

const startPeer = async (): Promise<{ readonly uri: string; readonly stop: () => void }> => {
  const peer = spawn(process.execPath, ['--import', 'tsx', 'test/support/mongo-peer/main.ts'], { stdio: ['ignore', 'pipe', 'inherit'] })
  let printed = ''
  for await (const chunk of peer.stdout) {
    printed += String(chunk)
    const uri = /mongodb:\/\/\S+/.exec(printed)?.[0]
    if (uri !== undefined) return { uri, stop: () => void peer.kill() }
  }
  throw new Error('the wire peer printed no connection string')
}

interface Counts {
  promises: number
  timers: number
  abortControllers: number
  abortListeners: number
}

const counted = async (work: (index: number) => Promise<unknown>): Promise<Counts> => {
  const counts: Counts = { promises: 0, timers: 0, abortControllers: 0, abortListeners: 0 }
  const hook = createHook({
    init: (_id, type) => {
      if (type === 'PROMISE') counts.promises += 1
      else if (type === 'Timeout') counts.timers += 1
    },
  })
  const Controller = globalThis.AbortController
  const addListener = EventTarget.prototype.addEventListener
  globalThis.AbortController = class extends Controller {
    constructor() {
      super()
      counts.abortControllers += 1
    }
  }
  EventTarget.prototype.addEventListener = function (this: EventTarget, type: string, ...rest: [never, never]) {
    if (type === 'abort' && this instanceof AbortSignal) counts.abortListeners += 1
    return addListener.call(this, type, ...rest)
  } as typeof EventTarget.prototype.addEventListener
  hook.enable()
  try {
    for (let index = 0; index < CREATES; index += 1) await work(index)
  } finally {
    hook.disable()
    globalThis.AbortController = Controller
    EventTarget.prototype.addEventListener = addListener
  }
  return counts
}

const newPlant = (id: number): NewPlant => {
  const plantId = PlantId.decode(BigInt(id))
  const name = PlantName.decode(`Fern ${id}`)
  if (E.isLeft(plantId) || E.isLeft(name)) throw new Error('a plant the codecs refuse')
  return { id: plantId.right, name: name.right }
}

const perCreate = (counts: Counts): Record<keyof Counts, string> =>
  Object.fromEntries(Object.entries(counts).map(([key, value]) => [key, (value / CREATES).toFixed(2)])) as Record<keyof Counts, string>

const peer = await startPeer()
try {
  const opened = openMongoPlantStore({ uri: peer.uri, dbName: 'costs' })
  if (E.isLeft(opened)) throw new Error(opened.left.message)
  const { store, close } = opened.right
  const driver = new MongoClient(peer.uri, { writeConcern: { w: 'majority', journal: true }, useBigInt64: true })
  await driver.connect()
  const reference = driver.db('costs_reference').collection<{ _id: bigint; name: string }>('plants')
  // Warm both: connections open, code compiled.
  for (let index = 0; index < 200; index += 1) {
    await store.insertUnlessExists(newPlant(10_000_000 + index))()
    await reference.insertOne({ _id: BigInt(10_000_000 + index), name: 'warm' })
  }
  const service = await counted((index) => store.insertUnlessExists(newPlant(index + 1))())
  const driverOnly = await counted((index) => reference.insertOne({ _id: BigInt(index + 1), name: `Fern ${index + 1}` }))
  process.stdout.write(
    `${JSON.stringify({ creates: CREATES, store: perCreate(service), insertOne: perCreate(driverOnly), storeMinusInsertOne: perCreate({ promises: service.promises - driverOnly.promises, timers: service.timers - driverOnly.timers, abortControllers: service.abortControllers - driverOnly.abortControllers, abortListeners: service.abortListeners - driverOnly.abortListeners }) }, null, 2)}\n`,
  )
  await close()
  await driver.close()
} finally {
  peer.stop()
}
