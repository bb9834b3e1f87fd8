import { execFile } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

// What the install tests need to act as a user with a fresh clone: the repository's files, and
// npm run as a user runs it rather than as the `npm test` that runs the tests.

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))

export const run = promisify(execFile)

// npm settings from the `npm test` that runs this must not leak into the installs under test.
const npmEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_package_|npm_lifecycle_|npm_config_|INIT_CWD$)/.test(key)))

/** Runs npm in `cwd` with the environment a user's shell would give it. */
export const npm = (args: ReadonlyArray<string>, cwd: string) => run('npm', [...args], { cwd, env: npmEnv(), maxBuffer: 64 * 1024 * 1024 })

/**
 * The repository's files as a clone has them (tracked, and new ones not yet committed; no dist/,
 * no node_modules), or why they cannot be known here.
 */
export const cleanCloneFiles = async (): Promise<ReadonlyArray<string> | { readonly unknown: string }> => {
  try {
    const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT })
    return stdout.split('\0').filter((file) => file !== '' && existsSync(join(ROOT, file)))
  } catch {
    return { unknown: 'this is not a git checkout with git on PATH, so the files of a clean clone are unknown' }
  }
}

/** Copies the given files of the repository into `dir`, keeping their paths. */
export const copyFiles = (files: ReadonlyArray<string>, dir: string): void => {
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true })
    copyFileSync(join(ROOT, file), join(dir, file))
  }
}
