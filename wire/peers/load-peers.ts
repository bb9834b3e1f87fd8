import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { types } from 'node:util'
import { SUBPATH_PEERS, type PeeredSubpath } from './subpath-peers.js'

// An ES module links every static import before any module's code runs, so a peer that is not
// installed would fail the embedder's import (or require) with Node's bare ERR_MODULE_NOT_FOUND,
// before any code of ours could say which subpath needs it. The modules that use a peer's values
// take them from here instead, loaded once while the module is evaluated: each peer is resolved
// as this module's own static imports would be (so this loads the very file an embedder's own
// `import` of it loads), and loaded by require, which Node (22.13 and newer) shares with import
// for ES modules: one copy of each package, whose classes an embedder's instances are instances
// of. No top-level await: a CommonJS embedder require()s these modules, and Node refuses to do
// that to one that awaits.
const require = createRequire(import.meta.url)

/**
 * The file `specifier` (a package, or a file inside one) names, resolved as this module's static
 * imports are: by `import.meta.resolve` in an ES module; where this module was compiled to
 * CommonJS (by tsx, or a bundler), its imports became requires, and so does this.
 */
export const peerFile = (specifier: string): string =>
  typeof import.meta.resolve === 'function' ? fileURLToPath(import.meta.resolve(specifier)) : require.resolve(specifier)

/** The message of the error a subpath's import fails with when some of its peers are missing. */
export const missingPeersMessage = (subpath: PeeredSubpath, missing: ReadonlyArray<string>): string =>
  `${subpath} needs ${inWords(missing)}, which ${missing.length === 1 ? 'is' : 'are'} not installed: npm install ${missing.join(' ')}`

const inWords = (names: ReadonlyArray<string>): string =>
  names.length === 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.slice(-1).join('')}`

/**
 * The packages `subpath` needs, each as `import * as namespace from name` gives it, keyed by
 * name; throws one error naming every one that is not installed, and the command that installs
 * them. `Loaded` is the caller's word for their types: `typeof` an `import type * as` of each.
 */
export const loadPeers = <Loaded>(subpath: PeeredSubpath): Loaded => {
  const found = SUBPATH_PEERS[subpath].map((name) => ({ name, file: installedPeerFile(name) }))
  const missing = found.flatMap(({ name, file }) => (file === undefined ? [name] : []))
  if (missing.length > 0) throw new Error(missingPeersMessage(subpath, missing))
  return Object.fromEntries(found.map(({ name, file }) => [name, namespaceOf(require(file as string))])) as Loaded
}

/** `peerFile(specifier)`, or `undefined` when its package is not installed. */
export const installedPeerFile = (specifier: string): string | undefined => {
  try {
    return peerFile(specifier)
  } catch (error) {
    if (NOT_FOUND.has((error as { code?: unknown } | null)?.code)) return undefined
    throw error
  }
}

// What import.meta.resolve, and require.resolve, say of a package that is not installed.
const NOT_FOUND = new Set<unknown>(['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND'])

// An ES module's namespace as it is, and so an ES module compiled to CommonJS (marked
// `__esModule`, as tsx compiles one that require() loads under it). Other CommonJS exports as
// Node's import presents them: `default` is the exports themselves, and the named exports are read
// from them (through the prototype, so no exported getter runs before its export is read).
const namespaceOf = (loaded: unknown): unknown =>
  types.isModuleNamespaceObject(loaded) || (loaded as { __esModule?: unknown }).__esModule === true
    ? loaded
    : Object.create(loaded as object, { default: { value: loaded, enumerable: true } })
