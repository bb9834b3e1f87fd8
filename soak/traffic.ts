// The traffic of a soak run: many normal clients creating, replaying and conflicting, and one
// hostile connection sending the costliest body a client can send. It counts what it is answered
// and remembers every plant acknowledged with a 200, so that nothing acknowledged can go missing
// unseen.
import { gzipSync } from 'node:zlib'
import { keepAliveAgent, post, type Answer } from './http.js'

export interface Plant {
  readonly id: bigint
  readonly name: string
  readonly tag?: string
}

/** What the normal clients were answered, by kind of request and status. */
export interface Tally {
  readonly byKind: Map<string, Map<number, number>>
  /** Answers a correct service never gives (a 500, a 409 to a replay, a 200 to a conflict...). */
  readonly wrong: string[]
  /** Every plant a 200 acknowledged, by id. */
  readonly acknowledged: Map<bigint, Plant>
  /** The last few acknowledged, for replays and conflicts. */
  readonly recent: Plant[]
  /** Normal requests answered, one count per second of the run. */
  readonly perSecond: number[]
}

export const newTally = (): Tally => ({ byKind: new Map(), wrong: [], acknowledged: new Map(), recent: [], perSecond: [] })

const count = (tally: Tally, kind: string, answer: Answer, started: number): void => {
  const statuses = tally.byKind.get(kind) ?? new Map<number, number>()
  statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
  tally.byKind.set(kind, statuses)
  const second = Math.floor((performance.now() - started) / 1000)
  tally.perSecond[second] = (tally.perSecond[second] ?? 0) + 1
}

const bodyOf = (plant: Plant): string =>
  `{"id":${plant.id},"name":${JSON.stringify(plant.name)}${plant.tag === undefined ? '' : `,"tag":${JSON.stringify(plant.tag)}`}}`

// Statuses that say "not now" rather than "wrong": storage away (503), storage full (507), or no
// connection at all (0) while the service is being stopped.
const NOT_NOW = new Set([0, 503, 507])

/** Runs `clients` normal clients against `url` until `signal` aborts. */
export const runNormalClients = async (url: string, clients: number, tally: Tally, signal: AbortSignal): Promise<void> => {
  const agent = keepAliveAgent(clients)
  const started = performance.now()
  let nextId = BigInt(Date.now()) * 1000n
  // A recent one: cheap to pick, and the likeliest to race with its own first write.
  const pickAcknowledged = (): Plant | undefined => tally.recent[Math.floor(Math.random() * tally.recent.length)]
  const one = async (): Promise<void> => {
    const roll = Math.random()
    const known = pickAcknowledged()
    if (roll < 0.15 && known !== undefined) {
      const answer = await post(agent, url, bodyOf(known))
      count(tally, 'replay', answer, started)
      if (answer.status !== 200 && !NOT_NOW.has(answer.status)) tally.wrong.push(`replay of ${known.id}: ${answer.status}`)
      return
    }
    if (roll < 0.25 && known !== undefined) {
      const answer = await post(agent, url, bodyOf({ id: known.id, name: `${known.name} (other)` }))
      count(tally, 'conflict', answer, started)
      if (answer.status !== 409 && !NOT_NOW.has(answer.status)) tally.wrong.push(`conflict on ${known.id}: ${answer.status}`)
      return
    }
    if (roll < 0.3) {
      const [kind, answer, expected] =
        roll < 0.27
          ? (['unauthenticated', await post(agent, url, '{"id":1,"name":"x"}', { token: 'not-a-known-token-0123' }), 401] as const)
          : (['malformed', await post(agent, url, '{"id":1,"name":'), 400] as const)
      count(tally, kind, answer, started)
      if (answer.status !== expected && answer.status !== 0) tally.wrong.push(`${kind}: ${answer.status}`)
      return
    }
    nextId += 1n
    const plant: Plant = roll < 0.65 ? { id: nextId, name: `plant ${nextId}` } : { id: nextId, name: `plant ${nextId}`, tag: 'soak' }
    const answer = await post(agent, url, bodyOf(plant))
    count(tally, 'create', answer, started)
    if (answer.status === 200) {
      tally.acknowledged.set(plant.id, plant)
      tally.recent.push(plant)
      if (tally.recent.length > 50) tally.recent.shift()
    } else if (!NOT_NOW.has(answer.status)) tally.wrong.push(`create ${plant.id}: ${answer.status}`)
  }
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (!signal.aborted) await one()
    }),
  )
  agent.destroy()
}

/**
 * The costliest body found: a number `1.000…0001` with 60,000 zeros, in a
 * field NewPlant ignores, gzipped to a few hundred bytes.
 */
export const worstBody = (): Buffer =>
  gzipSync(`{"id":1,"name":"x","ignored":1.${'0'.repeat(60_000)}1}`)

/** One connection sending the worst body in a loop until `signal` aborts; answers how many it sent. */
export const runHostileConnection = async (url: string, signal: AbortSignal): Promise<Map<number, number>> => {
  const agent = keepAliveAgent(1)
  const body = worstBody()
  const statuses = new Map<number, number>()
  while (!signal.aborted) {
    const answer = await post(agent, url, body, { gzip: true })
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
  }
  agent.destroy()
  return statuses
}

/** The acknowledged plants whose replay is not answered 200 with exactly what was stored. */
export const missingByReplay = async (url: string, acknowledged: ReadonlyMap<bigint, Plant>): Promise<bigint[]> => {
  const agent = keepAliveAgent(20)
  const plants = [...acknowledged.values()]
  const missing: bigint[] = []
  let next = 0
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      for (let index = next++; index < plants.length; index = next++) {
        const plant = plants[index] as Plant
        const answer = await post(agent, url, bodyOf(plant))
        if (answer.status !== 200 || !isExactly(answer.body, plant)) missing.push(plant.id)
      }
    }),
  )
  agent.destroy()
  return missing
}

const isExactly = (body: string, plant: Plant): boolean => {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>
    const keys = Object.keys(parsed).sort().join()
    return parsed['name'] === plant.name && parsed['tag'] === plant.tag && keys === (plant.tag === undefined ? 'name' : 'name,tag')
  } catch {
    return false
  }
}
