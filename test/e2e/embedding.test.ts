import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { useCurrentBuild } from '../support/current-build.js'

const example = fileURLToPath(new URL('../../examples/embedding.ts', import.meta.url))
const readme = fileURLToPath(new URL('../../README.md', import.meta.url))

describe('embedding the core, as the README shows', function () {
  this.timeout(20_000)
  useCurrentBuild() // the example imports the package by name, which resolves to dist/

  it('runs against the built package and creates a plant', async function () {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', example])
    expect(stdout.trim()).to.equal("{ name: 'Monstera' }")
  })

  it('resolves every subpath that package.json exports, with its type declarations', async function () {
    const manifest = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as {
      exports: Record<string, string | { types: string; default: string }>
    }
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      if (typeof target === 'string') continue
      expect(existsSync(fileURLToPath(new URL(`../../${target.types}`, import.meta.url))), `${subpath} types`).to.equal(true)
      const specifier = `plant-store${subpath.slice(1)}`
      const loaded = (await import(specifier)) as Record<string, unknown>
      expect(Object.keys(loaded), specifier).to.have.length.above(0)
    }
  })

  it('is the code the README shows, verbatim', function () {
    const code = readFileSync(example, 'utf8').split('\n').slice(1).join('\n')
    expect(readFileSync(readme, 'utf8')).to.include(code)
  })
})
