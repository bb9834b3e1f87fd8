import { expect } from 'chai'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cleanCloneFiles, copyFiles, npm, ROOT, run } from '../support/clean-clone.js'
import { reportPending } from '../support/pending.js'
import { installTools } from '../support/tools.js'

// The package as a user gets it: packed from the repository's files alone (no dist/, as in a fresh
// clone), installed from the tarball into projects outside the repository, and used from there.

const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')
// publint and attw have an install of their own, made by the first run that needs them.
const PACKAGE_CHECKS = 'tools/package-checks'
const ATTW = join(ROOT, PACKAGE_CHECKS, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js')

// What the adapters need and a core-only embedder must not install.
const ADAPTER_LIBRARIES = ['koa', '@koa/router', 'lossless-json', 'swagger-ui-dist', 'mongodb', 'jose', 'prom-client', '@types/koa']

// The versions the repository itself was tested with: the npm cache already holds them.
const versionOf = (name: string): string =>
  (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version
const pinned = (name: string): string => `${name}@${versionOf(name)}`

const STRICT = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noImplicitOverride: true,
  noUnusedLocals: true,
  verbatimModuleSyntax: true,
  skipLibCheck: false,
  target: 'ES2022',
  lib: ['ES2023'],
}
const NODENEXT = { module: 'NodeNext', moduleResolution: 'NodeNext' }
const BUNDLER = { module: 'ESNext', moduleResolution: 'Bundler' }

const EXAMPLES = [
  'embedding.ts',
  'smallest-service.ts',
  'http-service.ts',
  'koa-host.ts',
  'client.ts',
  'own-storage-adapter.ts',
  'own-storage-adapter.node-test.ts',
  'own-storage-adapter.mocha.ts',
]
const FULL_CONSUMERS = ['mongodb.ts', 'jwt.ts', 'declarations.ts', 'commonjs.cts', 'exact-json.ts']

// The README's exports table: each import with the libraries its "install beside it" cell names.
const INSTALL_LINES: ReadonlyArray<{ readonly subpath: string; readonly libraries: ReadonlyArray<string> }> = readFileSync(join(ROOT, 'README.md'), 'utf8')
  .split('\n')
  .filter((line) => /^\| \[`plant-store\//.test(line))
  .map((line) => {
    const [imported = '', , beside = ''] = line.split(' | ')
    const subpath = /`(plant-store\/[^`]+)`/.exec(imported)?.[1] ?? ''
    // A code span is a list of packages when each of its words is a package name.
    const libraries = beside.startsWith('nothing') ? [] : [...beside.matchAll(/`([^`]+)`/g)]
          .map(([, names = '']) => names.split(' '))
          .filter((names) => names.every((name) => /^(@[a-z0-9-]+\/)?[a-z0-9][a-z0-9.-]*$/.test(name)))
          .flat()
    return { subpath, libraries }
  })

const writeJson = (path: string, value: unknown): void => writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`)

/** A consumer project: its package.json, and sources copied from the repository. */
const makeConsumer = (dir: string, sources: ReadonlyArray<string>): void => {
  mkdirSync(dir, { recursive: true })
  writeJson(join(dir, 'package.json'), { name: `consumer-${dir.split('/').pop() ?? ''}`, private: true, type: 'module' })
  for (const source of sources) copyFileSync(join(ROOT, source), join(dir, source.split('/').pop() ?? source))
}

const tsc = async (dir: string, name: string, compilerOptions: object, files: ReadonlyArray<string>): Promise<void> => {
  writeJson(join(dir, `${name}.json`), { compilerOptions: { ...STRICT, ...compilerOptions }, files })
  try {
    await run(process.execPath, [TSC, '-p', `${name}.json`], { cwd: dir })
  } catch (error) {
    const { stdout = '' } = error as { stdout?: string }
    expect.fail(`${name} in ${dir} does not type-check:\n${stdout}`)
  }
}

const node = (cwd: string, file: string, env: Record<string, string> = {}, args: ReadonlyArray<string> = []) =>
  run(process.execPath, [file, ...args], { cwd, env: { PATH: process.env['PATH'] ?? '', ...env }, maxBuffer: 16 * 1024 * 1024 })

const installedNames = (dir: string): ReadonlyArray<string> =>
  readdirSync(join(dir, 'node_modules')).flatMap((name) =>
    name.startsWith('@') ? readdirSync(join(dir, 'node_modules', name)).map((inner) => `${name}/${inner}`) : [name],
  )

// The kit run as a consumer runs it, under node:test and under mocha: on the in-memory adapter or
// a broken store the kit ships (STORE names which), or on the README's own adapter (the example).
const KIT_FIXTURE = `import { brokenPlantStores, plantStoreContract } from 'plant-store/testing'
import { makeInMemoryPlantStore } from 'plant-store/adapters/in-memory'
const which = process.env.STORE ?? 'in-memory'
export const suite = which === 'example'
  ? (await import('./out/own-storage-adapter.js')).mapStoreContract
  : plantStoreContract(which, which === 'in-memory' ? async () => ({ store: makeInMemoryPlantStore(), release: async () => {} }) : brokenPlantStores[which].fixture)
`
const KIT_RUNNERS: Readonly<Record<string, string>> = {
  'suite.mjs': KIT_FIXTURE,
  'kit.node-test.mjs': `import { describe, it } from 'node:test'
import { registerWithNodeTest } from 'plant-store/testing/node-test'
import { suite } from './suite.mjs'
registerWithNodeTest({ describe, it }, suite)
`,
  'kit.mocha.mjs': `import { describe, it } from 'mocha'
import { registerWithMocha } from 'plant-store/testing/mocha'
import { suite } from './suite.mjs'
registerWithMocha({ describe, it }, suite)
`,
}

describe('the package, installed as a user installs it', function () {
  this.timeout(180_000)
  let tmp = ''
  let tarball = ''
  let packed: ReadonlyArray<string> = []
  const coreDir = () => join(tmp, 'core')
  const fullDir = () => join(tmp, 'full')
  const kitDir = () => join(tmp, 'kit')
  const jsonDir = () => join(tmp, 'json')
  const lineDir = (subpath: string) => join(tmp, `line-${subpath.replace(/\W+/g, '-')}`)
  const lineLibraries = new Map<string, ReadonlyArray<string>>()

  before(async function () {
    this.timeout(300_000)
    try {
      await npm(['--version'], ROOT)
    } catch {
      reportPending('the package install', 'npm is not on PATH here, so the package cannot be packed and installed')
      this.skip()
    }
    // A clean clone: the repository's files without dist/ (tracked, and new ones not yet committed).
    const files = await cleanCloneFiles()
    if ('unknown' in files) {
      reportPending('the package install', files.unknown)
      this.skip()
    }
    tmp = mkdtempSync(join(tmpdir(), 'plant-store-install-'))
    const clone = join(tmp, 'clone')
    copyFiles(files, clone)
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir')

    const { stdout } = await npm(['pack', '--json', '--pack-destination', tmp], clone)
    const report = JSON.parse(stdout.slice(stdout.search(/^\[/m))) as Array<{ filename: string; files: Array<{ path: string }> }>
    tarball = join(tmp, report[0]?.filename ?? 'missing.tgz')
    packed = (report[0]?.files ?? []).map((f) => f.path)

    makeConsumer(coreDir(), ['test/e2e/consumer/core-only.ts'])
    makeConsumer(fullDir(), [...EXAMPLES.map((example) => `examples/${example}`), ...FULL_CONSUMERS.map((file) => `test/e2e/consumer/${file}`)])
    const install = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', tarball]
    for (const { subpath, libraries } of INSTALL_LINES) {
      const dir = lineDir(subpath)
      makeConsumer(dir, [])
      // Every export of the subpath, named in a type, so each of its declarations is read.
      writeFileSync(join(dir, 'uses.ts'), `import type * as Subpath from '${subpath}'\nexport type Exports = { [K in keyof typeof Subpath]: (typeof Subpath)[K] }\n`)
      lineLibraries.set(subpath, libraries)
    }
    makeConsumer(kitDir(), [])
    makeConsumer(jsonDir(), [])
    for (const [file, text] of Object.entries(KIT_RUNNERS)) writeFileSync(join(kitDir(), file), text)
    await Promise.all([
      npm([...install, pinned('mocha')], kitDir()),
      npm([...install, pinned('@types/node')], coreDir()),
      npm([...install, pinned('lossless-json')], jsonDir()),
      npm([...install, pinned('@types/node'), pinned('@types/mocha'), ...ADAPTER_LIBRARIES.map(pinned)], fullDir()),
      ...INSTALL_LINES.map(({ subpath, libraries }) => npm([...install, pinned('@types/node'), ...libraries.map(pinned)], lineDir(subpath))),
    ])
  })

  after(function () {
    if (tmp !== '') rmSync(tmp, { recursive: true, force: true })
  })

  // The README's install block for the HTTP adapter, pasted into a project: the tarball's name is
  // the one the README gives, and npm's registry (or its cache) gives the rest. Afterwards no
  // install script is left undecided, so npm's install-scripts warning is answered.
  it("leaves no install script undecided after the README's HTTP adapter install block", async function () {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    const block = /```sh\n(npm install \.\/plant-store-[^\n]+# the HTTP adapter\n(?:npm [^\n]+\n)*)```/.exec(readme)?.[1] ?? expect.fail('no HTTP adapter install block in the README')
    const dir = join(tmp, 'readme-http-install')
    makeConsumer(dir, [])
    for (const line of block.trim().split('\n')) {
      const words = line.replace(/\s+#.*$/, '').split(/\s+/)
      const args = words.slice(1).map((word) => (/^\.\/plant-store-.*\.tgz$/.test(word) ? tarball : word))
      await npm([...args, ...(args[0] === 'install' ? ['--no-audit', '--no-fund', '--prefer-offline'] : [])], dir)
    }
    const { stdout, stderr } = await npm(['install-scripts', 'ls'], dir)
    expect(`${stdout}${stderr}`).not.to.include('@scarf/scarf')
    expect((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { allowScripts?: unknown }).allowScripts).to.deep.equal({ '@scarf/scarf': false })
    const again = await npm(['install', '--no-audit', '--no-fund', '--prefer-offline'], dir)
    expect(`${again.stdout}${again.stderr}`).not.to.include('install-scripts')
  })

  it('packs the built library and its documents, and nothing else', function () {
    expect(packed).to.include.members([
      'package.json',
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
      'dist/core/index.js',
      'dist/core/index.d.ts',
      'dist/adapters/http-client/index.js',
      'dist/adapters/http-client/index.d.ts',
      'dist/adapters/http/index.d.ts',
      'dist/testing/index.js',
      'dist/testing/index.d.ts',
    ])
    const stray = packed.filter(
      (path) =>
        !['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'].includes(path) &&
        !/^dist\/(core|wire|adapters|testing)\/.+\.(js|d\.ts|js\.map)$/.test(path),
    )
    expect(stray, 'files an embedder does not need').to.deep.equal([])
    expect(packed.filter((path) => path.startsWith('dist/apps/'))).to.deep.equal([])
  })

  it('ships source maps that carry the sources they point at', function () {
    const installed = join(coreDir(), 'node_modules', 'plant-store')
    const maps = packed.filter((path) => path.endsWith('.js.map'))
    expect(maps).to.have.length.above(10)
    for (const path of maps) {
      const map = JSON.parse(readFileSync(join(installed, path), 'utf8')) as { sources: string[]; sourcesContent?: string[] }
      expect(map.sourcesContent?.length, path).to.equal(map.sources.length)
      expect(map.sourcesContent?.every((text) => text.length > 0), path).to.equal(true)
    }
  })

  it('installs for a core-only embedder without koa, mongodb or jose', function () {
    const names = installedNames(coreDir())
    expect(names).to.include.members(['plant-store', 'fp-ts', 'io-ts'])
    expect(names.filter((name) => ADAPTER_LIBRARIES.includes(name) || name.startsWith('@koa/') || name === 'bson')).to.deep.equal([])
  })

  // The core's declarations are checked in full (skipLibCheck off) with no @types at all. The
  // adapters' consumers use skipLibCheck as `tsc --init` sets it (checking @types/node and the
  // MongoDB driver's declarations in full would take most of a minute); declarations.ts fails
  // there if any of the package's types has turned into `any`.
  it('type-checks a strict consumer of the core alone under nodenext and bundler, with no @types and no skipLibCheck', async function () {
    await Promise.all([
      tsc(coreDir(), 'tsconfig.nodenext', { ...NODENEXT, types: [], noEmit: true }, ['core-only.ts']),
      tsc(coreDir(), 'tsconfig.bundler', { ...BUNDLER, types: [], noEmit: true }, ['core-only.ts']),
    ])
  })

  it("type-checks, strictly and with no skipLibCheck, a consumer of each import that installs what the README's table says beside it", async function () {
    expect(INSTALL_LINES.map(({ subpath }) => subpath)).to.include.members(['plant-store/adapters/http', 'plant-store/adapters/mongodb'])
    expect(lineLibraries.get('plant-store/adapters/http')).to.include('openapi3-ts')
    // One at a time: each reads @types/node and its libraries' declarations in full.
    for (const { subpath } of INSTALL_LINES) {
      await tsc(lineDir(subpath), 'tsconfig', { ...NODENEXT, types: ['node'], skipLibCheck: false, noEmit: true }, ['uses.ts'])
    }
  })

  it('type-checks strict consumers of every subpath and the examples under nodenext and bundler', async function () {
    const files = [...EXAMPLES, ...FULL_CONSUMERS]
    const options = { types: ['node'], skipLibCheck: true }
    await Promise.all([
      tsc(fullDir(), 'tsconfig.nodenext', { ...NODENEXT, ...options, outDir: 'out' }, files),
      // CommonJS is Node's business: a bundler-resolved project writes ESM imports.
      tsc(fullDir(), 'tsconfig.bundler', { ...BUNDLER, ...options, noEmit: true }, files.filter((f) => !f.endsWith('.cts'))),
    ])
  })

  it('runs the core + in-memory example on the core-only install, from ESM and from CommonJS (require)', async function () {
    mkdirSync(join(coreDir(), 'out'))
    for (const file of ['embedding.js', 'commonjs.cjs']) copyFileSync(join(fullDir(), 'out', file), join(coreDir(), 'out', file))
    const esm = await node(coreDir(), 'out/embedding.js')
    expect(esm.stdout).to.equal("{ name: 'Monstera' }\n{ name: 'Fern', tag: 'fern' }\n")
    const cjs = await node(coreDir(), 'out/commonjs.cjs')
    expect(cjs.stdout).to.equal('Right function function\n')
    expect(cjs.stderr).to.equal('')
  })

  it('reads exact JSON without HTTP: plant-store/json beside lossless-json alone, no koa, an id beyond 2^53 kept', async function () {
    const names = installedNames(jsonDir())
    expect(names).to.include.members(['plant-store', 'lossless-json'])
    expect(names.filter((name) => name !== 'lossless-json' && (ADAPTER_LIBRARIES.includes(name) || name.startsWith('@koa/')))).to.deep.equal([])
    mkdirSync(join(jsonDir(), 'out'))
    copyFileSync(join(fullDir(), 'out', 'exact-json.js'), join(jsonDir(), 'out', 'exact-json.js'))
    const { stdout, stderr } = await node(jsonDir(), 'out/exact-json.js')
    expect(stdout).to.equal('stored Monstera under 9007199254740993\nInvalidInput\n')
    expect(stderr).to.equal('')
  })

  it('runs the MongoDB and JWT consumers', async function () {
    expect((await node(fullDir(), 'out/mongodb.js')).stdout).to.equal('refused a bad uri\nopened without connecting\n')
    expect((await node(fullDir(), 'out/jwt.js')).stdout).to.equal('verified gardener\n')
  })

  it('runs the service example, and the client example creates 2^63 - 1 through it, then replays it', async function () {
    const token = 'example-token-0123456789'
    const service = spawn(process.execPath, ['out/http-service.js'], {
      cwd: fullDir(),
      env: { PATH: process.env['PATH'] ?? '', TOKEN: token },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    try {
      let output = ''
      service.stdout.setEncoding('utf8')
      const url = await new Promise<string>((resolve, reject) => {
        service.stdout.on('data', (chunk: string) => {
          output += chunk
          const found = /listening on (\S+)/.exec(output)
          if (found?.[1] !== undefined) resolve(found[1])
        })
        service.once('exit', () => reject(new Error(`the service example exited: ${output}`)))
      })
      const env = { PLANT_STORE_URL: url, TOKEN: token }
      const created = "created { name: 'Monstera', tag: 'aroid' }\n"
      expect((await node(fullDir(), 'out/client.js', env)).stdout).to.equal(created)
      expect((await node(fullDir(), 'out/client.js', env)).stdout).to.equal(created)
      const hello = await fetch(new URL('/hello', url))
      expect(await hello.text()).to.equal('hello from the host service\n')
      expect(output).to.not.include(token)
      service.kill('SIGTERM')
      const [code] = (await once(service, 'exit')) as [number | null]
      expect(code).to.equal(0)
    } finally {
      if (service.exitCode === null) service.kill('SIGKILL')
    }
  })

  it('runs the Koa host example: its own route, and the HTTP API under its base path', async function () {
    const token = 'koa-host-token-0123456789'
    const host = spawn(process.execPath, ['out/koa-host.js'], {
      cwd: fullDir(),
      env: { PATH: process.env['PATH'] ?? '', TOKEN: token },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    try {
      let output = ''
      host.stdout.setEncoding('utf8')
      const url = await new Promise<string>((resolve, reject) => {
        host.stdout.on('data', (chunk: string) => {
          output += chunk
          const found = /listening on (\S+)/.exec(output)
          if (found?.[1] !== undefined) resolve(found[1])
        })
        host.once('exit', () => reject(new Error(`the Koa host example exited: ${output}`)))
      })
      const hello = await fetch(new URL('/hello', url))
      expect(await hello.text()).to.equal('hello from the host Koa app\n')
      const created = await fetch(`${url}/plants`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: '{"id": 9007199254740993, "name": "Monstera"}',
      })
      expect([created.status, await created.json()]).to.deep.equal([200, { name: 'Monstera' }])
      const refused = await fetch(`${url}/plants`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })
      expect(refused.status).to.equal(401)
    } finally {
      host.kill('SIGKILL')
    }
  })

  // npm init -y writes a CommonJS project, where import and top-level await do not compile: the
  // README says what to set, and those settings, run as written, make every example compile.
  it('compiles no example in a project made by npm init -y and tsc --init alone (CommonJS)', async function () {
    // The project's installs are the full consumer's; `npx tsc` is the repository's TypeScript.
    const project = async (name: string, script: string): Promise<string> => {
      const dir = join(tmp, name)
      mkdirSync(dir)
      symlinkSync(join(fullDir(), 'node_modules'), join(dir, 'node_modules'), 'dir')
      for (const example of EXAMPLES) copyFileSync(join(ROOT, 'examples', example), join(dir, example))
      await npm(['init', '-y'], dir)
      const npx = `npx() { if [ "$1" = tsc ]; then shift; node ${JSON.stringify(TSC)} "$@"; else command npx "$@"; fi; }`
      await run('bash', ['-c', `set -e\n${npx}\n${script}`], { cwd: dir, env: { PATH: process.env['PATH'] ?? '', HOME: tmp } })
      return dir
    }
    const compile = (dir: string) => run(process.execPath, [TSC, '-p', '.', '--noEmit'], { cwd: dir })
    const asInit = await project('as-init', 'npx tsc --init --types node >/dev/null')
    const failure = await compile(asInit).then(
      () => expect.fail('the examples compiled in a CommonJS project'),
      (error: { stdout?: string }) => error.stdout ?? '',
    )
    expect(failure).to.match(/error TS1309|error TS1378|error TS1479/)
  })

  // The settings as a person pastes them: into an empty folder made a project by npm init -y,
  // with npm's registry (or its cache) and nothing of the repository's; then the package and the
  // adapters' libraries, and the project's own compiler.
  it("compiles every example in a project made by npm init -y after the README's project settings, pasted as written", async function () {
    const setup = /<!-- project-setup:start -->\n```sh\n([\s\S]*?)```\n<!-- project-setup:end -->/.exec(readFileSync(join(ROOT, 'README.md'), 'utf8'))?.[1] ?? ''
    const dir = join(tmp, 'as-pasted')
    mkdirSync(dir)
    for (const example of EXAMPLES) copyFileSync(join(ROOT, 'examples', example), join(dir, example))
    await npm(['init', '-y'], dir)
    try {
      await run('bash', ['-c', `set -e\n${setup}`], {
        cwd: dir,
        // A user's shell: none of the npm settings of the `npm test` that runs this.
        env: { ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|INIT_CWD$)/i.test(key))), npm_config_prefer_offline: 'true' },
      })
    } catch (error) {
      const { stderr = '' } = error as { stderr?: string }
      if (/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT/.test(stderr)) {
        reportPending("the README's project settings, pasted", `npm's registry cannot be reached here: ${stderr.split('\n')[0] ?? ''}`)
        this.skip()
      }
      expect.fail(`the README's project settings failed as pasted:\n${stderr}`)
    }
    await npm(['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', tarball, pinned('@types/mocha'), ...ADAPTER_LIBRARIES.map(pinned)], dir)
    try {
      await run('npx', ['tsc', '-p', '.', '--noEmit'], { cwd: dir })
    } catch (error) {
      expect.fail(`the examples do not compile with the README's settings:\n${(error as { stdout?: string }).stdout ?? ''}`)
    }
  })

  it('passes publint (strict) and Are the Types Wrong on the tarball, node10 included', async function () {
    const checks = installTools(PACKAGE_CHECKS)
    if ('missing' in checks) {
      reportPending('publint and attw on the tarball', checks.missing)
      this.skip()
    }
    const { publint, formatMessage } = await import('../../tools/package-checks/index.js')
    const bytes = readFileSync(tarball)
    const { messages, pkg } = await publint({
      pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
      strict: true,
    })
    expect(messages.map((message) => formatMessage(message, pkg) ?? message.code)).to.deep.equal([])
    try {
      // attw models `require()` of ESM as an error (its TypeScript predates Node 20.19); the CommonJS
      // test above shows that it works, so that one rule is off.
      const rules = ['--ignore-rules', 'cjs-resolves-to-esm']
      await run(process.execPath, [ATTW, tarball, ...rules, '--no-definitely-typed', '--no-color', '--format', 'table-flipped'], { cwd: tmp })
    } catch (error) {
      const { stdout = '' } = error as { stdout?: string }
      expect.fail(`attw reports problems:\n${stdout}`)
    }
  })

  describe('plant-store/testing in a consumer project', function () {
    // Runs the kit under a runner in the kit consumer; resolves with the exit code and the output.
    const runKit = async (runner: 'node:test' | 'mocha', store: string): Promise<{ code: number; output: string }> => {
      const argv = runner === 'node:test' ? ['--test', '--test-reporter=tap', 'kit.node-test.mjs'] : [join(kitDir(), 'node_modules', 'mocha', 'bin', 'mocha.js'), 'kit.mocha.mjs']
      try {
        const { stdout, stderr } = await node(kitDir(), argv[0] as string, { STORE: store }, argv.slice(1))
        return { code: 0, output: stdout + stderr }
      } catch (error) {
        const { code, stdout = '', stderr = '' } = error as { code?: number; stdout?: string; stderr?: string }
        return { code: code ?? 1, output: stdout + stderr }
      }
    }

    before(function () {
      mkdirSync(join(kitDir(), 'out'), { recursive: true })
      copyFileSync(join(fullDir(), 'out', 'own-storage-adapter.js'), join(kitDir(), 'out', 'own-storage-adapter.js'))
    })

    for (const runner of ['node:test', 'mocha'] as const) {
      it(`passes the in-memory adapter and the README's own adapter under ${runner}`, async function () {
        for (const store of ['in-memory', 'example']) {
          const { code, output } = await runKit(runner, store)
          expect(code, `${store}:\n${output}`).to.equal(0)
          expect(output, store).to.match(runner === 'mocha' ? /passing/ : /# pass [1-9]/)
        }
      })

      it(`fails each broken store the kit ships under ${runner}, naming the rule it breaks`, async function () {
        const { brokenPlantStores } = await import('../../testing/index.js')
        for (const [store, { breaks }] of Object.entries(brokenPlantStores)) {
          const { code, output } = await runKit(runner, store)
          expect(code, store).to.not.equal(0)
          expect(output, store).to.include(`${breaks} broken`)
        }
      })
    }
  })

  it('shows each example in the README, verbatim or as an excerpt of its lines', function () {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    const excerpts = new Map([...readme.matchAll(/<!-- excerpt: examples\/(\S+) -->\n```ts\n([\s\S]*?)```/g)].map(([, file = '', code = '']) => [file, code]))
    expect([...excerpts.keys()]).to.deep.equal(['smallest-service.ts', 'http-service.ts', 'koa-host.ts', 'client.ts'])
    for (const example of EXAMPLES) {
      const lines = readFileSync(join(ROOT, 'examples', example), 'utf8').split('\n')
      const excerpt = excerpts.get(example)
      if (excerpt === undefined) {
        const code = lines.slice(lines.findIndex((line) => !line.startsWith('//'))).join('\n')
        expect(readme, example).to.include(code)
      } else {
        const missing = excerpt.split('\n').filter((line) => line.trim() !== '' && !lines.includes(line))
        expect(missing, `lines of the README's excerpt that ${example} does not have`).to.deep.equal([])
      }
    }
  })
})
