/**
 * The caller's trace context, as a W3C `traceparent` header carries it: read by the adapter for
 * the request's log line only; a tracer reads its parent through its own propagation.
 */
export interface TraceParent {
  /** 32 lowercase hex digits, not all zero. */
  readonly traceId: string
  /** The caller's span: 16 lowercase hex digits, not all zero. */
  readonly parentId: string
  /** The trace flags; bit 0 says the caller sampled the trace. */
  readonly flags: number
}

// version-traceid-parentid-flags; a later version may append fields after a dash (W3C Trace
// Context, section 3.2.4), which this version does not read.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-|$)/
const ZERO_TRACE_ID = '0'.repeat(32)
const ZERO_PARENT_ID = '0'.repeat(16)

/**
 * The trace context of a `traceparent` header, or undefined when there is none or it is not one:
 * an invalid header is ignored (the request starts a trace of its own), never refused, as the
 * specification asks. Version 00 has exactly four fields; version ff is invalid.
 */
export const traceParentFrom = (header: string | ReadonlyArray<string> | undefined): TraceParent | undefined => {
  if (typeof header !== 'string') return undefined
  const match = TRACEPARENT.exec(header)
  if (match === null) return undefined
  const [, version, traceId = '', parentId = '', flags = ''] = match
  if (version === 'ff' || (version === '00' && header.length !== 55)) return undefined
  if (traceId === ZERO_TRACE_ID || parentId === ZERO_PARENT_ID) return undefined
  return { traceId, parentId, flags: Number.parseInt(flags, 16) }
}
