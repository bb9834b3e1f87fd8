import type { OpenApiDocument } from '../../adapters/http/index.js'
import { documentedAnswers } from './openapi-traffic.js'

/** What one root suite saw: a file in parallel mode, the whole run in serial mode. */
export interface Seen {
  readonly files: ReadonlyArray<string>
  /** Every test of those files passed or was pending. */
  readonly complete: boolean
  readonly keys: ReadonlyArray<string>
  readonly errorBodies: ReadonlyArray<string>
}

/** What was left unproduced of a document: its answers no test got, its Error examples never seen. */
export const unproduced = (document: OpenApiDocument, seen: Pick<Seen, 'keys' | 'errorBodies'>): ReadonlyArray<string> => {
  const { keys, examples } = documentedAnswers(document)
  const keysSeen = new Set(seen.keys)
  const bodiesSeen = new Set(seen.errorBodies)
  return [
    ...[...keys].filter((key) => !keysSeen.has(key)).map((key) => `no test produced ${key}`),
    ...[...examples].filter((body) => !bodiesSeen.has(body)).map((body) => `no test was answered the example ${body}`),
  ]
}

/**
 * The verdict on what the files of one run saw together: undefined when the run did not cover
 * the expected files whole and passing (one file, a --grep, a failure already reported), else
 * what none of them produced.
 */
export const unproducedByRun = (
  records: ReadonlyArray<Seen>,
  expectedFiles: ReadonlyArray<string>,
  document: OpenApiDocument,
): ReadonlyArray<string> | undefined => {
  const ran = new Set(records.flatMap((record) => record.files))
  if (!records.every((record) => record.complete) || !expectedFiles.every((file) => ran.has(file))) return undefined
  return unproduced(document, { keys: records.flatMap((record) => record.keys), errorBodies: records.flatMap((record) => record.errorBodies) })
}
