import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BrowserContext } from '../../tools/browser/index.js'
import { reportPending } from './pending.js'
import { installTools } from './tools.js'

// A real browser for the tests that need one: Debian's chromium, headless, with a fresh profile
// each run (nothing cached, no state from another run) and nothing that calls out to the internet.

export const CHROMIUM = '/usr/bin/chromium'

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export interface Browser {
  readonly context: BrowserContext
  readonly close: () => Promise<void>
}

/** A started browser, or why none can start here (for a pending test). */
export const launchBrowser = async (): Promise<Browser | { readonly missing: string }> => {
  if (!existsSync(CHROMIUM)) return { missing: `no browser at ${CHROMIUM}; apt-get install -y chromium` }
  const driver = installTools('tools/browser')
  if ('missing' in driver) return driver
  const { chromium } = await import('../../tools/browser/index.js')
  const profile = mkdtempSync(join(tmpdir(), 'plant-store-chromium-'))
  try {
    const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: FLAGS, viewport: { width: 1280, height: 900 } })
    return {
      context,
      close: async () => {
        await context.close()
        rmSync(profile, { recursive: true, force: true })
      },
    }
  } catch (error) {
    rmSync(profile, { recursive: true, force: true })
    return { missing: `${CHROMIUM} does not start here: ${String(error).split('\n')[0]}` }
  }
}

/**
 * The browser of a suite: launched before it and closed after it; where none can start here,
 * the suite is pending, `what` naming it.
 */
export const useBrowser = (what: string): { readonly context: () => BrowserContext } => {
  let browser: Browser | undefined
  before(async function () {
    // The first run installs the browser driver.
    this.timeout(120_000)
    const launched = await launchBrowser()
    if ('missing' in launched) {
      reportPending(what, launched.missing)
      this.skip()
    }
    browser = launched
  })
  after(async function () {
    await browser?.close()
  })
  return {
    context: () => {
      if (browser === undefined) throw new Error('the browser is launched before the suite')
      return browser.context
    },
  }
}
