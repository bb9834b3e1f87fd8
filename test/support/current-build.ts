import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { BUILD_ARGS, forgetFailedBuild, isBuildCurrent, MAIN, ROOT } from '../../scripts/build-state.mjs'

export { isBuildCurrent, MAIN }

let building: Promise<void> | undefined

const build = async (): Promise<void> => {
  try {
    await promisify(execFile)(process.execPath, [...BUILD_ARGS], { cwd: ROOT })
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string }
    forgetFailedBuild()
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
