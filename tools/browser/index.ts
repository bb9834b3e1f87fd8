// The browser driver, resolved from this folder's own install (scripts/install-tools.mjs), which
// the project's `npm ci` leaves out: the tests import it from here.
export { chromium, type BrowserContext } from 'playwright-core'
