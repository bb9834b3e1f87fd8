/**
 * Whether an answer's status says the service or a dependency failed: a 5xx, except 501 Not
 * Implemented, which refuses what the client sent (a method or a transfer coding the service does
 * not implement, RFC 9110 section 15.6.2) as a 4xx refusal does. The request log's error level,
 * a span's error status and the operator's 5xx alert all read failures by this one rule.
 */
export const isFailureStatus = (status: number): boolean => status >= 500 && status !== 501
