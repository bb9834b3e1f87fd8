import { posix } from 'node:path'
import ts from 'typescript'

/** One import that breaks a layer rule: the file, the module specifier, and the rule it breaks. */
export interface LayerViolation {
  readonly file: string
  readonly specifier: string
  readonly rule: string
}

/** The package's own name: `plant-store/adapters/x` is a way for one file to reach another. */
const SELF = 'plant-store'

const CORE_PACKAGES = /^(?:fp-ts|io-ts)(?:\/|$)/

type Layer =
  | { readonly kind: 'core' }
  | { readonly kind: 'adapter'; readonly name: string }
  | { readonly kind: 'apps' }
  | { readonly kind: 'elsewhere' }

/**
 * Every module specifier a source text imports: static and dynamic imports, re-exports, `require`,
 * `import x = require()` and `import('x')` types. TypeScript's own scanner reads them, so imports
 * inside comments and strings do not count.
 */
export const importsOf = (source: string): ReadonlyArray<string> =>
  ts.preProcessFile(source, true, true).importedFiles.map((reference) => reference.fileName)

/**
 * The layer rules one file breaks. `file` is the path from the project root with `/` separators
 * (`core/plant.ts`). The rules: the core imports only fp-ts, io-ts and the core; an adapter never
 * imports another adapter; neither the core nor an adapter imports apps.
 */
export const layerViolations = (file: string, source: string): ReadonlyArray<LayerViolation> => {
  const from = layerOf(file)
  return importsOf(source).flatMap((specifier) => {
    const rule = brokenRule(from, file, specifier)
    return rule === undefined ? [] : [{ file, specifier, rule }]
  })
}

/** One line per violation, fit for a failing assertion. */
export const describeViolation = ({ file, specifier, rule }: LayerViolation): string =>
  `${file}: import '${specifier}': ${rule}`

const brokenRule = (from: Layer, file: string, specifier: string): string | undefined => {
  const target = targetOf(file, specifier)
  switch (from.kind) {
    case 'core':
      if (target === undefined) {
        return CORE_PACKAGES.test(specifier) ? undefined : 'the core imports only fp-ts, io-ts and the core'
      }
      return layerOf(target).kind === 'core' ? undefined : 'the core imports only fp-ts, io-ts and the core'
    case 'adapter': {
      if (target === undefined) return undefined
      const to = layerOf(target)
      if (to.kind === 'apps') return 'adapters never import apps'
      if (to.kind === 'adapter' && to.name !== from.name) {
        return `adapters never import each other (adapters/${from.name} imports adapters/${to.name})`
      }
      return undefined
    }
    case 'apps':
    case 'elsewhere':
      return undefined
  }
}

// The project path a specifier points into, or undefined for another package.
const targetOf = (file: string, specifier: string): string | undefined => {
  if (specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..') {
    return posix.normalize(posix.join(posix.dirname(file), specifier))
  }
  if (specifier === SELF) return 'core/index.js'
  if (specifier.startsWith(`${SELF}/`)) return specifier.slice(SELF.length + 1)
  return undefined
}

const layerOf = (path: string): Layer => {
  const [top, next] = path.split('/')
  if (top === 'core') return { kind: 'core' }
  if (top === 'adapters' && next !== undefined) return { kind: 'adapter', name: next }
  if (top === 'apps') return { kind: 'apps' }
  return { kind: 'elsewhere' }
}
