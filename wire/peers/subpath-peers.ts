/**
 * The packages each subpath of plant-store loads beside it at run time: the optional peer
 * dependencies (package.json) its modules import values from. The README's exports table names
 * the same packages for each import (and, after them, the declarations TypeScript needs); a test
 * holds the two, and package.json's peer dependencies, to each other. swagger-ui-dist is not
 * among them: its files are read only where the /docs page is served (adapters/http's docs page).
 */
export const SUBPATH_PEERS = {
  'plant-store/json': ['lossless-json'],
  'plant-store/adapters/http': ['koa', '@koa/router', 'lossless-json'],
  'plant-store/adapters/mongodb': ['mongodb'],
  'plant-store/adapters/jwt': ['jose'],
  'plant-store/adapters/prometheus': ['prom-client'],
  'plant-store/adapters/opentelemetry': ['@opentelemetry/api'],
} as const satisfies Readonly<Record<string, ReadonlyArray<string>>>

/** A subpath of plant-store that needs packages installed beside it. */
export type PeeredSubpath = keyof typeof SUBPATH_PEERS
