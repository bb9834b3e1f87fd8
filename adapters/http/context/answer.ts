import type { Plant } from '../../../core/index.js'
import type { Problem } from '../errors/error-response.js'

/**
 * What a route answers a request with, as a value: the request boundary writes it to Koa once,
 * decides from it whether the connection is kept, and tells the log line, the observer and the
 * tracer of it. Routes never touch Koa's response.
 */
export type Answer = Representation | PlantAnswer | ProblemAnswer

/** What every answer may say of the request it answers, for its log line, metrics and span. */
interface AnswerFacts {
  /** The route that answered, as the log line and the metrics name it; `unmatched` when absent. */
  readonly route?: string
  /** Who the request was made for, once its credential was accepted. */
  readonly subject?: string
}

/** A representation: a status, its headers, and its body, if it has one (a 304 has none). */
export interface Representation extends AnswerFacts {
  readonly _tag: 'Representation'
  readonly status: number
  /** Every header of the answer but `Vary`; `Content-Type` among them when there is a body. */
  readonly headers: Readonly<Record<string, string>>
  /** A field name the answer varies on, added to the `Vary` other layers (CORS) may have set. */
  readonly vary?: string
  readonly body?: Buffer | string
}

/** A plant stored, or found stored as it was sent: 200 with its JSON. */
export interface PlantAnswer extends AnswerFacts {
  readonly _tag: 'Plant'
  readonly plant: Plant
}

/** A problem, answered with its status, headers and Error document (`toErrorResponse`). */
export interface ProblemAnswer extends AnswerFacts {
  readonly _tag: 'Problem'
  readonly problem: Problem
}

// What Koa would answer for an object body, set once: given an object, Koa looks the type up by
// extension and serialises the body only when it responds, which costs more per response.
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

/**
 * A JSON representation, serialised here rather than by Koa after the middleware has returned:
 * a body that cannot be serialised then throws inside the error boundary.
 */
export const jsonRepresentation = (route: string, status: number, body: unknown): Representation => ({
  _tag: 'Representation',
  route,
  status,
  headers: { 'Content-Type': JSON_CONTENT_TYPE },
  body: JSON.stringify(body),
})
