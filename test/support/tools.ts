import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

// The heavy development tools are not in the project's `npm ci`: each group has a folder of its own
// with its own install, made by scripts/install-tools.mjs. A test that needs one installs it the
// way the commands that use it do, and is pending with the reason when it cannot be installed.

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** The folders of the tool groups the tests use. */
export type ToolGroup = 'bench' | 'tools/browser' | 'tools/linters' | 'tools/api-docs' | 'tools/package-checks'

/** The group's folder, installed from its lockfile when it was not, or why it cannot be installed here. */
export const installTools = (group: ToolGroup): { readonly folder: string } | { readonly missing: string } => {
  const { status, stderr, error } = spawnSync(process.execPath, [join(ROOT, 'scripts/install-tools.mjs'), group], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  if (error === undefined && status === 0) return { folder: join(ROOT, group) }
  const said = stderr.trim().split('\n').at(-1) ?? ''
  const reason = error?.message ?? (said === '' ? `${group}: exit ${String(status)}` : said)
  return { missing: `${reason} (\`npm run install-tools -- ${group}\` installs it)` }
}
