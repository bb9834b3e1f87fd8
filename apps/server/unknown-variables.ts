/** A variable of the environment that looks meant for the service, which the service does not read. */
export interface UnknownVariable {
  readonly name: string
  /** The variable the service reads that it most likely stands for, when one is that close. */
  readonly didYouMean: string | undefined
  /** Whether an earlier version of the service read it. */
  readonly noLongerRead: boolean
}

// The service's families of variables: one of these prefixes and not read is a mistake.
const FAMILIES: ReadonlyArray<string> = ['PLANT_STORE_', 'JWT_', 'MONGODB_']

// How many single-character edits still make a typo rather than another program's variable: one in
// a short name (PORT and PATH are two apart), two in a longer one.
const typoDistance = (name: string): number => (name.length <= 6 ? 1 : 2)

/** The Levenshtein distance between two names, or a number above `bound` once it exceeds it. */
const distance = (a: string, b: string, bound: number): number => {
  if (Math.abs(a.length - b.length) > bound) return bound + 1
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      )
    }
    previous = current
  }
  return previous[b.length] ?? bound + 1
}

const nearest = (name: string, known: ReadonlyArray<string>): string | undefined => {
  const upper = name.toUpperCase()
  let best: { readonly name: string; readonly distance: number } | undefined
  for (const candidate of known) {
    const bound = typoDistance(candidate)
    const d = distance(upper, candidate, bound)
    if (d <= bound && (best === undefined || d < best.distance)) best = { name: candidate, distance: d }
  }
  return best?.name
}

/**
 * The variables of `env` that look like the service's but are not among `known`, the names it
 * reads: any of the service's families (`PLANT_STORE_*`, `JWT_*`, `MONGODB_*`), any name a typo
 * away from a known one (`PORTT`, `CORS_ORIGIN`, `port`), and any of `retired`, the names it
 * read once. Names only: values may be secrets.
 */
export const unknownVariables = (
  env: Readonly<Record<string, string | undefined>>,
  known: ReadonlyArray<string>,
  retired: ReadonlyArray<string> = [],
): ReadonlyArray<UnknownVariable> => {
  const read = new Set(known)
  return Object.keys(env)
    .filter((name) => !read.has(name))
    .flatMap((name) => {
      if (retired.includes(name)) return [{ name, didYouMean: undefined, noLongerRead: true }]
      const didYouMean = nearest(name, known)
      const inFamily = FAMILIES.some((prefix) => name.toUpperCase().startsWith(prefix))
      return didYouMean !== undefined || inFamily ? [{ name, didYouMean, noLongerRead: false }] : []
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}
