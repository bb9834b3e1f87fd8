import { expect } from 'chai'
import { once } from 'node:events'
import { mkdirSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { useBrowser } from '../../../../support/browser.js'
import { createHttpApp } from '../../../../../adapters/http/index.js'
import { makeInMemoryPlantStore } from '../../../../../adapters/in-memory/index.js'
import { makeStaticTokenAuthenticator } from '../../../../../adapters/static-tokens/index.js'
import { startTestApp, TOKEN, type TestApp } from '../../../../support/http-app.js'

const ARTIFACTS = fileURLToPath(new URL('../../../../../test-artifacts/', import.meta.url))


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

describe('the /docs page under a prefix its app does not know', function () {
  this.timeout(60_000)
  const browser = useBrowser('the /docs page under a prefix its app does not know')

  it("loads its files and the document through the prefix, as behind koa-mount or a prefix-stripping proxy, and its 'Try it out' posts there", async function () {
    const app = createHttpApp({ plantStore: makeInMemoryPlantStore(), authenticator: makeStaticTokenAuthenticator([TOKEN]) })
    const serveApp = app.callback()
    const seen: string[] = []
    // What koa-mount and a stripping proxy both do: the app sees the path without the prefix.
    const server = createServer((request, response) => {
      seen.push(request.url ?? '')
      if (request.url?.startsWith('/prefix/') === true) {
        request.url = request.url.slice('/prefix'.length)
        void serveApp(request, response)
      } else response.writeHead(404).end()
    })
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    try {
      const page = await browser.context().newPage()
      const failed: string[] = []
      page.on('requestfailed', (request) => failed.push(request.url()))
      page.on('response', (response) => {
        if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`)
      })
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/prefix/docs`)
      const operation = page.locator('.opblock-post').filter({ hasText: '/plants' })
      await operation.waitFor({ state: 'visible' })
      // A person trying the operation: the token, "Try it out" with the example body, "Execute".
      await page.locator('button.authorize').first().click()
      await page.locator('.dialog-ux input').first().fill(TOKEN)
      await page.locator('.dialog-ux button.authorize').click()
      await page.locator('.dialog-ux button.close-modal').click()
      await operation.locator('button.try-out__btn').click()
      await operation.locator('button.execute').click()
      const status = operation.locator('.live-responses-table .response .response-col_status').first()
      await status.waitFor({ state: 'visible' })
      const answered = (await status.innerText()).trim()
      await page.close()
      expect(failed).to.deep.equal([])
      expect(seen).to.include.members(['/prefix/docs', '/prefix/docs/swagger-ui.css', '/prefix/docs/swagger-ui-bundle.js', '/prefix/docs/docs.js', '/prefix/openapi.json'])
      expect(seen, "where 'Try it out' posted").to.include('/prefix/plants')
      expect(answered).to.equal('200')
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })
})
