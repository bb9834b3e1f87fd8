import { execFile } from 'node:child_process'
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** The built entry point that `npm start` runs. */
export const MAIN = join(ROOT, 'dist/apps/server/main.js')

// What `npm run build` compiles (tsconfig.build.json), and what decides how it is compiled.
const SOURCE_FOLDERS = ['core', 'adapters', 'apps']
const BUILD_SETTINGS = ['tsconfig.json', 'tsconfig.build.json', 'package.json']

const newestSource = (): number => {
  const times = BUILD_SETTINGS.map((file) => statSync(join(ROOT, file)).mtimeMs)
  for (const folder of SOURCE_FOLDERS) {
    for (const entry of readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && entry.name.endsWith('.ts')) times.push(statSync(join(entry.parentPath, entry.name)).mtimeMs)
    }
  }
  return Math.max(...times)
}

/**
 * Whether `dist/` holds a build of the sources as they are now. tsc writes every output file on
 * each build, so the entry point's time is the build's time.
 */
export const isBuildCurrent = (): boolean => existsSync(MAIN) && statSync(MAIN).mtimeMs >= newestSource()

let building: Promise<void> | undefined

const build = async (): Promise<void> => {
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc')
  try {
    await promisify(execFile)(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT })
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string }
    // tsc emits even when it reports errors; without this, the next run would take it for current.
    rmSync(MAIN, { force: true })
    throw new Error(`npm run build failed, so the end-to-end tests cannot run:\n${stdout}${stderr}`)
  }
}

/**
 * Registers a hook that builds `dist/` before the suite when it is missing or older than the
 * sources, so an end-to-end test never runs on a stale build and never skips for want of one.
 * A failed build fails the suite. One build serves every suite of the run.
 */
export const useCurrentBuild = (): void => {
  before(async function () {
    this.timeout(300_000) // a whole compile on a busy 2-core machine
    if (building === undefined && !isBuildCurrent()) building = build()
    await building
  })
}
