/** Why a request was refused before it reached the domain: transport matters, not plant matters. */
export type RequestProblem =
  | { readonly _tag: 'UnsupportedMediaType'; readonly detail: string }
  | { readonly _tag: 'PayloadTooLarge'; readonly limitBytes: number }
  | { readonly _tag: 'MalformedBody'; readonly detail: string }
  | { readonly _tag: 'RouteNotFound' }
  | { readonly _tag: 'MethodNotAllowed'; readonly allowed: ReadonlyArray<string> }
  | { readonly _tag: 'UnexpectedFailure'; readonly cause: unknown }
  | { readonly _tag: 'MalformedRequest' }
  | { readonly _tag: 'HeadersTooLarge' }
  | { readonly _tag: 'RequestTimeout' }
  | { readonly _tag: 'ExpectationFailed' }
  | { readonly _tag: 'MethodNotImplemented' }
  | { readonly _tag: 'UnknownMethod' }
  | { readonly _tag: 'UnknownTransferCoding' }
  | { readonly _tag: 'ShuttingDown' }
  | { readonly _tag: 'DecodersBusy' }
  | { readonly _tag: 'ConnectionsOverShare' }
  | { readonly _tag: 'DeadlinePassed' }

export const unsupportedMediaType = (detail: string): RequestProblem => ({ _tag: 'UnsupportedMediaType', detail })
export const payloadTooLarge = (limitBytes: number): RequestProblem => ({ _tag: 'PayloadTooLarge', limitBytes })
export const malformedBody = (detail: string): RequestProblem => ({ _tag: 'MalformedBody', detail })
export const routeNotFound: RequestProblem = { _tag: 'RouteNotFound' }
export const methodNotAllowed = (allowed: ReadonlyArray<string>): RequestProblem => ({
  _tag: 'MethodNotAllowed',
  allowed,
})
export const unexpectedFailure = (cause: unknown): RequestProblem => ({ _tag: 'UnexpectedFailure', cause })
export const malformedRequest: RequestProblem = { _tag: 'MalformedRequest' }
export const headersTooLarge: RequestProblem = { _tag: 'HeadersTooLarge' }
export const requestTimeout: RequestProblem = { _tag: 'RequestTimeout' }
export const expectationFailed: RequestProblem = { _tag: 'ExpectationFailed' }
export const methodNotImplemented: RequestProblem = { _tag: 'MethodNotImplemented' }
/** A method Node's parser knows no server to implement (`BREW`): RFC 9110 section 9.1 answers it 501. */
export const unknownMethod: RequestProblem = { _tag: 'UnknownMethod' }
/** A transfer coding before the final `chunked` that the server cannot decode: RFC 9112 section 6.1 answers it 501. */
export const unknownTransferCoding: RequestProblem = { _tag: 'UnknownTransferCoding' }
export const shuttingDown: RequestProblem = { _tag: 'ShuttingDown' }
export const decodersBusy: RequestProblem = { _tag: 'DecodersBusy' }
export const connectionsOverShare: RequestProblem = { _tag: 'ConnectionsOverShare' }
/** The request's deadline passed before its body was in: the server cannot tell whose slowness it was. */
export const deadlinePassed: RequestProblem = { _tag: 'DeadlinePassed' }

const PROTOCOL_REFUSALS: ReadonlySet<RequestProblem['_tag']> = new Set([
  'MalformedRequest',
  'HeadersTooLarge',
  'RequestTimeout',
  'ExpectationFailed',
  'MethodNotImplemented',
  'UnknownMethod',
  'UnknownTransferCoding',
])

/**
 * Whether a problem refuses the request's framing or head, not its content: the connection is
 * closed after its answer, since what follows on it (a body coded as the server cannot read, the
 * rest of a head it could not parse) cannot be told apart from the next request.
 */
export const refusesTheProtocol = (problem: { readonly _tag: string }): boolean => PROTOCOL_REFUSALS.has(problem._tag as RequestProblem['_tag'])
