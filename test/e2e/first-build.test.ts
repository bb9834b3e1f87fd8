import { expect } from 'chai'
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT } from '../support/clean-clone.js'

// What `npm start`'s build step says before it builds, in a tree made in a temporary directory:
// the project's scripts and settings, one source, and a stand-in compiler where TypeScript's would
// be, which writes the entry point as tsc would, so no real compile is waited for.

const MAIN = 'dist/apps/server/main.js'

const STAND_IN_TSC = `const { mkdirSync, writeFileSync } = require('node:fs')
const { join } = require('node:path')
const root = join(__dirname, '..', '..', '..')
mkdirSync(join(root, 'dist/apps/server'), { recursive: true })
writeFileSync(join(root, '${MAIN}'), '// built\\n')
`

const treeWithCompiler = (options: { readonly withBuild: boolean }): string => {
  const dir = mkdtempSync(join(tmpdir(), 'plant-store-first-build-'))
  cpSync(join(ROOT, 'scripts'), join(dir, 'scripts'), { recursive: true })
  for (const file of ['package.json', 'tsconfig.json', 'tsconfig.build.json']) cpSync(join(ROOT, file), join(dir, file))
  mkdirSync(join(dir, 'node_modules/typescript/bin'), { recursive: true })
  // CommonJS, whatever the project's own package.json says.
  writeFileSync(join(dir, 'node_modules/typescript/package.json'), '{}\n')
  writeFileSync(join(dir, 'node_modules/typescript/bin/tsc'), STAND_IN_TSC)
  const past = new Date(Date.now() - 60_000)
  for (const file of ['package.json', 'tsconfig.json', 'tsconfig.build.json']) utimesSync(join(dir, file), past, past)
  if (options.withBuild) {
    mkdirSync(join(dir, 'dist/apps/server'), { recursive: true })
    writeFileSync(join(dir, MAIN), '// an earlier build\n')
    utimesSync(join(dir, MAIN), past, past)
  }
  mkdirSync(join(dir, 'core'), { recursive: true })
  writeFileSync(join(dir, 'core/index.ts'), 'export const changed = true\n')
  return dir
}

const prestart = (dir: string) => spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: dir, encoding: 'utf8' })

describe("npm start's build step, saying why it builds", function () {
  this.timeout(30_000)
  const dirs: string[] = []
  after(function () {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })

  it('says a first build is the first, not that sources changed since a build that never ran', function () {
    const dir = treeWithCompiler({ withBuild: false })
    dirs.push(dir)
    const result = prestart(dir)
    expect(result.status, result.stderr).to.equal(0)
    expect(result.stdout, 'stdout belongs to the service').to.equal('')
    expect(result.stderr).to.include('first build')
    expect(result.stderr).not.to.include('since the last build')
    expect(existsSync(join(dir, MAIN)), 'the stand-in compiler ran').to.equal(true)
  })

  it('says sources changed when a build is there and older than a source', function () {
    const dir = treeWithCompiler({ withBuild: true })
    dirs.push(dir)
    const result = prestart(dir)
    expect(result.status, result.stderr).to.equal(0)
    expect(result.stderr).to.include('sources changed since the last build')
    expect(result.stderr).not.to.include('first build')
  })
})
