import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { openApiDocument } from '../../../../../adapters/http/index.js'
import { TEST_BODY_LIMIT_BYTES } from '../../../../support/limits.js'
import { reportPending } from '../../../../support/pending.js'
import { installTools } from '../../../../support/tools.js'

const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url))
// The linters have an install of their own, made by the first run that needs them.
const LINTERS = 'tools/linters'
const bin = (name: string) => join(ROOT, LINTERS, 'node_modules', '.bin', name)
// Offline and quiet: no telemetry, no update check, no analytics from install scripts.
const OFFLINE = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', SCARF_ANALYTICS: 'false', DO_NOT_TRACK: '1' }

const run = async (file: string, args: ReadonlyArray<string>): Promise<string> => {
  try {
    return (await promisify(execFile)(file, [...args], { cwd: ROOT, env: OFFLINE })).stdout
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string }
    expect.fail(`${file} ${args.join(' ')} found problems:\n${stdout}${stderr}`)
  }
}

// Both linters read the document as /openapi.json serves it, for each kind of base path.
for (const basePath of ['', '/api/v1']) {
  describe(`the OpenAPI document for base path '${basePath}', linted`, function () {
    this.timeout(60_000)
    let dir: string
    let file: string
    before(function () {
      dir = mkdtempSync(join(tmpdir(), 'plant-store-openapi-'))
      file = join(dir, 'openapi.json')
      writeFileSync(file, JSON.stringify(openApiDocument(basePath, { bodyLimitBytes: TEST_BODY_LIMIT_BYTES }), null, 2))
      const linters = installTools(LINTERS)
      if ('missing' in linters) {
        reportPending('the OpenAPI linters', linters.missing)
        this.skip()
      }
    })
    after(function () {
      rmSync(dir, { recursive: true, force: true })
    })

    it("has no problem under Redocly's recommended rules (redocly.yaml)", async function () {
      const output = await run(bin('redocly'), ['lint', '--config', join(ROOT, 'redocly.yaml'), '--format', 'json', file])
      const report = JSON.parse(output) as { problems: ReadonlyArray<unknown> }
      expect(report.problems, JSON.stringify(report.problems, null, 2)).to.deep.equal([])
    })

    it("has no problem under Spectral's spectral:oas rules (.spectral.yaml)", async function () {
      // --fail-severity hint: a warning, an info or a hint fails the run, and the test with it.
      const output = await run(bin('spectral'), ['lint', '--ruleset', join(ROOT, '.spectral.yaml'), '--fail-severity', 'hint', '--format', 'json', file])
      expect(output).to.match(/^\[\]/)
    })
  })
}
