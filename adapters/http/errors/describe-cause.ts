import { inspect } from 'node:util'

// A cause can be anything a dependency threw or rejected with: null, a circular object, a BigInt,
// an object whose getters or toString throw, a Proxy. These turn it into a plain string without
// calling its getters or toString, and never throw, so describing a failure cannot fail a request.

const UNDESCRIBABLE = '(a value that cannot be described)'

/** The whole cause, stack and nested causes included, as one string: for a defect (500). */
export const describeCause = (cause: unknown): string => {
  try {
    return inspect(cause, { depth: 4, breakLength: Infinity, maxStringLength: 4096, getters: false, customInspect: false })
  } catch {
    return UNDESCRIBABLE
  }
}

/** The cause's message only: for an outage (503), logged on every request while it lasts. */
export const describeCauseBriefly = (cause: unknown): string => {
  try {
    if (cause instanceof Error) {
      const message: unknown = cause.message
      return typeof message === 'string' ? `${cause.name}: ${message}` : describeCause(cause)
    }
    return describeCause(cause)
  } catch {
    return UNDESCRIBABLE
  }
}
