import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { isBuilt } from '../support/service-process.js'

const example = fileURLToPath(new URL('../../examples/embedding.ts', import.meta.url))
const readme = fileURLToPath(new URL('../../README.md', import.meta.url))

describe('embedding the core, as the README shows', function () {
  this.timeout(20_000)
  before(function () {
    if (!isBuilt()) this.skip() // the example imports the package by name, which resolves to dist/
  })

  it('runs against the built package and creates a plant', async function () {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', example])
    expect(stdout.trim()).to.equal("{ name: 'Monstera' }")
  })

  it('is the code the README shows, verbatim', function () {
    const code = readFileSync(example, 'utf8').split('\n').slice(1).join('\n')
    expect(readFileSync(readme, 'utf8')).to.include(code)
  })
})
