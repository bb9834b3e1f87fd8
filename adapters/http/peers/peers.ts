import type * as RouterPackage from '@koa/router'
import type * as KoaPackage from 'koa'
import { loadPeers } from '../../../wire/peers/index.js'

// The HTTP adapter's peers, loaded while this module is evaluated (wire/peers/ says why not by
// static imports): the floor beneath all the others, and the first module the adapter evaluates
// (app.ts, its index's first import, imports it first), so a missing peer is named for
// plant-store/adapters/http before the exact JSON reader could name lossless-json for
// plant-store/json. Types come from `import type`, as before.
const peers = loadPeers<{
  readonly koa: typeof KoaPackage
  readonly '@koa/router': typeof RouterPackage
}>('plant-store/adapters/http')

export const KoaApplication: typeof KoaPackage.default = peers.koa.default
export const Router: typeof RouterPackage.default = peers['@koa/router'].default
