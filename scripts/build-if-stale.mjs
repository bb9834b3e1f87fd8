// `npm start` runs this first: it builds only when a source file is newer than the build, so a
// start with dist/ up to date costs a few file stats instead of a full tsc run.
// It prints nothing on stdout: the service's JSON lines are the only thing there.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { BUILD_ARGS, canBuild, forgetFailedBuild, isBuildCurrent, MAIN } from './build-state.mjs'

if (!isBuildCurrent()) {
  if (!canBuild()) {
    // A production install has no compiler: the build it holds is the one to run. Trying to build
    // would fail, and a failed build is forgotten, which would delete the build it has.
    if (!existsSync(MAIN)) {
      process.stderr.write('plant-store: dist/ holds no build and TypeScript is not installed (a production install): build with the development install first (npm ci && npm run build)\n')
      process.exit(1)
    }
    process.stderr.write('plant-store: sources changed since the last build, but TypeScript is not installed: starting the build in dist/ as it is\n')
    process.exit(0)
  }
  // A fresh clone has never built: told that sources changed since a build, a newcomer looks for
  // an edit they never made.
  process.stderr.write(
    existsSync(MAIN)
      ? 'plant-store: sources changed since the last build; building dist/ first\n'
      : 'plant-store: first build: dist/ holds no build yet; building it before the start\n',
  )
  // tsc reports type errors on stdout; they are the reason the start stops, so they go to stderr, visible.
  const tsc = spawnSync(process.execPath, [...BUILD_ARGS], { stdio: ['ignore', process.stderr, 'inherit'] })
  if (tsc.status !== 0) {
    forgetFailedBuild()
    process.exit(tsc.status ?? 1)
  }
}
