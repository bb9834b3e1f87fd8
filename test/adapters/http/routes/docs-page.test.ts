import { expect } from 'chai'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { useBrowser } from '../../../support/browser.js'
import { startTestApp, type TestApp } from '../../../support/http-app.js'

const ARTIFACTS = fileURLToPath(new URL('../../../../test-artifacts/', import.meta.url))


describe('the /docs page in a headless browser', function () {
  this.timeout(60_000)
  let app: TestApp | undefined
  const browser = useBrowser('the /docs page in a headless browser')

  before(async function () {
    app = await startTestApp({ basePath: '/api/v1' })
  })
  after(async function () {
    await app?.close()
  })

  it('renders POST /plants with its schemas, every status and the bearer scheme, from this host only, with no console error', async function () {
    if (app === undefined) return expect.fail('the app did not start')
    const url = app.url
    const page = await browser.context().newPage()
    const problems: Array<string> = []
    const hosts = new Set<string>()
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`)
    })
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
    page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`))
    page.on('request', (request) => {
      const url = new URL(request.url())
      if (url.protocol !== 'data:') hosts.add(url.host)
    })
    const origin = new URL(url)
    // Every status the served document gives POST /plants must be on the page.
    const document = (await (await fetch(`${url}/openapi.json`)).json()) as {
      paths: Record<string, { post?: { responses: Record<string, unknown> } }>
    }
    const statuses = Object.keys(document.paths['/api/v1/plants']?.post?.responses ?? {})
    expect(statuses).to.include.members(['200', '400', '401', '409', '500', '503'])
    const response = await page.goto(`${url}/docs`)
    expect(response?.status()).to.equal(200)
    expect(response?.headers()['content-security-policy']).to.include("default-src 'none'")

    const operation = page.locator('.opblock-post').filter({ hasText: '/api/v1/plants' })
    await operation.waitFor({ state: 'visible' })
    for (const status of statuses) {
      await operation.locator(`tr.response[data-code="${status}"]`).waitFor({ state: 'attached' })
    }
    const text = await operation.innerText()
    expect(text).to.include('NewPlant').and.include('Plant')
    const schemas = await page.locator('section.models').innerText()
    expect(schemas).to.include('NewPlant').and.include('Plant').and.include('Error')

    await page.locator('button.authorize').first().click()
    const dialog = page.locator('.dialog-ux')
    await dialog.waitFor({ state: 'visible' })
    expect(await dialog.innerText()).to.match(/http, Bearer/i)
    await page.locator('.dialog-ux button.close-modal').click()

    mkdirSync(ARTIFACTS, { recursive: true })
    await page.screenshot({ path: join(ARTIFACTS, 'docs.png'), fullPage: false })
    await page.close()

    expect(problems).to.deep.equal([])
    expect([...hosts]).to.deep.equal([origin.host])
  })
})
