// `npm start` runs this first: it builds only when a source file is newer than the build, so a
// start with dist/ up to date costs a few file stats instead of a full tsc run (about 6 s).
// It prints nothing on stdout: the service's JSON lines are the only thing there.
import { spawnSync } from 'node:child_process'
import { BUILD_ARGS, forgetFailedBuild, isBuildCurrent } from './build-state.mjs'

if (!isBuildCurrent()) {
  process.stderr.write('plant-store: sources changed since the last build; building dist/ first\n')
  // tsc reports type errors on stdout; they are the reason the start stops, so they go to stderr, visible.
  const tsc = spawnSync(process.execPath, [...BUILD_ARGS], { stdio: ['ignore', process.stderr, 'inherit'] })
  if (tsc.status !== 0) {
    forgetFailedBuild()
    process.exit(tsc.status ?? 1)
  }
}
