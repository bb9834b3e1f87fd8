import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect } from 'chai'
import { reportPending } from '../../support/pending.js'
import { installTools } from '../../support/tools.js'

// docs/api/ is generated from the code by TypeDoc (`npm run docs`, typedoc.json). Regenerated into
// a temporary folder, it must be the committed folder page for page: a changed signature or doc
// comment without `npm run docs` fails here.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const COMMITTED = join(ROOT, 'docs/api')

const pages = (dir: string): ReadonlyMap<string, string> =>
  new Map(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const path = join(entry.parentPath, entry.name)
        return [path.slice(dir.length + 1), readFileSync(path, 'utf8')] as const
      }),
  )

describe('the API reference in docs/api', function () {
  this.timeout(180_000)
  let fresh: string

  before(function () {
    fresh = mkdtempSync(join(tmpdir(), 'plant-store-api-'))
    // TypeDoc has an install of its own, made by the first run that needs it.
    const typedoc = installTools('tools/api-docs')
    if ('missing' in typedoc) {
      reportPending('the API reference', typedoc.missing)
      this.skip()
    }
  })
  after(function () {
    rmSync(fresh, { recursive: true, force: true })
  })

  it('is what npm run docs generates from the code now', async function () {
    await promisify(execFile)(process.execPath, [join(ROOT, 'tools/api-docs/node_modules/typedoc/bin/typedoc'), '--out', fresh], { cwd: ROOT })
    const generated = pages(fresh)
    const committed = pages(COMMITTED)
    expect([...committed.keys()].sort(), 'the pages (run npm run docs)').to.deep.equal([...generated.keys()].sort())
    for (const [page, text] of generated) expect(committed.get(page), `${page} (run npm run docs)`).to.equal(text)
  })
})
