import { fileURLToPath } from 'node:url'
import { expect } from 'chai'
import { ESLint } from 'eslint'
import tseslint from 'typescript-eslint'

// Proves that eslint.config.js refuses what the layer rules forbid, on source texts linted as if
// they stood at a path of the project (nothing is written to disk).
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const LAYER_RULES = new Set(['no-restricted-imports', 'import-x/no-restricted-paths'])
const RULES_UNDER_TEST = new Set([...LAYER_RULES, 'no-restricted-globals', 'no-restricted-properties', 'no-restricted-syntax'])

describe('eslint.config.js enforces the layers', function () {
  this.timeout(60_000)

  // The layer rules need no type information, and the probes are in no tsconfig. Only the rules
  // under test run: the rest of the configuration (typescript-eslint's, most of the cost of a
  // lint) is `npm run lint`'s business.
  const eslint = new ESLint({
    cwd: ROOT,
    overrideConfig: [{ files: ['**/*.ts'], ...tseslint.configs.disableTypeChecked }],
    ruleFilter: ({ ruleId }) => RULES_UNDER_TEST.has(ruleId),
  })

  const layerFindings = async (filePath: string, lines: ReadonlyArray<string>): Promise<ReadonlyArray<string>> => {
    const [result] = await eslint.lintText(lines.join('\n'), { filePath: `${ROOT}${filePath}` })
    if (result === undefined) expect.fail(`ESLint gave no result for ${filePath}`)
    const fatal = result.messages.filter((m) => m.fatal === true)
    expect(fatal, 'the probe must parse').to.deep.equal([])
    return result.messages
      .filter((m) => m.ruleId !== null && LAYER_RULES.has(m.ruleId))
      .map((m) => `${m.line}: ${m.ruleId}: ${m.message}`)
  }

  it('lets the core import fp-ts, io-ts and the core', async () => {
    const findings = await layerFindings('core/__lint_probe__.ts', [
      "export * as E from 'fp-ts/lib/Either.js'",
      "export * as t from 'io-ts'",
      "export { Int64 } from './int64.js'",
      "export type { PlantStore } from './ports/plant-store.js'",
    ])
    expect(findings).to.deep.equal([])
  })

  it('refuses a package, a Node module or an adapter in the core', async () => {
    const findings = await layerFindings('core/ports/__lint_probe__.ts', [
      "export { default as Koa } from 'koa'",
      "export { readFile } from 'node:fs/promises'",
      "export type { JWTPayload } from 'jose'",
      "export { makeInMemoryPlantStore } from '../../adapters/in-memory/index.js'",
    ])
    expect(findings).to.have.lengthOf(4)
    for (const [index, finding] of findings.slice(0, 3).entries()) {
      expect(finding).to.match(new RegExp(`^${index + 1}: no-restricted-imports: .*only fp-ts, io-ts and itself`))
    }
    expect(findings[3]).to.match(/^4: import-x\/no-restricted-paths: .*The core imports only itself/)
  })

  it('lets an adapter import the core, packages and its own files', async () => {
    const findings = await layerFindings('adapters/static-tokens/__lint_probe__.ts', [
      "export { createPlant } from '../../core/index.js'",
      "export { createHash } from 'node:crypto'",
      "export { makeStaticTokenAuthenticator } from './authenticator.js'",
    ])
    expect(findings).to.deep.equal([])
  })

  it('refuses an adapter importing another adapter', async () => {
    const findings = await layerFindings('adapters/static-tokens/__lint_probe__.ts', [
      "export { makeInMemoryPlantStore } from '../in-memory/index.js'",
    ])
    expect(findings).to.deep.equal([
      '1: import-x/no-restricted-paths: Unexpected path "../in-memory/index.js" imported in restricted zone. ' +
        'Adapters never import each other: adapters/static-tokens may import the core (../../core/index.js), ' +
        'not another adapter. Compose them in apps/.',
    ])
  })

  it('lets adapters and apps import the wire through its index and the exact JSON reader through its own, and only so', async () => {
    expect(
      await layerFindings('adapters/http-client/__lint_probe__.ts', ["export { CREATE_PLANT, readErrorDocument } from '../../wire/index.js'"]),
    ).to.deep.equal([])
    expect(
      await layerFindings('adapters/http/openapi/__lint_probe__.ts', [
        "export { CREATE_PLANT } from '../../../wire/index.js'",
        "export { parseExactJson } from '../../../wire/exact-json/index.js'",
      ]),
    ).to.deep.equal([])
    expect(await layerFindings('apps/server/__lint_probe__.ts', ["export { wholeNumberOption } from '../../wire/index.js'"])).to.deep.equal([])
    const findings = [
      ...(await layerFindings('adapters/http/__lint_probe__.ts', ["export { violationsFromMessage } from '../../wire/messages.js'"])),
      ...(await layerFindings('adapters/in-memory/__lint_probe__.ts', ["export { wholeNumberOption } from '../../wire/whole-number.js'"])),
      ...(await layerFindings('apps/server/__lint_probe__.ts', ["export { scanJson } from '../../wire/exact-json/exact-json.js'"])),
    ]
    expect(findings).to.have.lengthOf(3)
    for (const finding of findings) expect(finding).to.match(/^1: no-restricted-imports: .*Import the wire through its index/)
  })

  it('refuses the core importing the wire', async () => {
    const findings = await layerFindings('core/__lint_probe__.ts', ["export { CREATE_PLANT } from '../wire/index.js'"])
    expect(findings).to.have.lengthOf(1)
    expect(findings[0]).to.match(/^1: import-x\/no-restricted-paths: .*The core imports only itself .*never the wire/)
  })

  it('lets the wire import the core, fp-ts, io-ts and its own files', async () => {
    const findings = await layerFindings('wire/__lint_probe__.ts', [
      "export { decodeNewPlant } from '../core/index.js'",
      "export * as E from 'fp-ts/lib/Either.js'",
      "export * as t from 'io-ts'",
      "export { violationsFromMessage } from './messages.js'",
    ])
    expect(findings).to.deep.equal([])
  })

  it('refuses the rest of the wire importing the exact JSON reader, which needs lossless-json', async () => {
    const findings = await layerFindings('wire/__lint_probe__.ts', [
      "export { parseExactJson } from './exact-json/index.js'",
      "export { scanJson } from './exact-json/exact-json.js'",
    ])
    expect(findings.map((finding) => finding.split(':')[0])).to.deep.equal(['1', '2'])
    for (const finding of findings) expect(finding).to.match(/no-restricted-imports: .*The rest of the wire does not import a folder of it that needs a package/)
  })

  it('refuses the wire importing an adapter, apps, a framework or Node', async () => {
    const findings = await layerFindings('wire/__lint_probe__.ts', [
      "export { createHttpApp } from '../adapters/http/index.js'",
      "export * from '../apps/server/config.js'",
      "export { default as Koa } from 'koa'",
      "export { readFile } from 'node:fs/promises'",
      "export { parse } from 'lossless-json'",
    ])
    expect(findings.map((finding) => finding.split(':')[0])).to.deep.equal(['1', '2', '3', '4', '5'])
    for (const finding of findings) expect(finding).to.match(/The wire \(wire\/\) imports only the core/)
  })

  it("lets the wire's exact JSON reader import lossless-json, and no other package, framework or adapter", async () => {
    expect(
      await layerFindings('wire/exact-json/__lint_probe__.ts', [
        "export { parse } from 'lossless-json'",
        "export { INT64_MAX } from '../../core/index.js'",
        "export * as E from 'fp-ts/lib/Either.js'",
      ]),
    ).to.deep.equal([])
    const findings = await layerFindings('wire/exact-json/__lint_probe__.ts', [
      "export { default as Koa } from 'koa'",
      "export { createHttpApp } from '../../adapters/http/index.js'",
      "export { readFile } from 'node:fs/promises'",
    ])
    expect(findings.map((finding) => finding.split(':')[0])).to.deep.equal(['1', '2', '3'])
    for (const finding of findings) expect(finding).to.match(/The wire \(wire\/\) imports only the core/)
  })

  it("lets the wire's peer loader (wire/peers/) import Node's module loader, and keeps it from the rest of the wire", async () => {
    expect(
      await layerFindings('wire/peers/__lint_probe__.ts', [
        "export { createRequire } from 'node:module'",
        "export { fileURLToPath } from 'node:url'",
        "export { types } from 'node:util'",
      ]),
    ).to.deep.equal([])
    const refused = await layerFindings('wire/peers/__lint_probe__.ts', ["export { readFile } from 'node:fs/promises'", "export { default as Koa } from 'koa'"])
    expect(refused.map((finding) => finding.split(':')[0])).to.deep.equal(['1', '2'])
    for (const finding of refused) expect(finding).to.match(/The wire \(wire\/\) imports only the core/)
    const fromTheRest = await layerFindings('wire/__lint_probe__.ts', ["export { loadPeers } from './peers/index.js'", "export { createRequire } from 'node:module'"])
    expect(fromTheRest.map((finding) => finding.split(':')[0])).to.deep.equal(['1', '2'])
  })

  it('lets an adapter load its peers through wire/peers/index.js, and refuses node:module in it', async () => {
    expect(await layerFindings('adapters/jwt/__lint_probe__.ts', ["export { loadPeers, peerFile } from '../../wire/peers/index.js'"])).to.deep.equal([])
    const findings = await layerFindings('adapters/http/routes/__lint_probe__.ts', [
      "export { createRequire } from 'node:module'",
      "export { createRequire as make } from 'module'",
      "export { loadPeers } from '../../../wire/peers/load-peers.js'",
    ])
    expect(findings.map((finding) => finding.split(':')[0])).to.deep.equal(['1', '2', '3'])
    for (const finding of findings.slice(0, 2)) expect(finding).to.match(/no-restricted-imports: .*An adapter loads its optional peers through loadPeers/)
    expect(findings[2]).to.match(/no-restricted-imports: .*Import the wire through its index/)
  })

  it('lets the testing kit import the core, fp-ts and node:assert', async () => {
    const findings = await layerFindings('testing/__lint_probe__.ts', [
      "export { INT64_MAX } from '../core/index.js'",
      "export * as E from 'fp-ts/lib/Either.js'",
      "export { default as assert } from 'node:assert/strict'",
      "export { runContract } from './suite.js'",
    ])
    expect(findings).to.deep.equal([])
  })

  it('refuses the testing kit importing an adapter, apps, a package or another Node module', async () => {
    const findings = await layerFindings('testing/broken/__lint_probe__.ts', [
      "export * from '../../adapters/in-memory/index.js'",
      "export * from '../../apps/server/config.js'",
      "export { expect } from 'chai'",
      "export { readFile } from 'node:fs/promises'",
    ])
    expect(new Set(findings.map((f) => f.split(':')[0])), findings.join('\n')).to.deep.equal(new Set(['1', '2', '3', '4']))
    for (const finding of findings) expect(finding).to.include('The testing kit (testing/) imports only')
  })

  for (const probe of ['core/__lint_probe__.ts', 'adapters/in-memory/__lint_probe__.ts', 'apps/server/__lint_probe__.ts']) {
    it(`refuses ${probe.split('/').slice(0, -1).join('/')} importing the testing kit`, async () => {
      const up = '../'.repeat(probe.split('/').length - 1)
      const findings = await layerFindings(probe, [`export * from '${up}testing/index.js'`])
      expect(findings.length, findings.join('\n')).to.be.at.least(1)
      expect(findings.join('\n')).to.match(/testing kit|imports only itself/)
    })
  }

  it('refuses an adapter importing apps', async function () {
    const findings = await layerFindings('adapters/in-memory/__lint_probe__.ts', [
      "export * from '../../apps/server/config.js'",
    ])
    expect(findings).to.have.lengthOf(1)
    expect(findings[0]).to.match(/no-restricted-paths: .*Adapters never import apps/)
  })

  it('lets code outside an adapter import it through its index', async () => {
    const findings = await layerFindings('apps/server/__lint_probe__.ts', [
      "export { createHttpApp } from '../../adapters/http/index.js'",
      "export { makeInMemoryPlantStore } from '../../adapters/in-memory/index.js'",
    ])
    expect(findings).to.deep.equal([])
  })

  for (const probe of ['apps/server/__lint_probe__.ts', 'test/unit/core/__lint_probe__.ts', 'test/integration/adapters/http/__lint_probe__.ts']) {
    it(`refuses ${probe.split('/').slice(0, -1).join('/')} importing an adapter past its index`, async () => {
      const up = '../'.repeat(probe.split('/').length - 1)
      const findings = await layerFindings(probe, [
        `export { makeInMemoryPlantStore } from '${up}adapters/in-memory/plant-store.js'`,
        `export type { Logger } from '${up}adapters/static-tokens/authenticator.js'`,
      ])
      expect(findings).to.have.lengthOf(2)
      for (const finding of findings) expect(finding).to.match(/no-restricted-imports: .*Import an adapter through its index/)
    })
  }

  it('lets a floor of the HTTP adapter import the floors below it', async () => {
    const findings = await layerFindings('adapters/http/routes/__lint_probe__.ts', [
      "export { requestIdFrom } from '../context/request-context.js'",
      "export { routeNotFound } from '../errors/problems.js'",
      "export { requestBoundary } from '../request/boundary.js'",
      "export type { Logger } from '../ports/telemetry.js'",
      "export { isLiteralBasePath } from './dispatch.js'",
    ])
    expect(findings).to.deep.equal([])
  })

  it('refuses an HTTP adapter floor importing one above it, the app, or into server/', async () => {
    const floors = /import-x\/no-restricted-paths: .*The folders of adapters\/http\/ are floors/
    const errorsUp = await layerFindings('adapters/http/errors/__lint_probe__.ts', [
      "export type { ServedRequest } from '../context/request-context.js'",
    ])
    const requestUp = await layerFindings('adapters/http/request/__lint_probe__.ts', [
      "export { isLiteralBasePath } from '../routes/dispatch.js'",
      "export { createHttpApp } from '../app.js'",
    ])
    const intoServer = await layerFindings('adapters/http/body/__lint_probe__.ts', [
      "export { answerOnSocket } from '../server/parser-refusals.js'",
    ])
    const findings = [...errorsUp, ...requestUp, ...intoServer]
    expect(findings.map((finding) => finding.split(':')[0])).to.deep.equal(['1', '1', '2', '1'])
    for (const finding of findings) expect(finding).to.match(floors)
  })

  it("lets an adapter's own tests import its files, and only its own", async () => {
    const findings = await layerFindings('test/integration/adapters/mongodb/__lint_probe__.ts', [
      "export { toPlantDocument } from '../../../../adapters/mongodb/plant-document.js'",
      "export { makeJsonBodyReader } from '../../../../adapters/http/body/json-body.js'",
    ])
    expect(findings).to.have.lengthOf(1)
    expect(findings[0]).to.match(/^2: no-restricted-imports: .*through its index/)
  })

  it('refuses shipped code reading real time or setting timers of its own, except the system clock, and leaves tests their timers', async () => {
    const timeRules = new Set(['no-restricted-globals', 'no-restricted-properties', 'no-restricted-syntax'])
    // The timers are named, not called, in the probe: this file waits on no real time (test-tiers).
    const probe = [
      "import { setImmediate as soon } from 'node:timers/promises'",
      "export { setInterval } from 'timers'",
      'export const started = performance.now()',
      'export const stamp = Date.now()',
      'export const later = setTimeout.name',
      'export const every = setInterval.name',
      'export const next = setImmediate.name',
      'export const today = new Date()',
      'export const timer = globalThis.setTimeout',
      'export const signal = AbortSignal.timeout(10)',
      'export const start = process.hrtime()',
      'export const epoch = new Date(0)',
      'export const wait = soon',
    ]
    const timeFindings = async (filePath: string): Promise<ReadonlyArray<string>> => {
      const [result] = await eslint.lintText(probe.join('\n'), { filePath: `${ROOT}${filePath}` })
      return (result?.messages ?? []).filter((m) => m.ruleId !== null && timeRules.has(m.ruleId)).map((m) => `${m.line}: ${m.message}`)
    }
    for (const shipped of ['core/__lint_probe__.ts', 'wire/__lint_probe__.ts', 'adapters/http/body/__lint_probe__.ts', 'apps/server/__lint_probe__.ts', 'testing/__lint_probe__.ts']) {
      const findings = await timeFindings(shipped)
      expect(findings.map((finding) => Number.parseInt(finding, 10)), shipped).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
      for (const finding of findings) expect(finding).to.match(/Time is a port: .*through the Clock .*wire\/system-clock\.ts is the one place/)
    }
    expect(await timeFindings('wire/system-clock.ts')).to.deep.equal([])
    expect(await timeFindings('test/unit/__lint_probe__.test.ts')).to.deep.equal([])
  })

  it("refuses a test helper keeping mocha's describe, it or a hook as a value, and lets it call them", async () => {
    const [result] = await eslint.lintText(
      [
        "export const kept = { describe, it, skip: () => {} }",
        'const hook = beforeEach',
        'export const suite = (name: string): void => {',
        '  describe(name, () => {',
        "    before(() => {})",
        "    it('runs', () => {})",
        '  })',
        '}',
        'export const window = (before: number, after: number): number => after - before',
        'export { hook }',
      ].join('\n'),
      { filePath: `${ROOT}test/support/__lint_probe__.ts` },
    )
    const findings = (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => `${m.line}:${m.column}`)
    expect(findings).to.deep.equal(['1:23', '1:33', '2:14'])
  })
})
