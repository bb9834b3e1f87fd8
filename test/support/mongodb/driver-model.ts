import type { Clock } from '../../../core/index.js'

// A model of the MongoDB driver and a replica set, on a Clock, for the insert policy's model test:
// what the policy depends on and nothing more. A pool of connections handed out in the order they
// were asked for (the driver's wait queue); an insert checks its signal before it is written, is
// applied `answerMs` after it was written (however its client fares meanwhile, as mongod does not
// stop an insert whose client has gone), and is answered when a majority has it, `majorityLagMs`
// later, or with a write concern error when its write concern timeout passes first. An abort
// while waiting for a connection sends nothing; one while waiting for the reply cuts it (the
// driver destroys the connection, whose place is free again). A retryable failure drops the
// connection before the command runs; the driver then sends it once more, checking the signal
// again. Latency and lag are steady within a scenario.

export interface ModelDatabase {
  readonly poolSize: number
  readonly answerMs: number
  readonly majorityLagMs: number
  /** Documents (by id) whose first insert attempt meets a dropped connection before it runs. */
  readonly flaky: ReadonlySet<number>
}

/** One write of a command on a connection. */
export interface SentAttempt {
  readonly at: number
  readonly ids: ReadonlyArray<number>
}

export type ModelOutcome = 'inserted' | Error

export interface ModelDriver {
  /**
   * Inserts `ids` as one command, with the write concern timeout `wtimeoutMs` gives when it is
   * first written: every id's outcome is the command's.
   */
  readonly insert: (ids: ReadonlyArray<number>, signal: AbortSignal, wtimeoutMs: () => number) => Promise<ModelOutcome>
  readonly sent: ReadonlyArray<SentAttempt>
  /** Ids applied by the database, now or later (a command written is applied). */
  readonly stored: ReadonlySet<number>
}

export class ModelWriteConcernError extends Error {
  override readonly name = 'ModelWriteConcernError'
}
export class ModelNetworkError extends Error {
  override readonly name = 'ModelNetworkError'
}

export const modelDriver = (clock: Clock, database: ModelDatabase): ModelDriver => {
  const sent: SentAttempt[] = []
  const stored = new Set<number>()
  const failedOnce = new Set<number>()
  let free = database.poolSize
  const queue: Array<() => void> = []

  const release = (): void => {
    const next = queue.shift()
    if (next === undefined) free += 1
    else next()
  }

  // Resolves once a connection is this caller's; rejects at an abort while waiting.
  const checkOut = (signal: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason)
      if (free > 0) {
        free -= 1
        return resolve()
      }
      const take = (): void => {
        signal.removeEventListener('abort', giveUp)
        resolve()
      }
      const giveUp = (): void => {
        const index = queue.indexOf(take)
        if (index >= 0) queue.splice(index, 1)
        reject(signal.reason)
      }
      signal.addEventListener('abort', giveUp, { once: true })
      queue.push(take)
    })

  const attempt = async (ids: ReadonlyArray<number>, signal: AbortSignal, timeout: () => number, retry: boolean): Promise<ModelOutcome> => {
    await checkOut(signal)
    if (signal.aborted) {
      release()
      throw signal.reason
    }
    const wtimeoutMs = timeout()
    sent.push({ at: clock.now(), ids })
    const dropped = ids.filter((id) => database.flaky.has(id) && !failedOnce.has(id))
    if (dropped.length > 0) {
      for (const id of dropped) failedOnce.add(id)
      release()
      if (!retry) return new ModelNetworkError('connection dropped before the command ran')
      return attempt(ids, signal, () => wtimeoutMs, false)
    }
    clock.setTimer(database.answerMs, () => {
      for (const id of ids) stored.add(id)
    })
    const acknowledged = database.majorityLagMs <= wtimeoutMs
    const replyMs = database.answerMs + (acknowledged ? database.majorityLagMs : wtimeoutMs)
    return new Promise<ModelOutcome>((resolve, reject) => {
      const cut = (): void => {
        cancel()
        release()
        reject(signal.reason)
      }
      const cancel = clock.setTimer(replyMs, () => {
        signal.removeEventListener('abort', cut)
        release()
        resolve(acknowledged ? 'inserted' : new ModelWriteConcernError('waiting for replication timed out'))
      })
      signal.addEventListener('abort', cut, { once: true })
    })
  }

  return {
    insert: (ids, signal, timeout) =>
      attempt(ids, signal, timeout, true).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))),
    sent,
    stored,
  }
}
