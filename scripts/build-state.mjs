// Whether dist/ holds a build of the sources as they are now, and what to run to make it so. One
// answer for `npm start` (scripts/build-if-stale.mjs) and the end-to-end tests
// (test/support/current-build.ts). Plain JavaScript: `npm start` runs it without a TypeScript loader.
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** The built entry point that `npm start` runs. tsc writes every output on each build, so its time is the build's. */
export const MAIN = join(ROOT, 'dist/apps/server/main.js')

const TSC = join(ROOT, 'node_modules/typescript/bin/tsc')

/** `node` arguments that run the build (`npm run build`). */
export const BUILD_ARGS = [TSC, '-p', join(ROOT, 'tsconfig.build.json')]

/** Whether the compiler is installed: a production install (`npm ci --omit=dev`) has none. */
export const canBuild = () => existsSync(TSC)

// What the build compiles (tsconfig.build.json), and what decides how it is compiled.
const SOURCE_FOLDERS = ['core', 'wire', 'adapters', 'apps']
const BUILD_SETTINGS = ['tsconfig.json', 'tsconfig.build.json', 'package.json']

const newestSource = () => {
  const times = BUILD_SETTINGS.filter((file) => existsSync(join(ROOT, file))).map((file) => statSync(join(ROOT, file)).mtimeMs)
  for (const folder of SOURCE_FOLDERS) {
    // A tree holding only the build (a container image) has no sources to be newer than it.
    if (!existsSync(join(ROOT, folder))) continue
    for (const entry of readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && entry.name.endsWith('.ts')) times.push(statSync(join(entry.parentPath, entry.name)).mtimeMs)
    }
  }
  return Math.max(...times)
}

/** Whether `dist/` holds a build of the sources as they are now. */
export const isBuildCurrent = () => existsSync(MAIN) && statSync(MAIN).mtimeMs >= newestSource()

/** tsc emits even when it reports errors: without this, the next look would take that output for current. */
export const forgetFailedBuild = () => rmSync(MAIN, { force: true })
