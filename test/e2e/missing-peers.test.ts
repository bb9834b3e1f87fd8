import { expect } from 'chai'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
// The package the HTTP adapter's /docs page reads its files from, only where the page is served.
const DOCS_PAGE_PEER = 'swagger-ui-dist'
import { missingPeersMessage, SUBPATH_PEERS, type PeeredSubpath } from '../../wire/peers/index.js'
import { cleanCloneFiles, copyFiles, npm, ROOT, run } from '../support/clean-clone.js'
import { reportPending } from '../support/pending.js'

// An embedder who imports a subpath without the packages it needs beside it: the import (ESM) and
// the require (CommonJS) of the packed, installed package fail with one message naming the
// subpath, the missing packages and the npm command, not with Node's bare ERR_MODULE_NOT_FOUND.

const SUBPATHS = Object.keys(SUBPATH_PEERS) as ReadonlyArray<PeeredSubpath>

// The README's exports table: each import with the packages its "install beside it" cell names to
// run it, that is, before the declarations it names "for TypeScript".
const readmeRunLines = (): ReadonlyMap<string, ReadonlyArray<string>> =>
  new Map(
    readFileSync(join(ROOT, 'README.md'), 'utf8')
      .split('\n')
      .filter((line) => /^\| \[`plant-store\//.test(line))
      .map((line) => {
        const [imported = '', , beside = ''] = line.split(' | ')
        const toRun = beside.startsWith('nothing') ? '' : (beside.split('for TypeScript')[0] ?? '')
        // A code span is a list of packages when each of its words is a package name.
        const names = [...toRun.matchAll(/`([^`]+)`/g)]
          .map(([, text = '']) => text.split(' '))
          .filter((words) => words.every((name) => /^(@[a-z0-9-]+\/)?[a-z0-9][a-z0-9.-]*$/.test(name)))
          .flat()
        return [/`(plant-store\/[^`]+)`/.exec(imported)?.[1] ?? '', names] as const
      }),
  )

const versionOf = (name: string): string =>
  (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version
const pinned = (name: string): string => `${name}@${versionOf(name)}`

/** Loads `subpath` in `dir` as an ES module imports it, or as CommonJS requires it; the failure's stderr. */
const failureOf = async (dir: string, how: 'import' | 'require', subpath: string): Promise<string> => {
  const program = how === 'import' ? ['--input-type=module', '-e', `import '${subpath}'`] : ['-e', `require('${subpath}')`]
  try {
    await run(process.execPath, program, { cwd: dir, env: { PATH: process.env['PATH'] ?? '' } })
  } catch (error) {
    const { code, stderr = '' } = error as { code?: number; stderr?: string }
    expect(code, `${how} ${subpath}: ${stderr}`).to.equal(1)
    return stderr
  }
  return expect.fail(`${how} ${subpath} succeeded without its peers`)
}

describe('the packages a subpath needs, and the message when they are missing', function () {
  it("names, for each subpath, what the README's exports table says to install beside it to run it", function () {
    const lines = readmeRunLines()
    const needing = [...lines].filter(([, names]) => names.length > 0).map(([subpath]) => subpath)
    expect([...needing].sort()).to.deep.equal([...SUBPATHS].sort())
    // The HTTP adapter's row names, after the packages its import loads, the one the /docs page reads.
    const named = (subpath: PeeredSubpath) => [...SUBPATH_PEERS[subpath], ...(subpath === 'plant-store/adapters/http' ? [DOCS_PAGE_PEER] : [])]
    for (const subpath of SUBPATHS) expect(lines.get(subpath), subpath).to.deep.equal(named(subpath))
  })

  it("names only optional peer dependencies of package.json", function () {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      peerDependencies: Record<string, string>
      peerDependenciesMeta: Record<string, { optional?: boolean }>
    }
    for (const name of new Set(Object.values(SUBPATH_PEERS).flat())) {
      expect(manifest.peerDependencies, name).to.have.property(name)
      expect(manifest.peerDependenciesMeta[name]?.optional, name).to.equal(true)
    }
  })

  it('says which subpath needs which packages, and the command that installs them', function () {
    expect(missingPeersMessage('plant-store/adapters/http', ['koa', '@koa/router'])).to.equal(
      'plant-store/adapters/http needs koa and @koa/router, which are not installed: npm install koa @koa/router',
    )
    expect(missingPeersMessage('plant-store/adapters/jwt', ['jose'])).to.equal('plant-store/adapters/jwt needs jose, which is not installed: npm install jose')
    expect(missingPeersMessage('plant-store/adapters/http', ['koa', '@koa/router', 'swagger-ui-dist'])).to.equal(
      'plant-store/adapters/http needs koa, @koa/router and swagger-ui-dist, which are not installed: npm install koa @koa/router swagger-ui-dist',
    )
  })

  describe('installed from the packed tarball', function () {
    this.timeout(180_000)
    let tmp = ''
    // The package alone: every subpath's peers are missing.
    const bareDir = () => join(tmp, 'bare')
    // The HTTP adapter's peers but @koa/router.
    const noRouterDir = () => join(tmp, 'no-router')
    // Every peer.
    const fullDir = () => join(tmp, 'full')
    // The HTTP adapter's peers, without the /docs page's.
    const noDocsPageDir = () => join(tmp, 'no-docs-page')

    before(async function () {
      this.timeout(300_000)
      try {
        await npm(['--version'], ROOT)
      } catch {
        reportPending('the missing peers of an installed package', 'npm is not on PATH here, so the package cannot be packed and installed')
        this.skip()
      }
      const files = await cleanCloneFiles()
      if ('unknown' in files) {
        reportPending('the missing peers of an installed package', files.unknown)
        this.skip()
      }
      tmp = mkdtempSync(join(tmpdir(), 'plant-store-peers-'))
      const clone = join(tmp, 'clone')
      copyFiles(files, clone)
      symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir')
      const { stdout } = await npm(['pack', '--json', '--pack-destination', tmp], clone)
      const report = JSON.parse(stdout.slice(stdout.search(/^\[/m))) as Array<{ filename: string }>
      const tarball = join(tmp, report[0]?.filename ?? 'missing.tgz')
      const install = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', tarball]
      for (const dir of [bareDir(), noRouterDir(), fullDir(), noDocsPageDir()]) {
        mkdirSync(dir)
        writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'consumer', private: true })}\n`)
      }
      const allButRouter = SUBPATH_PEERS['plant-store/adapters/http'].filter((name) => name !== '@koa/router')
      const everyPeer = [...new Set([...Object.values(SUBPATH_PEERS).flat(), DOCS_PAGE_PEER])]
      await Promise.all([
        npm(install, bareDir()),
        npm([...install, ...allButRouter.map(pinned)], noRouterDir()),
        npm([...install, ...everyPeer.map(pinned)], fullDir()),
        npm([...install, ...SUBPATH_PEERS['plant-store/adapters/http'].map(pinned)], noDocsPageDir()),
      ])
    })

    after(function () {
      if (tmp !== '') rmSync(tmp, { recursive: true, force: true })
    })

    for (const how of ['import', 'require'] as const) {
      it(`fails to ${how} each subpath without its peers, naming the subpath, every missing package and the npm command`, async function () {
        for (const subpath of SUBPATHS) {
          const stderr = await failureOf(bareDir(), how, subpath)
          expect(stderr, `${how} ${subpath}`).to.include(missingPeersMessage(subpath, SUBPATH_PEERS[subpath]))
          expect(stderr, `${how} ${subpath}`).to.not.include('ERR_MODULE_NOT_FOUND')
        }
      })

      it(`fails to ${how} the HTTP adapter without @koa/router alone, naming it alone`, async function () {
        const stderr = await failureOf(noRouterDir(), how, 'plant-store/adapters/http')
        expect(stderr).to.include('plant-store/adapters/http needs @koa/router, which is not installed: npm install @koa/router')
      })
    }

    it('runs what needs no peer beside a subpath that does, and the exact JSON reader with the HTTP peers but the router', async function () {
      const program = "const { parseExactJson } = require('plant-store/json'); console.log(typeof require('plant-store/core').createPlant, parseExactJson('{\"id\":9007199254740993}').right.id)"
      const { stdout } = await run(process.execPath, ['-e', program], { cwd: noRouterDir(), env: { PATH: process.env['PATH'] ?? '' } })
      expect(stdout).to.equal('function 9007199254740993n\n')
    })

    it('serves the HTTP adapter without swagger-ui-dist when the app has no /docs page, and names it and docsPage: false when it has', async function () {
      const program = `
const { createHttpApp } = await import('plant-store/adapters/http')
const { makeInMemoryPlantStore } = await import('plant-store/adapters/in-memory')
const { makeStaticTokenAuthenticator } = await import('plant-store/adapters/static-tokens')
const ports = { plantStore: makeInMemoryPlantStore(), authenticator: makeStaticTokenAuthenticator(['no-docs-page-token-0123456789']) }
const server = createHttpApp({ ...ports, docsPage: false }).listen(0, '127.0.0.1')
await new Promise((resolve) => server.once('listening', resolve))
const base = 'http://127.0.0.1:' + server.address().port
const statuses = [(await fetch(base + '/openapi.json')).status, (await fetch(base + '/docs')).status]
server.close()
let refused = ''
try { createHttpApp(ports) } catch (error) { refused = error.message }
console.log(JSON.stringify({ statuses, refused }))
`
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', program], { cwd: noDocsPageDir(), env: { PATH: process.env['PATH'] ?? '' } })
      expect(JSON.parse(stdout)).to.deep.equal({
        statuses: [200, 404],
        refused: 'plant-store/adapters/http serves the /docs page from swagger-ui-dist, which is not installed: npm install swagger-ui-dist, or pass docsPage: false to createHttpApp',
      })
    })

    // The adapters' peer modules are no export of the package: the program reads them by path, to
    // compare what the adapters use with what the embedder's own imports give.
    it("loads each peer as the embedder's own import of it: one copy, whose classes the adapters check against", async function () {
      const program = `
const dist = new URL('./node_modules/plant-store/dist/', import.meta.url)
const peers = (file) => import(new URL(file, dist).href)
const http = await peers('adapters/http/peers/peers.js')
const mongodb = await peers('adapters/mongodb/peers.js')
const jwt = await peers('adapters/jwt/peers.js')
const prometheus = await peers('adapters/prometheus/peers.js')
const opentelemetry = await peers('adapters/opentelemetry/peers.js')
const own = {
  koa: (await import('koa')).default,
  router: (await import('@koa/router')).default,
  mongodb: await import('mongodb'),
  jose: await import('jose'),
  prom: await import('prom-client'),
  otel: await import('@opentelemetry/api'),
}
const { openMongoPlantStore } = await import('plant-store/adapters/mongodb')
const same = {
  koa: http.KoaApplication === own.koa,
  router: http.Router === own.router,
  mongoClient: mongodb.MongoClient === own.mongodb.MongoClient,
  mongoError: mongodb.MongoError === own.mongodb.MongoError,
  joseErrors: jwt.errors === own.jose.errors && jwt.jwtVerify === own.jose.jwtVerify,
  prom: prometheus.Registry === own.prom.Registry,
  otel: opentelemetry.trace === own.otel.trace,
  opens: typeof openMongoPlantStore === 'function',
}
console.log(JSON.stringify(same))
`
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', program], { cwd: fullDir(), env: { PATH: process.env['PATH'] ?? '' } })
      const same = JSON.parse(stdout) as Record<string, boolean>
      expect(Object.entries(same).filter(([, isSame]) => !isSame).map(([name]) => name)).to.deep.equal([])
      expect(Object.keys(same)).to.have.lengthOf(8)
    })
  })
})
