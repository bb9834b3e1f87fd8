// publint, resolved from this folder's own install (scripts/install-tools.mjs), which the
// project's `npm ci` leaves out: the package test imports it from here.
export { publint } from 'publint'
export { formatMessage } from 'publint/utils'
