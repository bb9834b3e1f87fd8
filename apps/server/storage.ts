import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import { makeInMemoryPlantStore } from '../../adapters/in-memory/index.js'
import { openMongoPlantStore } from '../../adapters/mongodb/index.js'
import type { Clock, PlantStore } from '../../core/index.js'
import type { StorageConfig } from './config.js'

/** Storage chosen by configuration, with what to call it in logs and how to release it. */
export interface OpenedStorage {
  readonly store: PlantStore
  readonly description: string
  readonly close: () => Promise<void>
}

/**
 * Opens the configured storage without waiting for it: a MongoDB that is down at start makes
 * /readyz answer 503 until it is up, it does not stop the service. Fails only on settings the
 * driver cannot understand or the adapter cannot work with, naming the variable. MongoDB's
 * deadlines and timers run on `clock`.
 */
export const openStorage = (config: StorageConfig, clock: Clock): E.Either<string, OpenedStorage> => {
  switch (config._tag) {
    case 'InMemory':
      return E.right({ store: makeInMemoryPlantStore(config.limits), description: 'in-memory', close: async () => {} })
    case 'MongoDb':
      return pipe(
        openMongoPlantStore({ ...config.settings, clock }),
        E.bimap(
          (invalid) => `MONGODB_URI: expected a connection string this service can use (${invalid.message})`,
          ({ store, close }) => ({ store, close, description: `mongodb (database ${config.settings.dbName})` }),
        ),
      )
  }
}
