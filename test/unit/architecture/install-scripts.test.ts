import { expect } from 'chai'
import { readFileSync } from 'node:fs'

// npm 11 warns at every install about a locked package whose install script package.json's
// allowScripts does not decide, and npm 12 does not run it: each one is decided, on purpose.
const ROOT = new URL('../../../', import.meta.url)
const read = (file: string): unknown => JSON.parse(readFileSync(new URL(file, ROOT), 'utf8'))

describe('the install scripts of the locked packages', function () {
  it('are each approved or denied in package.json', function () {
    const { allowScripts = {} } = read('package.json') as { allowScripts?: Record<string, boolean> }
    const { packages } = read('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean }> }
    const withScripts = Object.entries(packages)
      .filter(([path, { hasInstallScript }]) => path !== '' && hasInstallScript === true)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length))
    expect(withScripts.filter((name) => !(name in allowScripts)), 'undecided').to.deep.equal([])
  })

  it('deny telemetry, and the mongod download the tests make themselves when they can', function () {
    const { allowScripts = {} } = read('package.json') as { allowScripts?: Record<string, boolean> }
    expect(allowScripts).to.include({ '@scarf/scarf': false, 'mongodb-memory-server': false })
  })
})
