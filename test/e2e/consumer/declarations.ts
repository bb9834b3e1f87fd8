// Type-checked by test/e2e/package-install.test.ts in a consumer with skipLibCheck (as `tsc --init`
// sets it): there a declaration that cannot resolve a library's types (`koa` without @types/koa)
// would turn into `any` silently. Each line fails to compile if its type is `any`.
import type { createHttpApp, createHttpServer, Logger } from 'plant-store/adapters/http'
import type { KeySource, makeJwtAuthenticator } from 'plant-store/adapters/jwt'
import type { MongoPlantStore, openMongoPlantStore } from 'plant-store/adapters/mongodb'
import type { createPlantStoreClient, PlantStoreClientError } from 'plant-store/client'
import type { NewPlant, Plant } from 'plant-store/core'

type NotAny<T> = 0 extends 1 & T ? never : T
type Checked<T> = NotAny<T> extends never ? 'any' : 'typed'

export const declarations: ReadonlyArray<'typed'> = [
  'typed' satisfies Checked<ReturnType<typeof createHttpApp>>,
  'typed' satisfies Checked<ReturnType<ReturnType<typeof createHttpApp>['callback']>>,
  'typed' satisfies Checked<Parameters<typeof createHttpServer>[0]>,
  'typed' satisfies Checked<ReturnType<typeof createHttpServer>>,
  'typed' satisfies Checked<Logger['info']>,
  'typed' satisfies Checked<Extract<KeySource, { _tag: 'PublicKey' }>['key']>,
  'typed' satisfies Checked<ReturnType<typeof makeJwtAuthenticator>>,
  'typed' satisfies Checked<ReturnType<typeof openMongoPlantStore>>,
  'typed' satisfies Checked<MongoPlantStore['close']>,
  'typed' satisfies Checked<ReturnType<typeof createPlantStoreClient>>,
  'typed' satisfies Checked<PlantStoreClientError>,
  'typed' satisfies Checked<NewPlant['id']>,
  'typed' satisfies Checked<Plant>,
]
