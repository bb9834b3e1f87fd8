import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import semver from 'semver'

// The README's minimum Node is package.json's engines field; `npm ci` on that Node warns
// (EBADENGINE) for every locked package that asks for a newer one. None may.
const ROOT = new URL('../../../', import.meta.url)
const read = (file: string): unknown => JSON.parse(readFileSync(new URL(file, ROOT), 'utf8'))

describe("the locked packages and the project's minimum Node", function () {
  it('holds no package whose engines field excludes the minimum in package.json', function () {
    const { engines } = read('package.json') as { engines: { node: string } }
    const minimum = semver.minVersion(engines.node)?.version ?? expect.fail(`engines.node is not a range: ${engines.node}`)
    const { packages } = read('package-lock.json') as { packages: Record<string, { version?: string; engines?: { node?: string } }> }
    const excluding = Object.entries(packages)
      .filter(([, { engines: wanted }]) => wanted?.node !== undefined && !semver.satisfies(minimum, wanted.node))
      .map(([path, { version, engines: wanted }]) => `${path}@${version ?? '?'} wants node ${wanted?.node ?? ''}`)
    expect(excluding, `Node ${minimum}`).to.deep.equal([])
  })

  it('states the same minimum in the README', function () {
    const { engines } = read('package.json') as { engines: { node: string } }
    const minimum = semver.minVersion(engines.node)?.version.replace(/\.0$/, '') ?? ''
    expect(readFileSync(new URL('README.md', ROOT), 'utf8')).to.include(`Node ${minimum} or newer`)
  })
})
