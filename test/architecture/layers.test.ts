import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect } from 'chai'
import { describeViolation, importsOf, layerViolations } from './layer-rules.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const SOURCE = /\.[cm]?[jt]s$/

// Every source file under the given project folders, as `core/plant.ts`-style paths.
const sourceFiles = (...folders: ReadonlyArray<string>): ReadonlyArray<string> =>
  folders.flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && SOURCE.test(entry.name))
      .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split(sep).join('/')),
  )

const violationsIn = (file: string): ReadonlyArray<string> =>
  layerViolations(file, readFileSync(join(ROOT, file), 'utf8')).map(describeViolation)

describe('the layers of the hexagon, read from the sources', () => {
  const files = sourceFiles('core', 'adapters', 'apps')

  it('finds the sources it checks', () => {
    expect(files).to.include.members(['core/plant.ts', 'core/ports/plant-store.ts', 'adapters/in-memory/plant-store.ts'])
  })

  it('has the core import only fp-ts, io-ts and the core', () => {
    expect(files.filter((f) => f.startsWith('core/')).flatMap(violationsIn)).to.deep.equal([])
  })

  it('has no adapter import another adapter, or apps', () => {
    expect(files.filter((f) => f.startsWith('adapters/')).flatMap(violationsIn)).to.deep.equal([])
  })

  it('has the apps import freely (they compose)', () => {
    expect(files.filter((f) => f.startsWith('apps/')).flatMap(violationsIn)).to.deep.equal([])
  })
})

describe('the layer checker itself', () => {
  const check = (file: string, source: string): ReadonlyArray<string> =>
    layerViolations(file, source).map(describeViolation)

  it('reads every kind of import, and none in comments or strings', () => {
    const source = [
      "import type * as t from 'io-ts'",
      "import { a } from './a.js'",
      "export * from '../b.js'",
      "const lazy = await import('lazy')",
      "const required = require('required')",
      "// import { c } from 'commented'",
      "const text = \"import d from 'quoted'\"",
    ].join('\n')
    expect(importsOf(source)).to.deep.equal(['io-ts', './a.js', '../b.js', 'lazy', 'required'])
  })

  it('lets the core import fp-ts, io-ts and the core', () => {
    const source = [
      "import * as TE from 'fp-ts/lib/TaskEither.js'",
      "import * as t from 'io-ts'",
      "import type { NewPlant } from '../plant.js'",
      "import { PlantId } from './ids.js'",
    ].join('\n')
    expect(check('core/ports/x.ts', source)).to.deep.equal([])
  })

  it('catches the core importing a framework, a driver, Node I/O, an adapter or apps', () => {
    const source = [
      "import Koa from 'koa'",
      "import type { Collection } from 'mongodb'",
      "import { readFile } from 'node:fs/promises'",
      "export { makeInMemoryPlantStore } from '../adapters/in-memory/index.js'",
      "const main = await import('../apps/server/main.js')",
      "import { plant } from '../test/support/plants.js'",
    ].join('\n')
    expect(check('core/x.ts', source)).to.deep.equal([
      "core/x.ts: import 'koa': the core imports only fp-ts, io-ts and the core",
      "core/x.ts: import 'mongodb': the core imports only fp-ts, io-ts and the core",
      "core/x.ts: import 'node:fs/promises': the core imports only fp-ts, io-ts and the core",
      "core/x.ts: import '../adapters/in-memory/index.js': the core imports only fp-ts, io-ts and the core",
      "core/x.ts: import '../apps/server/main.js': the core imports only fp-ts, io-ts and the core",
      "core/x.ts: import '../test/support/plants.js': the core imports only fp-ts, io-ts and the core",
    ])
  })

  it('catches a relative import that climbs out of the core from a subfolder', () => {
    expect(check('core/ports/x.ts', "import { y } from '../../adapters/http/y.js'")).to.have.lengthOf(1)
    expect(check('core/ports/x.ts', "import { y } from '../y.js'")).to.deep.equal([])
  })

  it('lets an adapter import the core, packages and its own files', () => {
    const source = [
      "import { createPlant } from '../../core/index.js'",
      "import Koa from 'koa'",
      "import { readFile } from 'node:fs/promises'",
      "import { toErrorResponse } from './error-response.js'",
      "import { NewPlant } from 'plant-store/core'",
    ].join('\n')
    expect(check('adapters/http/app.ts', source)).to.deep.equal([])
  })

  it('catches an adapter importing another adapter, by path or by package name, or apps', () => {
    const source = [
      "import { makeMongoPlantStore } from '../mongodb/index.js'",
      "import { makeJwtAuthenticator } from 'plant-store/adapters/jwt'",
      "import { loadConfig } from '../../apps/server/config.js'",
    ].join('\n')
    expect(check('adapters/http/app.ts', source)).to.deep.equal([
      "adapters/http/app.ts: import '../mongodb/index.js': adapters never import each other (adapters/http imports adapters/mongodb)",
      "adapters/http/app.ts: import 'plant-store/adapters/jwt': adapters never import each other (adapters/http imports adapters/jwt)",
      "adapters/http/app.ts: import '../../apps/server/config.js': adapters never import apps",
    ])
  })
})
