// The heavy development tools live outside the project's own `npm ci`, each group a package of its
// own (package.json and lockfile) in its folder: the benchmark's peers in bench/, the others in a
// folder of tools/. `node scripts/install-tools.mjs [folder...]` installs the groups named (every
// group when none is) with `npm ci --prefix`; the commands and tests that use a group run it
// first. A group already installed from its current lockfile is left alone, at the cost of
// reading that lockfile.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../', import.meta.url))

const GROUPS = [
  'bench',
  ...readdirSync(join(ROOT, 'tools'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `tools/${entry.name}`),
].filter((folder) => existsSync(join(ROOT, folder, 'package-lock.json')))

// Written after a complete install: the digest of the lockfile it was made from. npm ci removes
// node_modules first, so an install cut short leaves no stamp and is made again.
const STAMP = join('node_modules', '.installed-lockfile')

const lockfileDigest = (folder) => createHash('sha256').update(readFileSync(join(ROOT, folder, 'package-lock.json'))).digest('hex')

const isCurrent = (folder) => {
  const stamp = join(ROOT, folder, STAMP)
  return existsSync(stamp) && readFileSync(stamp, 'utf8') === lockfileDigest(folder)
}

const install = (folder) => {
  if (isCurrent(folder)) return true
  process.stderr.write(`install-tools: npm ci --prefix ${folder}\n`)
  // npm's lines go to stderr: the caller's stdout may be a report (a test reporter's JSON, a
  // benchmark's tables).
  const { status, error } = spawnSync('npm', ['ci', '--prefix', folder, '--no-audit', '--no-fund'], {
    cwd: ROOT,
    stdio: ['ignore', 2, 2],
  })
  if (error !== undefined || status !== 0) {
    process.stderr.write(`install-tools: ${folder} could not be installed${error === undefined ? '' : `: ${error.message}`}\n`)
    return false
  }
  writeFileSync(join(ROOT, folder, STAMP), lockfileDigest(folder))
  return true
}

const named = process.argv.slice(2)
const unknown = named.filter((folder) => !GROUPS.includes(folder))
if (unknown.length > 0) {
  process.stderr.write(`install-tools: no tool group ${unknown.join(', ')}; the groups: ${GROUPS.join(', ')}\n`)
  process.exit(2)
}
const failed = (named.length === 0 ? GROUPS : named).filter((folder) => !install(folder))
process.exit(failed.length === 0 ? 0 : 1)
