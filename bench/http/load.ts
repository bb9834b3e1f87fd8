// What a load generator measures, whichever one runs.
import type { Workload } from './workload.js'

/** The shape of the load: as `wrk -t<threads> -c<connections> -d<seconds>`. */
export interface LoadShape {
  readonly threads: number
  readonly connections: number
  readonly durationSeconds: number
}

/** One run's numbers, as the client saw them. */
export interface LoadResult {
  /** Answers received (any status). */
  readonly requests: number
  readonly seconds: number
  readonly p50Ms: number
  readonly p99Ms: number
  /** Answers with a status outside 2xx and 3xx. */
  readonly non2xx: number
  /** Connect, read and write errors and timeouts. */
  readonly socketErrors: number
}

/** A run of POST {url}/plants: fresh ids from `firstId` up, each used once as a fresh id. */
export interface LoadGenerator {
  /** Its name and version, for the report. */
  readonly description: string
  /** Sends the workload for the shape's duration. */
  readonly run: (url: string, token: string, shape: LoadShape, firstId: number, workload: Workload) => Promise<LoadResult>
  /** Sends about `count` fresh plants, stopping early after the shape's duration. */
  readonly send: (url: string, token: string, shape: LoadShape, firstId: number, count: number) => Promise<LoadResult>
}

export const requestsPerSecond = (result: LoadResult): number => result.requests / result.seconds
