import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The service's version: the `version` of the nearest package.json above this file. Built, that
 * is the project's own (dist/ holds none); run from the sources, the workspace's
 * apps/server/package.json, which a test keeps at the same version.
 */
export const serviceVersion = (from: string = dirname(fileURLToPath(import.meta.url))): string => {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest)) {
      const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version?: unknown }
      return typeof version === 'string' ? version : 'unknown'
    }
    if (dirname(dir) === dir) return 'unknown'
  }
}
