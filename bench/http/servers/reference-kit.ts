// What every reference server shares: its settings from the harness, the bearer check, the
// NewPlant check and the Map it stores plants in. Each server does this work through its
// framework's own idioms; only the parts a framework does not offer are here.

/** The settings the harness passes to a reference server in its environment. */
export interface ReferenceSettings {
  readonly port: number
  readonly token: string
  readonly bodyLimitBytes: number
}

export const readSettings = (env: NodeJS.ProcessEnv): ReferenceSettings => {
  const port = Number(env['PORT'])
  const token = env['PLANT_STORE_TOKENS'] ?? ''
  if (!Number.isInteger(port) || port <= 0 || token === '') {
    process.stderr.write('reference server: PORT and PLANT_STORE_TOKENS must be set by the harness\n')
    process.exit(1)
  }
  return { port, token, bodyLimitBytes: 64 * 1024 }
}

export const HOST = '127.0.0.1'

/** Exactly the header a client holding the token sends. */
export const isAuthorized = (header: string | undefined, token: string): boolean => header === `Bearer ${token}`

export interface ReferencePlant {
  readonly name: string
  readonly tag?: string
}

interface ReferenceNewPlant extends ReferencePlant {
  readonly id: number
}

/** The NewPlant check without exact int64s: an integer id, a string name, a string tag if any. */
export const isNewPlant = (value: unknown): value is ReferenceNewPlant => {
  if (typeof value !== 'object' || value === null) return false
  const { id, name, tag } = value as Record<string, unknown>
  return Number.isInteger(id) && typeof name === 'string' && (tag === undefined || typeof tag === 'string')
}

/** Insert unless the id is taken, as the service does: the stored plant on a replay, `undefined` on a conflict. */
export const makeReferenceStore = () => {
  const plants = new Map<number, ReferencePlant>()
  return (plant: ReferenceNewPlant): ReferencePlant | undefined => {
    const stored = plants.get(plant.id)
    if (stored === undefined) {
      const fresh = plant.tag === undefined ? { name: plant.name } : { name: plant.name, tag: plant.tag }
      plants.set(plant.id, fresh)
      return fresh
    }
    return stored.name === plant.name && stored.tag === plant.tag ? stored : undefined
  }
}

/** An Error document body, the shape the service answers. */
export const errorBody = (status: number, message: string): string => JSON.stringify({ error: status, message })
