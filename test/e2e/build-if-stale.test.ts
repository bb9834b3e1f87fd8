import { expect } from 'chai'
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT } from '../support/clean-clone.js'

// `npm start`'s prestart step in a production install: TypeScript is a development tool, so a tree
// installed with `npm ci --omit=dev` has the build and no compiler. The step runs here in such a
// tree, made in a temporary directory: the project's scripts and settings, a source newer than the
// build, and no node_modules.

const MAIN = 'dist/apps/server/main.js'
const BUILD = '// the build a production install was given\n'

const leanTree = (options: { readonly withBuild: boolean; readonly withSources: boolean }): string => {
  const dir = mkdtempSync(join(tmpdir(), 'plant-store-lean-'))
  cpSync(join(ROOT, 'scripts'), join(dir, 'scripts'), { recursive: true })
  for (const file of ['package.json', 'tsconfig.json', 'tsconfig.build.json']) cpSync(join(ROOT, file), join(dir, file))
  const past = new Date(Date.now() - 60_000)
  for (const file of ['package.json', 'tsconfig.json', 'tsconfig.build.json']) utimesSync(join(dir, file), past, past)
  if (options.withBuild) {
    mkdirSync(join(dir, 'dist/apps/server'), { recursive: true })
    writeFileSync(join(dir, MAIN), BUILD)
    utimesSync(join(dir, MAIN), past, past)
  }
  if (options.withSources) {
    for (const folder of ['core', 'adapters', 'apps']) mkdirSync(join(dir, folder), { recursive: true })
    // Saved after the build: the build is stale, and only a compiler could bring it up to date.
    writeFileSync(join(dir, 'core/index.ts'), 'export const changed = true\n')
  }
  return dir
}

const prestart = (dir: string) => spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: dir, encoding: 'utf8' })

describe("npm start's build step in a production install, which has no TypeScript", function () {
  this.timeout(30_000)
  const dirs: string[] = []
  after(function () {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })

  it('starts the build it has when a source is newer, without trying to compile or deleting the build', function () {
    const dir = leanTree({ withBuild: true, withSources: true })
    dirs.push(dir)
    const result = prestart(dir)
    expect(result.status, result.stderr).to.equal(0)
    expect(result.stdout, 'stdout belongs to the service').to.equal('')
    expect(result.stderr).to.include('TypeScript is not installed')
    expect(existsSync(join(dir, MAIN)), 'the build is still there').to.equal(true)
    expect(readFileSync(join(dir, MAIN), 'utf8')).to.equal(BUILD)
  })

  it('starts a tree that holds only the build (no source folders, as the container image)', function () {
    const dir = leanTree({ withBuild: true, withSources: false })
    dirs.push(dir)
    const result = prestart(dir)
    expect(result.status, result.stderr).to.equal(0)
    expect(readFileSync(join(dir, MAIN), 'utf8')).to.equal(BUILD)
  })

  it('without a build, stops with a message saying how to make one', function () {
    const dir = leanTree({ withBuild: false, withSources: true })
    dirs.push(dir)
    const result = prestart(dir)
    expect(result.status).to.equal(1)
    expect(result.stderr).to.include('npm run build')
    expect(result.stderr).not.to.include('Cannot find module')
  })
})
