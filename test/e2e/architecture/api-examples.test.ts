import { expect } from 'chai'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ts from 'typescript'
import { ROOT, run } from '../../support/clean-clone.js'
import { useCurrentBuild } from '../../support/current-build.js'

// The first page of the library: every function and constructor each subpath of package.json's
// `exports` offers carries an `@example` in its doc comment, and every example type-checks as a
// user pastes it, in a project of their own importing `plant-store/...` from the built package,
// under strict options.

const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')

interface Example {
  readonly subpath: string
  readonly name: string
  readonly code: ReadonlyArray<string>
}

// Each subpath's entry, as the source file its declarations are built from.
const entries = (): ReadonlyArray<{ readonly subpath: string; readonly source: string }> => {
  const { exports } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, string | { types?: string }> }
  return Object.entries(exports)
    .filter(([subpath, target]) => subpath !== '.' && typeof target === 'object' && target.types !== undefined)
    .map(([subpath, target]) => ({
      subpath: `plant-store${subpath.slice(1)}`,
      source: join(ROOT, (target as { types: string }).types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '.ts')),
    }))
}

// A code block of an `@example` tag, without its fences.
const codeOf = (comment: string | ReadonlyArray<ts.JSDocComment> | undefined): ReadonlyArray<string> => {
  const text = typeof comment === 'string' ? comment : (comment ?? []).map((part) => part.text).join('')
  return [...text.matchAll(/```(?:ts|typescript)?\n([\s\S]*?)```/g)].map(([, code = '']) => code)
}

const examplesOf = (declaration: ts.Declaration): ReadonlyArray<string> => {
  const documented = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration
  return ts.getJSDocTags(documented).filter((tag) => tag.tagName.text === 'example').flatMap((tag) => codeOf(tag.comment))
}

/** Every function and constructor each subpath exports, with the examples of its doc comment. */
const publicCallables = (): ReadonlyArray<Example> => {
  const all = entries()
  const { config } = ts.readConfigFile(join(ROOT, 'tsconfig.json'), (file) => ts.sys.readFile(file))
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT)
  const program = ts.createProgram(all.map(({ source }) => source), { ...options, noEmit: true })
  const checker = program.getTypeChecker()
  return all.flatMap(({ subpath, source }) => {
    const file = program.getSourceFile(source) ?? expect.fail(`no source for ${subpath}: ${source}`)
    const module = checker.getSymbolAtLocation(file) ?? expect.fail(`${source} is not a module`)
    return checker.getExportsOfModule(module).flatMap((exported) => {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
      const declaration = symbol.valueDeclaration
      if (declaration === undefined) return []
      const type = checker.getTypeOfSymbolAtLocation(symbol, declaration)
      if (type.getCallSignatures().length === 0 && type.getConstructSignatures().length === 0) return []
      return [{ subpath, name: exported.name, code: examplesOf(declaration) }]
    })
  })
}

describe('the examples of the public API', function () {
  this.timeout(300_000)
  useCurrentBuild()

  const callables = publicCallables()

  it('documents every function and constructor of every subpath with an example', function () {
    expect(callables.length).to.be.greaterThan(50)
    const missing = callables.filter(({ code }) => code.length === 0).map(({ subpath, name }) => `${subpath}: ${name}`)
    expect(missing, 'no @example').to.deep.equal([])
  })

  it('type-checks every example against the built package, as a user would paste it', async function () {
    const dir = mkdtempSync(join(tmpdir(), 'plant-store-examples-'))
    try {
      // The user's project: the built package installed as plant-store, the libraries beside it.
      const modules = join(dir, 'node_modules')
      mkdirSync(modules)
      for (const name of readdirSync(join(ROOT, 'node_modules'))) {
        if (!name.startsWith('.')) symlinkSync(join(ROOT, 'node_modules', name), join(modules, name))
      }
      symlinkSync(ROOT, join(modules, 'plant-store'), 'dir')
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'examples', private: true, type: 'module' }))
      const files = callables.flatMap(({ subpath, name, code }) =>
        code.map((text, index) => {
          const file = `${subpath.replace(/\W+/g, '-')}-${name}-${index}.ts`
          // Each example is a module of its own, as a file a user pastes it into is.
          writeFileSync(join(dir, file), `${text}\nexport {}\n`)
          return file
        }),
      )
      const compilerOptions = {
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        verbatimModuleSyntax: true,
        skipLibCheck: true,
        noEmit: true,
        target: 'ES2023',
        lib: ['ES2023'],
        types: ['node'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
      }
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }))
      try {
        await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: dir, maxBuffer: 16 * 1024 * 1024 })
      } catch (error) {
        const { stdout = '' } = error as { stdout?: string }
        expect.fail(`the examples do not type-check:\n${stdout}`)
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
