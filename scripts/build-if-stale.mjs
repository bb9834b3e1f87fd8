// `npm start` runs this first: it builds only when a source file is newer than the build, so a
// start with dist/ up to date costs a few file stats instead of a full tsc run (about 6 s).
// It prints nothing on stdout: the service's JSON lines are the only thing there.
import { spawnSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const BUILT = join(root, 'dist/apps/server/main.js')
const SOURCES = ['core', 'adapters', 'apps']
const CONFIG = ['tsconfig.json', 'tsconfig.build.json']

const mtime = (path) => {
  try {
    return statSync(path).mtimeMs
  } catch {
    return undefined
  }
}

const newestUnder = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce((newest, entry) => {
    const path = join(dir, entry.name)
    const time = entry.isDirectory() ? newestUnder(path) : entry.name.endsWith('.ts') ? (mtime(path) ?? 0) : 0
    return Math.max(newest, time)
  }, 0)

const built = mtime(BUILT)
const newestSource = Math.max(...SOURCES.map((dir) => newestUnder(join(root, dir))), ...CONFIG.map((f) => mtime(join(root, f)) ?? 0))
if (built === undefined || newestSource > built) {
  process.stderr.write('plant-store: sources changed since the last build; building dist/ first\n')
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], {
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  // tsc reports type errors on stdout; they are the reason the start stops, so they stay visible.
  if (tsc.status !== 0) process.exit(tsc.status ?? 1)
}
