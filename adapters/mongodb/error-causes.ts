/** An error and the causes it wraps, outermost first (bounded: a cycle of causes must not hang a request). */
export const causesOf = (error: unknown): ReadonlyArray<unknown> => {
  const chain: unknown[] = []
  for (let cause = error; cause !== undefined && cause !== null && chain.length < 8; ) {
    if (chain.includes(cause)) break
    chain.push(cause)
    cause = cause instanceof Error ? cause.cause : undefined
  }
  return chain
}
