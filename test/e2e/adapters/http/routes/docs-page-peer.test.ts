import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'

// The /docs page serves Swagger UI's files; nothing in the server runs them. A process that builds
// the app loads no module of swagger-ui-dist (its main module runs the browser bundle, which on
// Node 26 warns that `localStorage` is not available), and warns of nothing. Its own process, so
// no other test's imports are counted.
const ROOT = new URL('../../../../../', import.meta.url)
const PROGRAM = `
const warnings = []
process.on('warning', (warning) => warnings.push(warning.name + ': ' + warning.message))
const { createRequire } = await import('node:module')
const { createHttpApp } = await import('./adapters/http/index.ts')
const { makeInMemoryPlantStore } = await import('./adapters/in-memory/index.ts')
const { makeStaticTokenAuthenticator } = await import('./adapters/static-tokens/index.ts')
createHttpApp({ plantStore: makeInMemoryPlantStore(), authenticator: makeStaticTokenAuthenticator(['docs-page-peer-token-0123456789']) })
await new Promise((resolve) => setTimeout(resolve, 100))
const loaded = Object.keys(createRequire(import.meta.url).cache).filter((file) => file.includes('swagger-ui-dist'))
console.log(JSON.stringify({ loaded, warnings }))
`

describe('the /docs page and the swagger-ui-dist package', function () {
  this.timeout(60_000)

  it('builds the app serving the page without loading any module of swagger-ui-dist, and without a warning', async function () {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', PROGRAM], {
      cwd: ROOT,
    })
    expect(JSON.parse(stdout)).to.deep.equal({ loaded: [], warnings: [] })
    expect(stderr).to.equal('')
  })
})
